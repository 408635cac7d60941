package supervisor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/verdictlog"
)

// assistantLine is the line claude writes to its transcript for an assistant's final text.
func assistantLine(text string, at time.Time) []byte {
	b, _ := json.Marshal(map[string]any{"type": "assistant", "uuid": fmt.Sprintf("u-%d", at.UnixNano()), "sessionId": "order",
		"timestamp": at.UTC().Format("2006-01-02T15:04:05.000Z"), "message": map[string]any{"id": "m-" + text, "type": "message",
			"role": "assistant", "model": "claude-opus-5-5", "content": []map[string]any{{"type": "text", "text": text}},
			"stop_reason": "end_turn", "usage": map[string]any{"input_tokens": 10, "output_tokens": 5}}})
	return append(b, '\n')
}

// The line claude writes of the other hooks at a stop can reach hooksup after the next stop's
// hook: that stop's verdict, waiting for its observation, is still written after the first
// stop's OtherHooks entry, so the log tells each stop's lines in order.
func TestOtherHooksOfAStopComeBeforeTheNextStop(t *testing.T) {
	ss := startStorm(t)
	path := filepath.Join(ss.dir, "transcript.jsonl")
	appendLine := func(b []byte) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	stopInput := func(msg string) []byte {
		return fmt.Appendf(nil, `{"session_id":"order","transcript_path":%q,"cwd":%q,"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":%q}`,
			path, ss.dir, msg)
	}
	appendLine(assistantLine("First answer.", time.Now()))
	if _, out := ss.call(hooks.Stop, stopInput("First answer.")); len(out) != 0 {
		t.Fatalf("first stop: %q, want allow", out)
	}
	// The other hooks ran after hooksup's, before the agent went on: their line's time is
	// between the two stops (it has milliseconds only).
	hooksRan := time.Now().Add(2 * time.Millisecond)
	time.Sleep(10 * time.Millisecond)
	// The second stop's message is not in the transcript yet: its verdict waits for it.
	if _, out := ss.call(hooks.Stop, stopInput("Second answer.")); len(out) != 0 {
		t.Fatalf("second stop: %q, want allow", out)
	}
	appendLine(append(summaryLine(hooksRan, "i1", "", []string{"/home/u/notes.sh"}, nil), '\n'))
	deadline := time.Now().Add(10 * time.Second)
	for {
		ss.sup.others.mu.Lock()
		told := ss.sup.others.told[1]
		ss.sup.others.mu.Unlock()
		if told {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first stop's other hooks were never read")
		}
		time.Sleep(5 * time.Millisecond)
	}
	appendLine(assistantLine("Second answer.", time.Now()))
	ss.stop(t)
	f, err := os.Open(verdictlog.Path(verdictlog.SessionsDir(filepath.Join(ss.dir, "state")), "order"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	vs, errs := verdictlog.Read(f)
	var got []string
	for _, v := range vs {
		got = append(got, fmt.Sprintf("%s:%d", v.Event, v.Stop))
	}
	if want := "Stop:1 OtherHooks:1 Stop:2"; len(errs) > 0 || strings.Join(got, " ") != want {
		t.Fatalf("verdict log %v (%v), want %s", got, errs, want)
	}
}
