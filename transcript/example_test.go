package transcript_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hooksup/hooksup/transcript"
)

// A supervisor follows the transcript named by SessionStart, turns updates into its own events
// and takes a snapshot of the aggregates when it needs them (on a display tick, or to record a
// verdict).
func ExampleWatcher() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "projects", "-home-dev-proj", "4312ba3d.jsonl") // not written yet

	w := transcript.NewWatcher(path, transcript.Options{
		OwnHook: transcript.HookProgram("/usr/local/bin/hooksup"), // leave out our own hooks
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()

	// Claude writes the session: a prompt, an answer in two content blocks (the usage repeats
	// on each), a third-party Stop hook's block and the turn's end.
	go func() {
		os.MkdirAll(filepath.Dir(path), 0o755)
		lines := []string{
			`{"type":"user","message":{"role":"user","content":"fix the tests"},"timestamp":"2026-11-22T09:25:40.572Z"}`,
			`{"type":"assistant","requestId":"req_1","message":{"id":"msg_1","model":"claude-opus-5-5","content":[{"type":"text","text":"Running them."}],"usage":{"input_tokens":1200,"output_tokens":40}}}`,
			`{"type":"assistant","requestId":"req_1","message":{"id":"msg_1","model":"claude-opus-5-5","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}],"usage":{"input_tokens":1200,"output_tokens":40}}}`,
			`{"type":"system","subtype":"stop_hook_summary","hookInfos":[{"command":"lint-hook"}],"hookErrors":["[lint-hook]: lint fails"],"preventedContinuation":false,"toolUseID":"inv-1"}`,
			`{"type":"system","subtype":"turn_duration","durationMs":4200}`,
		}
		os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	}()

	for u := range w.Updates() {
		switch u.Record.Kind {
		case transcript.KindPrompt:
			fmt.Printf("prompt: %s\n", u.Record.Text)
		case transcript.KindAssistant:
			for _, t := range u.Record.Tools {
				fmt.Printf("tool call: %s\n", t.Name)
			}
		case transcript.KindHook:
			h := u.Record.Hooks[0]
			fmt.Printf("other hook: %s %s %s: %s\n", h.Event, h.Command, h.Outcome, h.Message)
		case transcript.KindTurnDuration:
			fmt.Printf("turn ended after %s\n", u.Record.Duration)
			s := w.Snapshot()
			fmt.Printf("session %s: model %s, %d turn, %d input + %d output tokens, Bash ×%d\n",
				s.SessionID, s.Main.Model, s.Main.Turns, s.Usage.InputTokens, s.Usage.OutputTokens, s.Main.ToolCalls["Bash"])
			cancel()
		}
	}
	fmt.Println("stopped:", <-done)
	// Output:
	// prompt: fix the tests
	// tool call: Bash
	// other hook: Stop lint-hook blocked: lint fails
	// turn ended after 4.2s
	// session 4312ba3d: model claude-opus-5-5, 1 turn, 1200 input + 40 output tokens, Bash ×1
	// stopped: <nil>
}

// A Parser aggregates a whole file, e.g. for a report after the session.
func ExampleParser() {
	p := transcript.NewParser(transcript.Options{})
	p.ReadFrom(strings.NewReader(
		`{"type":"assistant","requestId":"r","message":{"id":"m","model":"claude-opus-5-5","content":[{"type":"text","text":"a"}],"usage":{"input_tokens":10,"output_tokens":1}}}` + "\n" +
			`{"type":"assistant","requestId":"r","message":{"id":"m","model":"claude-opus-5-5","content":[{"type":"text","text":"b"}],"usage":{"input_tokens":10,"output_tokens":7}}}` + "\n" +
			`{"type":"queue-operation","operation":"enqueue"}` + "\n" +
			`{"type":"assistant","message":` + "\n"))
	st := p.Stats()
	fmt.Println(st.Usage.InputTokens, st.Usage.OutputTokens, st.Messages, st.Skipped, st.Malformed)
	// Output: 10 7 1 1 1
}
