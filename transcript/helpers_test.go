package transcript

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// sampleLines returns the lines of a file under testdata (copied from Claude Code 2.1.330).
func sampleLines(t testing.TB, name string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		out = append(out, bytes.Clone(sc.Bytes()))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Line builders for synthetic transcripts, in the compact shape claude writes.

func promptLine(text string) string {
	return fmt.Sprintf(`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":%q},"uuid":"u","timestamp":"2026-11-22T09:25:40.572Z","turnOrigin":"cli","sessionId":"s"}`, text)
}

func assistantLine(msgID, reqID, model, text string, in, out int) string {
	req := ""
	if reqID != "" {
		req = fmt.Sprintf(`,"requestId":%q`, reqID)
	}
	return fmt.Sprintf(`{"parentUuid":"p","isSidechain":false,"message":{"id":%q,"type":"message","role":"assistant","model":%q,"content":[{"type":"text","text":%q}],"stop_reason":"end_turn","usage":{"input_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":%d}}%s,"type":"assistant","timestamp":"2026-11-22T09:25:41.000Z","sessionId":"s"}`, msgID, model, text, in, out, req)
}

func toolUseLine(msgID, reqID, tool string) string {
	return fmt.Sprintf(`{"parentUuid":"p","isSidechain":false,"message":{"id":%q,"model":"claude-opus-5-5","content":[{"type":"tool_use","id":"toolu_%s","name":%q,"input":{}}],"usage":{"input_tokens":10,"output_tokens":5}},"requestId":%q,"type":"assistant","sessionId":"s"}`, msgID, tool, tool, reqID)
}

// collector gathers a watcher's updates.
type collector struct {
	mu      sync.Mutex
	updates []Update
	changed chan struct{} // closed and replaced on each update
	done    chan struct{} // closed when Updates is closed
}

// startWatcher runs a watcher on path until the test ends, collecting its updates. The cleanup
// stops it and checks that Run returned nil and closed Updates.
func startWatcher(t *testing.T, path string, opts Options) (*Watcher, *collector) {
	t.Helper()
	w := NewWatcher(path, opts)
	c := &collector{changed: make(chan struct{}), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- w.Run(ctx) }()
	go func() {
		for u := range w.Updates() {
			c.mu.Lock()
			c.updates = append(c.updates, u)
			close(c.changed)
			c.changed = make(chan struct{})
			c.mu.Unlock()
		}
		close(c.done)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-errc:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("Run did not return after cancel")
		}
		<-c.done
	})
	return w, c
}

// waitFor waits until cond holds for the updates so far (a 30 s deadline guards a hang; the
// tests assert no timings).
func (c *collector) waitFor(t *testing.T, what string, cond func([]Update) bool) []Update {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		c.mu.Lock()
		us := append([]Update(nil), c.updates...)
		ch := c.changed
		c.mu.Unlock()
		if cond(us) {
			return us
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("timed out waiting for %s; got %d updates: %s", what, len(us), kinds(us))
		}
	}
}

// count returns how many updates are of kind k.
func count(us []Update, k Kind) int {
	n := 0
	for _, u := range us {
		if u.Record.Kind == k {
			n++
		}
	}
	return n
}

func kinds(us []Update) string {
	var b bytes.Buffer
	for _, u := range us {
		fmt.Fprintf(&b, "%s[%s] ", u.Record.Kind, u.Source.AgentID)
	}
	return b.String()
}

// appendFile appends s to the file at path, creating it.
func appendFile(t testing.TB, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
