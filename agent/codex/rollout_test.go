package codex

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
)

// rollout-block.jsonl is what Codex 0.169.0 wrote for `codex exec "say hi"` offline: the model
// ran one shell command, said DONE-ONE, a Stop hook blocked once, and it said DONE-TWO.
func TestCodexRollout(t *testing.T) {
	f, err := os.Open("testdata/rollout-block.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := transcript.NewParser(transcript.Options{Decoder: Agent{}.Transcript()})
	if _, err := p.ReadFrom(f); err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	if st.Malformed != 0 {
		t.Errorf("malformed lines: %d", st.Malformed)
	}
	if st.Model != "mock-model" {
		t.Errorf("model %q, want mock-model", st.Model)
	}
	// Three responses of 1200 input (1000 cached) and 30 output tokens: Codex's total_tokens.
	want := session.Usage{InputTokens: 600, CacheReadTokens: 3000, OutputTokens: 90}
	if st.Usage != want || st.Usage.Total() != 3690 || st.Messages != 3 {
		t.Errorf("usage %+v (total %d) over %d messages, want %+v (3690) over 3", st.Usage, st.Usage.Total(), st.Messages, want)
	}
	if st.ByModel["mock-model"] != want {
		t.Errorf("by model %v", st.ByModel)
	}
	if st.ToolCallCount != 1 || st.ToolCalls["exec_command"] != 1 || st.ToolResults != 1 {
		t.Errorf("tool calls %v (%d), results %d; want one exec_command and its result", st.ToolCalls, st.ToolCallCount, st.ToolResults)
	}
	if st.Turns != 1 || st.LastPrompt != "say hi" {
		t.Errorf("turns %d, last prompt %q; want 1, say hi", st.Turns, st.LastPrompt)
	}
	if st.TurnsEnded != 1 || st.LastTurn != 631*time.Millisecond {
		t.Errorf("turns ended %d, last %v; want 1, 631ms", st.TurnsEnded, st.LastTurn)
	}
	if st.LastText != "DONE-TWO" {
		t.Errorf("last text %q, want DONE-TWO", st.LastText)
	}
}

func TestCodexRolloutLines(t *testing.T) {
	for _, tc := range []struct {
		line string
		kind transcript.Kind
	}{
		{`not json`, transcript.KindMalformed},
		{`{"timestamp":"2026-11-23T14:43:22.187Z","type":"session_meta","payload":{"id":"x"}}`, transcript.KindOther},
		{`{"timestamp":"2026-11-23T14:43:22.187Z","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}`, transcript.KindInterrupt},
		{`{"timestamp":"2026-11-23T14:43:22.187Z","type":"event_msg","payload":{"type":"error","message":"stream disconnected"}}`, transcript.KindAPIError},
		{`{"timestamp":"2026-11-23T14:43:22.187Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>"}]}}`, transcript.KindOther},
		{`{"timestamp":"2026-11-23T14:43:22.187Z","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","call_id":"c1","input":"..."}}`, transcript.KindAssistant},
	} {
		p := transcript.NewParser(transcript.Options{Decoder: Agent{}.Transcript()})
		if r := p.Feed([]byte(tc.line)); r.Kind != tc.kind {
			t.Errorf("%s: kind %v, want %v", tc.line, r.Kind, tc.kind)
		}
	}
}

// Every rollout Codex 0.169.0 wrote in the codex package's samples (exec with a tool call and a
// block, a subagent and its parent, the TUI): the tokens hooksup counts, response by response,
// add up to the thread's total Codex itself records last (token_count's total_token_usage).
func TestCodexRolloutTokensMatchCodexsTotal(t *testing.T) {
	paths, _ := filepath.Glob("testdata/rollout-*.jsonl")
	if len(paths) < 2 {
		t.Fatalf("no sample rollouts: %v", paths)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var want int64
		for line := range bytes.Lines(b) {
			var l struct {
				Payload struct {
					Type string
					Info struct {
						Total struct {
							Total int64 `json:"total_tokens"`
						} `json:"total_token_usage"`
					}
				}
			}
			if json.Unmarshal(line, &l) == nil && l.Payload.Type == "token_count" {
				want = l.Payload.Info.Total.Total
			}
		}
		pr := transcript.NewParser(transcript.Options{Decoder: Agent{}.Transcript()})
		pr.ReadFrom(bytes.NewReader(b))
		st := pr.Stats()
		if want == 0 || st.Usage.Total() != want || st.Malformed != 0 || st.Model == "" {
			t.Errorf("%s: %d tokens (model %q, %d malformed lines), Codex's total %d", p, st.Usage.Total(), st.Model, st.Malformed, want)
		}
	}
}

// A Codex subagent's rollout lies beside the session's, where the watcher does not look by
// itself: once Follow names it, it is read from its start, its later lines too, and its usage
// counts in the session's.
func TestWatcherFollowsCodexSubagent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions", "2026", "11", "23")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	read := func(name string) [][]byte {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(b, []byte("\n"))
		if len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		return lines
	}
	mainPath := filepath.Join(dir, "rollout-2026-11-23T15-02-34-01a208ee-26ed-7182-b116-f245a013100c.jsonl")
	subPath := filepath.Join(dir, "rollout-2026-11-23T15-02-35-01a208ee-2759-7130-98e0-e6e07e8109a9.jsonl")
	appendFile(t, mainPath, string(bytes.Join(read("rollout-exec-spawn-agent.jsonl"), nil)))
	sub := read("rollout-subagent.jsonl")
	last := len(sub) - 1
	for last > 0 && !bytes.Contains(sub[last], []byte(`"token_usage_record"`)) {
		last--
	}
	appendFile(t, subPath, string(bytes.Join(sub[:last], nil))) // all but its usage and what follows

	w, c := startWatcher(t, mainPath, transcript.Options{Decoder: Agent{}.Transcript()})
	c.waitFor(t, "the main rollout", func(us []transcript.Update) bool { return count(us, transcript.KindTurnDuration) > 0 })
	if s := w.Snapshot(); len(s.Agents) != 0 || s.Usage.OutputTokens != s.Main.Usage.OutputTokens {
		t.Fatalf("a subagent before Follow: %+v", s.Agents)
	}
	const id = "01a208ee-2759-7130-98e0-e6e07e8109a9"
	w.Follow(id, subPath)
	c.waitFor(t, "the subagent's prompt", func(us []transcript.Update) bool {
		for _, u := range us {
			if u.Source.AgentID == id && u.Source.Path == subPath && u.Record.Kind == transcript.KindPrompt {
				return true
			}
		}
		return false
	})
	appendFile(t, subPath, string(bytes.Join(sub[last:], nil)))
	c.waitFor(t, "the subagent's usage", func([]transcript.Update) bool {
		s := w.Snapshot()
		return len(s.Agents) == 1 && s.Agents[0].Stats.Usage.OutputTokens > 0
	})
	s := w.Snapshot()
	if s.Agents[0].ID != id || s.Usage.OutputTokens != s.Main.Usage.OutputTokens+s.Agents[0].Stats.Usage.OutputTokens {
		t.Fatalf("snapshot %+v", s)
	}
	w.Follow(id, subPath) // again: still one subagent
	w.Wake("")
	if s := w.Snapshot(); len(s.Agents) != 1 {
		t.Fatalf("%d subagents after a second Follow", len(s.Agents))
	}
}

// appendFile appends s to the file at path, creating it.
func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// collector keeps a watcher's updates.
type collector struct {
	mu      sync.Mutex
	updates []transcript.Update
}

// waitFor waits until ok holds for the updates so far.
func (c *collector) waitFor(t *testing.T, what string, ok func([]transcript.Update) bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c.mu.Lock()
		done := ok(c.updates)
		c.mu.Unlock()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// startWatcher runs a watcher of path until the test ends.
func startWatcher(t *testing.T, path string, opts transcript.Options) (*transcript.Watcher, *collector) {
	t.Helper()
	w := transcript.NewWatcher(path, opts)
	c := &collector{}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- w.Run(ctx) }()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for u := range w.Updates() {
			c.mu.Lock()
			c.updates = append(c.updates, u)
			c.mu.Unlock()
		}
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
		<-done
	})
	return w, c
}

// count is how many updates are of kind k.
func count(us []transcript.Update, k transcript.Kind) int {
	n := 0
	for _, u := range us {
		if u.Record.Kind == k {
			n++
		}
	}
	return n
}
