package transcript

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestDecodeSamples checks what each kind of line in the real samples decodes to.
func TestDecodeSamples(t *testing.T) {
	main := sampleLines(t, "transcript-line-examples.jsonl")
	sub := sampleLines(t, "subagent-transcript-line-examples.jsonl")
	const pyHook = "/usr/bin/python3 /opt/hooks/hook_logger.py --log "
	tests := []struct {
		name  string
		line  []byte
		check func(t *testing.T, r Record)
	}{
		{"queue-operation is skipped", main[0], kind(KindOther)},
		{"prompt", main[1], func(t *testing.T, r Record) {
			want(t, r.Kind, KindPrompt)
			want(t, r.Text, "do the thing")
			want(t, r.Origin, "sdk")
			want(t, r.Time, time.Date(2026, 11, 22, 9, 25, 40, 572e6, time.UTC))
		}},
		{"environment attachment is skipped", main[2], kind(KindOther)},
		{"model attachment", main[3], func(t *testing.T, r Record) {
			want(t, r.Kind, KindModel)
			want(t, r.Model, "claude-opus-5-5")
		}},
		{"api-request-shape is skipped", main[12], kind(KindOther)},
		{"assistant text block", main[16], func(t *testing.T, r Record) {
			want(t, r.Kind, KindAssistant)
			want(t, r.Text, "Running a command.")
			want(t, r.Model, "claude-opus-5-5")
			want(t, r.StopReason, "tool_use")
			want(t, r.Usage, session.Usage{InputTokens: 12309, OutputTokens: 58})
			want(t, len(r.Tools), 0)
		}},
		{"assistant tool_use block", main[17], func(t *testing.T, r Record) {
			want(t, r.Kind, KindAssistant)
			want(t, r.Text, "")
			want(t, len(r.Tools), 1)
			want(t, r.Tools[0], ToolUse{ID: "toolu_mock_1_0", Name: "Bash"})
		}},
		{"tool result", main[19], func(t *testing.T, r Record) {
			want(t, r.Kind, KindToolResult)
			want(t, r.ToolErrors, 0)
		}},
		{"stop hook feedback is meta", main[20], kind(KindMeta)},
		{"stop_hook_summary, exit 2", main[21], func(t *testing.T, r Record) {
			want(t, r.Kind, KindHook)
			want(t, len(r.Hooks), 1)
			h := r.Hooks[0]
			want(t, h.Event, "Stop")
			want(t, h.Outcome, hooks.OutcomeBlocked)
			want(t, h.Message, "run the tests")
			want(t, strings.HasPrefix(h.Command, pyHook), true)
			want(t, h.InvocationID, "b2a792ba-d389-4afc-973a-82e42ad9140d")
		}},
		{"cost-state is skipped", main[22], kind(KindOther)},
		{"hook_blocking_error", main[23], func(t *testing.T, r Record) {
			want(t, r.Kind, KindHook)
			h := r.Hooks[0]
			want(t, h.Outcome, hooks.OutcomeBlocked)
			want(t, h.Message, "run the tests (json-block)")
			want(t, strings.Contains(h.Command, "--mode json-block"), true)
		}},
		{"hook_stopped_continuation has no command", main[24], func(t *testing.T, r Record) {
			h := r.Hooks[0]
			want(t, h.Outcome, hooks.OutcomeStopped)
			want(t, h.Command, "")
			want(t, h.Message, "run the tests (continue-false)")
		}},
		{"hook_success", main[25], func(t *testing.T, r Record) {
			h := r.Hooks[0]
			want(t, h.Outcome, hooks.OutcomeSuccess)
			want(t, h.ExitCode, 0)
			want(t, h.Duration, 86*time.Millisecond)
			want(t, h.Event, "Stop")
		}},
		{"informational loop-cap warning", main[26], func(t *testing.T, r Record) {
			want(t, r.Kind, KindInformational)
			want(t, r.Level, "warning")
			want(t, strings.HasPrefix(r.Text, "A hook blocked the turn from ending 9 consecutive times"), true)
		}},
		{"hook_cancelled on timeout", main[27], func(t *testing.T, r Record) {
			h := r.Hooks[0]
			want(t, h.Outcome, hooks.OutcomeCancelled)
			want(t, h.Event, "UserPromptSubmit")
			want(t, h.TimedOut, true)
			want(t, h.Duration, 1542*time.Millisecond)
		}},
		{"interrupt", main[31], kind(KindInterrupt)},
		{"turn_duration", main[32], func(t *testing.T, r Record) {
			want(t, r.Kind, KindTurnDuration)
			want(t, r.Duration, 407*time.Millisecond)
			want(t, r.MessageCount, 19)
		}},
		{"ai-title", main[34], func(t *testing.T, r Record) {
			want(t, r.Kind, KindTitle)
			want(t, r.Text, "Mock session title")
		}},
		{"slash command", main[35], func(t *testing.T, r Record) {
			want(t, r.Kind, KindCommand)
			want(t, r.Text, "/exit")
		}},
		{"compact_boundary", main[36], func(t *testing.T, r Record) {
			want(t, r.Kind, KindCompaction)
			want(t, *r.Compaction, session.Compaction{Time: r.Time, Trigger: "manual", PreTokens: 12312, PostTokens: 2537, Duration: 259 * time.Millisecond})
		}},
		{"compact summary is meta", main[37], kind(KindMeta)},
		{"task notification starts a turn", main[38], func(t *testing.T, r Record) {
			want(t, r.Kind, KindPrompt)
			want(t, r.Origin, "task_notification")
		}},
		{"subagent prompt", sub[0], func(t *testing.T, r Record) {
			want(t, r.Kind, KindPrompt)
			want(t, r.Text, "SUBTASK: reply with hi")
		}},
		{"subagent assistant", sub[12], func(t *testing.T, r Record) {
			want(t, r.Kind, KindAssistant)
			want(t, r.AgentType, "general-purpose")
			want(t, r.Usage, session.Usage{InputTokens: 8250, OutputTokens: 12})
		}},
		{"SubagentStop blocking error", sub[14], func(t *testing.T, r Record) {
			h := r.Hooks[0]
			want(t, h.Event, "SubagentStop")
			want(t, h.Outcome, hooks.OutcomeBlocked)
			want(t, h.Message, "check your work")
		}},
	}
	d := newDecoder(8 << 10)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, d.decode(tt.line)) })
	}
}

// TestDecodeSynthetic covers line shapes the samples do not hold.
func TestDecodeSynthetic(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		check func(t *testing.T, r Record)
	}{
		{"API error as a synthetic assistant line",
			`{"parentUuid":"p","isSidechain":false,"message":{"id":"e1","model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"API Error: 529 Overloaded"}],"usage":{"input_tokens":0,"output_tokens":0}},"type":"assistant","error":"server_error","isApiErrorMessage":true,"apiErrorStatus":529,"timestamp":"2026-11-22T09:25:41.000Z"}`,
			func(t *testing.T, r Record) {
				want(t, r.Kind, KindAPIError)
				want(t, *r.APIError, session.APIError{Status: 529, Code: "server_error", Message: "API Error: 529 Overloaded"})
			}},
		{"API error as a system retry line",
			`{"type":"system","subtype":"api_error","level":"error","error":{"status":529,"error":{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}},"retryInMs":1000,"retryAttempt":2,"maxRetries":10}`,
			func(t *testing.T, r Record) {
				want(t, r.Kind, KindAPIError)
				want(t, *r.APIError, session.APIError{Status: 529, Code: "overloaded_error", Message: "Overloaded", Retry: 2})
			}},
		{"non-blocking hook error",
			`{"type":"attachment","attachment":{"type":"hook_non_blocking_error","hookName":"Stop","hookEvent":"Stop","toolUseID":"i1","stderr":"lint crashed\n","stdout":"","exitCode":1,"command":"lint","durationMs":12}}`,
			func(t *testing.T, r Record) {
				want(t, r.Hooks[0], session.HookOutcome{Event: "Stop", Command: "lint", Outcome: hooks.OutcomeError, Message: "lint crashed", ExitCode: 1, Duration: 12 * time.Millisecond, InvocationID: "i1"})
			}},
		{"stop_hook_summary with two hooks, a failure and a stop",
			`{"type":"system","subtype":"stop_hook_summary","hookCount":2,"hookInfos":[{"command":"a","durationMs":5},{"command":"b"}],"hookErrors":["[a]: boom\n","[b]: fix it"],"failedHookErrorIndexes":[0],"preventedContinuation":true,"stopReason":"done","toolUseID":"i2"}`,
			func(t *testing.T, r Record) {
				want(t, len(r.Hooks), 3)
				want(t, r.Hooks[0], session.HookOutcome{Event: "Stop", Command: "a", Outcome: hooks.OutcomeError, Message: "boom", ExitCode: -1, Duration: 5 * time.Millisecond, InvocationID: "i2"})
				want(t, r.Hooks[1].Outcome, hooks.OutcomeBlocked)
				want(t, r.Hooks[1].Message, "fix it")
				want(t, r.Hooks[2], session.HookOutcome{Event: "Stop", Outcome: hooks.OutcomeStopped, Message: "done", ExitCode: -1, InvocationID: "i2"})
			}},
		{"prompt with an image and text blocks",
			`{"type":"user","message":{"role":"user","content":[{"type":"image","source":{"type":"base64","data":"AAAA"}},{"type":"text","text":"what is this?"}]}}`,
			func(t *testing.T, r Record) {
				want(t, r.Kind, KindPrompt)
				want(t, r.Text, "what is this?")
			}},
		{"tool result with an error", `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"no","is_error":true}]}}`,
			func(t *testing.T, r Record) {
				want(t, r.Kind, KindToolResult)
				want(t, r.ToolErrors, 1)
			}},
		{"shell escape", `{"type":"user","message":{"content":"<bash-input>ls -la</bash-input>"}}`, func(t *testing.T, r Record) {
			want(t, r.Kind, KindCommand)
			want(t, r.Text, "!ls -la")
		}},
		{"command output is meta", `{"type":"user","message":{"content":"<local-command-stdout>bye</local-command-stdout>"}}`, kind(KindMeta)},
		{"interrupt for tool use as a string", `{"type":"user","message":{"content":"[Request interrupted by user for tool use]"}}`, kind(KindInterrupt)},
		{"escapes and non-ASCII in text", `{"type":"assistant","message":{"content":[{"type":"text","text":"caf\u00e9 \ud83e\udd16 \"q\" — tab\tnl\n"}]}}`,
			func(t *testing.T, r Record) { want(t, r.Text, "café 🤖 \"q\" — tab\tnl\n") }},
		{"cache creation from the 5m/1h breakdown when the total is absent",
			`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":1,"output_tokens":2,"cache_creation":{"ephemeral_5m_input_tokens":3,"ephemeral_1h_input_tokens":4}}}}`,
			func(t *testing.T, r Record) {
				want(t, r.Usage, session.Usage{InputTokens: 1, OutputTokens: 2, CacheCreationTokens: 7})
			}},
		{"unknown type", `{"parentUuid":null,"type":"brand-new-thing","x":{"y":[1,2,3]}}`, kind(KindOther)},
		{"unknown system subtype", `{"type":"system","subtype":"something_else","content":"x"}`, kind(KindOther)},
		{"unknown attachment", `{"type":"attachment","attachment":{"type":"todo_reminder","content":[]}}`, kind(KindOther)},
		{"unknown fields are ignored", `{"type":"ai-title","aiTitle":"T","new":{"deep":[{"a":"}"}]},"n":1.5e3,"b":true,"z":null}`,
			func(t *testing.T, r Record) { want(t, r.Text, "T") }},
		{"no type", `{"a":1}`, kind(KindOther)},
		{"whitespace between tokens", ` { "type" : "ai-title" , "aiTitle" : "spaced" } `, func(t *testing.T, r Record) { want(t, r.Text, "spaced") }},
		{"not JSON", `hello`, kind(KindMalformed)},
		{"empty", ``, kind(KindMalformed)},
		{"array", `[1,2]`, kind(KindMalformed)},
		{"truncated", `{"parentUuid":"p","type":"user","message":{"role":"user","content":"half`, kind(KindMalformed)},
		{"truncated skipped type", `{"type":"api-request","params":{"model":"x"`, kind(KindMalformed)},
		{"trailing garbage", `{"type":"ai-title","aiTitle":"x"}}`, kind(KindMalformed)},
		{"missing colon", `{"type" "user"}`, kind(KindMalformed)},
		{"bad member in message", `{"type":"assistant","message":{"id":"m",,"model":"x"}}`, kind(KindMalformed)},
	}
	d := newDecoder(8 << 10)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, d.decode([]byte(tt.line))) })
	}
}

func TestDecodeCapsText(t *testing.T) {
	long := strings.Repeat("é", 100) // 200 bytes
	d := newDecoder(51)
	r := d.decode([]byte(`{"type":"ai-title","aiTitle":"` + long + `"}`))
	want(t, r.Text, strings.Repeat("é", 25)+"…")
	r = d.decode([]byte(`{"type":"ai-title","aiTitle":"\n` + long + `"}`)) // the escaped path
	want(t, len(r.Text) <= 51+len("…")+3, true)
	want(t, strings.HasSuffix(r.Text, "…"), true)
}

// TestGolden parses the sample files and compares every record and the final aggregates with
// the golden files (go test -update rewrites them).
func TestGolden(t *testing.T) {
	for _, name := range []string{"transcript-line-examples", "subagent-transcript-line-examples"} {
		t.Run(name, func(t *testing.T) {
			p := NewParser(Options{})
			var out bytes.Buffer
			enc := json.NewEncoder(&out)
			for _, line := range sampleLines(t, name+".jsonl") {
				r := p.Feed(line)
				if err := enc.Encode(r); err != nil {
					t.Fatal(err)
				}
			}
			enc.SetIndent("", "  ")
			if err := enc.Encode(p.Stats()); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			wantB, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(out.Bytes(), wantB) {
				t.Errorf("output differs from %s (run with -update and review the diff):\n%s", golden, out.Bytes())
			}
		})
	}
}

func kind(k Kind) func(t *testing.T, r Record) {
	return func(t *testing.T, r Record) {
		t.Helper()
		want(t, r.Kind, k)
	}
}

func want[T comparable](t *testing.T, got, wantV T) {
	t.Helper()
	if got != wantV {
		t.Errorf("got %+v, want %+v", got, wantV)
	}
}
