package supervisor

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/hooksup/hooksup/agent/copilot"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
)

func TestHasMessage(t *testing.T) {
	for _, tc := range []struct {
		lastText, message string
		want              bool
	}{
		{"The answer is 42.", "The answer is 42.", true},
		{"Second block.", "First block.\n\nSecond block.", true},
		{"The answer is", "The answer is 42.", true},  // cut by the transcript's text cap…
		{"The answer is…", "The answer is 42.", true}, // …which marks the cut
		{"An older message.", "The answer is 42.", false},
		{"", "The answer is 42.", false},
	} {
		if got := hasMessage(tc.lastText, tc.message); got != tc.want {
			t.Errorf("hasMessage(%q, %q) = %v", tc.lastText, tc.message, got)
		}
	}
}

// A Copilot stop whose hook read the events log before Copilot wrote the stop's own line there
// (hooks.Input.StopMark) gets the reply before that line once the tail reads it, not the older
// reply the hook found.
func TestStopReplyFollowsTheLog(t *testing.T) {
	b, err := os.ReadFile("../agent/copilot/testdata/transcript-events.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, bytes.Join(lines[:10], nil), 0o600); err != nil { // up to the first reply's turn_end
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	f := newTranscriptFeed(ctx, func(session.Event) {}, slog.New(slog.DiscardHandler), copilot.Agent{}.Transcript())
	f.follow(path)
	in := &hooks.Input{HookEventName: hooks.Stop, TranscriptPath: path, LastAssistantMessage: "first answer", StopMark: "1795792797958"}
	done := make(chan struct{})
	go func() {
		f.stopReply(ctx, in)
		close(done)
	}()
	w, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(bytes.Join(lines[10:16], nil)) // the reply after the block, the second stop's hook.start
	w.Close()
	<-done
	if in.LastAssistantMessage != "fixed after gate" {
		t.Fatalf("last message %q, want the reply before the stop's own line", in.LastAssistantMessage)
	}

	// A line that never comes: the stop keeps what its hook read.
	in = &hooks.Input{HookEventName: hooks.Stop, LastAssistantMessage: "what the hook read", StopMark: "1"}
	gone, stop := context.WithCancel(ctx)
	stop()
	f.stopReply(gone, in)
	if in.LastAssistantMessage != "what the hook read" {
		t.Fatalf("last message %q", in.LastAssistantMessage)
	}
}
