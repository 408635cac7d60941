package transcript

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
)

func feedAll(p *Parser, lines ...string) {
	for _, l := range lines {
		p.Feed([]byte(l))
	}
}

// TestUsageDedupe checks that usage repeated on each content block of a message counts once,
// the largest copy winning, keyed like ccusage by message id + request id.
func TestUsageDedupe(t *testing.T) {
	const opus, haiku = "claude-opus-5-5", "claude-haiku-5-5"
	tests := []struct {
		name     string
		lines    []string
		usage    session.Usage
		byModel  map[string]session.Usage
		messages int64
	}{
		{"each block repeats the usage", []string{
			assistantLine("m1", "r1", opus, "a", 100, 5),
			toolUseLine("m1", "r1", "Bash"), // a smaller copy (10/5) of the same message
			assistantLine("m1", "r1", opus, "b", 100, 5),
		}, session.Usage{InputTokens: 100, OutputTokens: 5}, map[string]session.Usage{opus: {InputTokens: 100, OutputTokens: 5}}, 1},
		{"the largest copy wins", []string{
			assistantLine("m1", "r1", opus, "a", 100, 5),
			assistantLine("m1", "r1", opus, "b", 100, 50),
			assistantLine("m1", "r1", opus, "c", 100, 7),
		}, session.Usage{InputTokens: 100, OutputTokens: 50}, map[string]session.Usage{opus: {InputTokens: 100, OutputTokens: 50}}, 1},
		{"a larger copy under another model moves the usage", []string{
			assistantLine("m1", "r1", opus, "a", 100, 5),
			assistantLine("m1", "r1", haiku, "b", 100, 50),
		}, session.Usage{InputTokens: 100, OutputTokens: 50}, map[string]session.Usage{haiku: {InputTokens: 100, OutputTokens: 50}}, 1},
		{"same message id, other request id: two messages (ccusage's key)", []string{
			assistantLine("m1", "r1", opus, "a", 100, 5),
			assistantLine("m1", "r2", opus, "b", 100, 5),
		}, session.Usage{InputTokens: 200, OutputTokens: 10}, map[string]session.Usage{opus: {InputTokens: 200, OutputTokens: 10}}, 2},
		{"no request id: de-duplicated by message id alone", []string{
			assistantLine("m1", "", opus, "a", 100, 5),
			assistantLine("m1", "", opus, "b", 100, 5),
		}, session.Usage{InputTokens: 100, OutputTokens: 5}, map[string]session.Usage{opus: {InputTokens: 100, OutputTokens: 5}}, 1},
		{"no message id: every line counts", []string{
			`{"type":"assistant","message":{"model":"claude-opus-5-5","usage":{"input_tokens":3,"output_tokens":1}}}`,
			`{"type":"assistant","message":{"model":"claude-opus-5-5","usage":{"input_tokens":3,"output_tokens":1}}}`,
		}, session.Usage{InputTokens: 6, OutputTokens: 2}, map[string]session.Usage{opus: {InputTokens: 6, OutputTokens: 2}}, 2},
		{"synthetic lines do not count", []string{
			assistantLine("m9", "r9", "<synthetic>", "No response requested.", 0, 0),
		}, session.Usage{}, map[string]session.Usage{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewParser(Options{})
			feedAll(p, tt.lines...)
			st := p.Stats()
			want(t, st.Usage, tt.usage)
			want(t, st.Messages, tt.messages)
			want(t, len(st.ByModel), len(tt.byModel))
			for m, u := range tt.byModel {
				want(t, st.ByModel[m], u)
			}
		})
	}
}

// TestDedupeWindow documents the bound: a message seen again after more than DedupeWindow other
// messages counts again.
func TestDedupeWindow(t *testing.T) {
	p := NewParser(Options{DedupeWindow: 2})
	feedAll(p,
		assistantLine("a", "r", "m", "", 1, 0),
		assistantLine("a", "r", "m", "", 1, 0), // within the window: once
		assistantLine("b", "r", "m", "", 1, 0),
		assistantLine("c", "r", "m", "", 1, 0),
		assistantLine("a", "r", "m", "", 1, 0), // forgotten: counted again
	)
	want(t, p.Stats().Usage.InputTokens, 4)
	want(t, len(p.dd.seen), 2)
}

func TestParserAggregatesSamples(t *testing.T) {
	p := NewParser(Options{})
	for _, l := range sampleLines(t, "transcript-line-examples.jsonl") {
		p.Feed(l)
	}
	st := p.Stats()
	want(t, st.Lines, 39)
	want(t, st.Malformed, 0)
	want(t, st.Skipped, 20) // bookkeeping types and attachments hooksup does not read
	want(t, st.Model, "claude-opus-5-5")
	want(t, st.Title, "Mock session title")
	want(t, st.Usage, session.Usage{InputTokens: 12309, OutputTokens: 58}) // two lines, one message
	want(t, st.Messages, 1)
	want(t, st.ToolCalls["Bash"], 1)
	want(t, st.ToolCallCount, 1)
	want(t, st.Turns, 2) // "do the thing" and the task notification
	want(t, st.TaskNotifications, 1)
	want(t, st.Interrupts, 1)
	want(t, st.Commands, 1)
	want(t, st.TurnsEnded, 1)
	want(t, st.LastTurn, 407*time.Millisecond)
	want(t, st.LastText, "Running a command.")
	want(t, st.Compactions, 1)
	want(t, st.LastCompaction.PreTokens, 12312)
	// The stopped continuation and the hook_success of the same run merge into one record.
	want(t, len(st.Hooks), 4)
	want(t, st.HookCounts, [hooks.OutcomeStopped + 1]int64{hooks.OutcomeBlocked: 2, hooks.OutcomeStopped: 1, hooks.OutcomeCancelled: 1})
	stopped := st.Hooks[2]
	want(t, stopped.Outcome, hooks.OutcomeStopped)
	want(t, strings.Contains(stopped.Command, "--mode continue-false"), true)
	want(t, stopped.ExitCode, 0)
}

func TestOwnHooksAreLeftOut(t *testing.T) {
	const own = `"/usr/local/bin/hooksup" hook Stop`
	hookSuccess := func(inv, cmd string) string {
		return `{"type":"attachment","attachment":{"type":"hook_success","hookEvent":"Stop","toolUseID":"` + inv + `","exitCode":0,"command":` + quote(cmd) + `}}`
	}
	stopped := func(inv string) string {
		return `{"type":"attachment","attachment":{"type":"hook_stopped_continuation","message":"halt","hookEvent":"Stop","toolUseID":"` + inv + `"}}`
	}
	summary := func(inv string, cmds ...string) string {
		var infos []string
		for _, c := range cmds {
			infos = append(infos, `{"command":`+quote(c)+`}`)
		}
		return `{"type":"system","subtype":"stop_hook_summary","hookInfos":[` + strings.Join(infos, ",") + `],"hookErrors":[],"preventedContinuation":false,"toolUseID":"` + inv + `"}`
	}
	p := NewParser(Options{OwnHook: HookProgram("/usr/local/bin/hooksup")})
	r := p.Feed([]byte(hookSuccess("i1", own)))
	want(t, len(r.Hooks), 0) // dropped from the record too
	feedAll(p,
		hookSuccess("i1", "lint"),
		summary("i1", own, "lint"),
		stopped("i2"), // ours: its command comes after it…
		hookSuccess("i2", own),
		hookSuccess("i3", own), // …or before it
		stopped("i3"),
	)
	st := p.Stats()
	want(t, len(st.Hooks), 1)
	want(t, st.Hooks[0].Command, "lint")
	want(t, st.HookCounts, [hooks.OutcomeStopped + 1]int64{hooks.OutcomeSuccess: 1})
}

func TestHookHistoryIsBounded(t *testing.T) {
	p := NewParser(Options{HookHistory: 3})
	for i := range 10 {
		p.Feed([]byte(`{"type":"attachment","attachment":{"type":"hook_success","hookEvent":"PostToolUse","toolUseID":"i` + string(rune('a'+i)) + `","command":"c"}}`))
	}
	st := p.Stats()
	want(t, len(st.Hooks), 3)
	want(t, st.Hooks[2].InvocationID, "ij")
	want(t, st.HookCounts[hooks.OutcomeSuccess], 10)
}

func TestMalformedAndUnknownLinesAreCounted(t *testing.T) {
	p := NewParser(Options{})
	feedAll(p,
		promptLine("hello"),
		`{"type":"user","message":{"content":"cut here`,
		`not json at all`,
		`{"type":"from-the-future","payload":{"x":1}}`,
		`{"parentUuid":null,"type":"assistant2","message":{}}`,
		promptLine("again"),
	)
	st := p.Stats()
	want(t, st.Lines, 6)
	want(t, st.Malformed, 2)
	want(t, st.Skipped, 2)
	want(t, st.Turns, 2)
}

func TestReadFrom(t *testing.T) {
	in := promptLine("one") + "\r\n" + strings.Repeat("x", 300) + "\n" + promptLine("two") + "\n\n" + promptLine("three") // no final newline
	p := NewParser(Options{MaxLineBytes: 10 + len(promptLine("three"))})
	n, err := p.ReadFrom(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	want(t, n, int64(len(in)))
	want(t, st.Bytes, int64(len(in)-301)) // not the line that was too long
	want(t, st.Turns, 3)
	want(t, st.Lines, 5)     // the empty line counts, as a malformed one
	want(t, st.Malformed, 2) // the 300-byte line is over MaxLineBytes, the empty line is not JSON
	want(t, st.LastPrompt, "three")
}

func TestReset(t *testing.T) {
	p := NewParser(Options{})
	feedAll(p, promptLine("a"), assistantLine("m", "r", "x", "t", 1, 1))
	p.Reset()
	st := p.Stats()
	want(t, st.Lines, 0)
	want(t, st.Usage, session.Usage{})
	feedAll(p, assistantLine("m", "r", "x", "t", 1, 1)) // the dedupe window was cleared too
	want(t, p.Stats().Usage, session.Usage{InputTokens: 1, OutputTokens: 1})
}

func TestStatsIsACopy(t *testing.T) {
	p := NewParser(Options{})
	feedAll(p, toolUseLine("m", "r", "Bash"))
	st := p.Stats()
	st.ToolCalls["Bash"] = 99
	st.ByModel["x"] = session.Usage{}
	want(t, p.Stats().ToolCalls["Bash"], 1)
	want(t, len(p.Stats().ByModel), 1)
}

func TestLineBufferSplitsAnywhere(t *testing.T) {
	var all bytes.Buffer
	var wantLines []string
	for _, l := range sampleLines(t, "transcript-line-examples.jsonl") {
		all.Write(l)
		all.WriteByte('\n')
		wantLines = append(wantLines, string(l))
	}
	data := all.Bytes()
	check := func(name string, chunks [][]byte) {
		lb := lineBuffer{max: 1 << 20}
		var got []string
		for _, c := range chunks {
			lb.feed(c, func(l []byte) { got = append(got, string(l)) })
		}
		if strings.Join(got, "\n") != strings.Join(wantLines, "\n") || len(lb.partial) != 0 {
			t.Fatalf("%s: lines differ (%d lines, %d bytes left over)", name, len(got), len(lb.partial))
		}
	}
	for cut := 0; cut <= len(data); cut += 97 {
		check("two chunks", [][]byte{data[:cut], data[cut:]})
	}
	var bytewise [][]byte
	for i := range data {
		bytewise = append(bytewise, data[i:i+1])
	}
	check("byte by byte", bytewise)
}

func TestLineBufferSkipsLongLines(t *testing.T) {
	lb := lineBuffer{max: 10}
	var got []string
	skipped := 0
	for _, chunk := range []string{"short\n0123456", "789abcdef", "ghij\nok\n", strings.Repeat("z", 30) + "\nend\n"} {
		skipped += lb.feed([]byte(chunk), func(l []byte) { got = append(got, string(l)) })
	}
	want(t, strings.Join(got, ","), "short,ok,end")
	want(t, skipped, 2)
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		if c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	b.WriteByte('"')
	return b.String()
}

// A stop_hook_summary comes last, after the attachments of the same run: the record it delivers
// holds what they said too (here a JSON block, which the summary's hookErrors do not name).
func TestSummaryRecordHoldsTheRunsAttachments(t *testing.T) {
	const own = "/usr/local/bin/hooksup-hook Stop"
	p := NewParser(Options{OwnHook: HookProgram("/usr/local/bin/hooksup-hook")})
	feedAll(p,
		`{"type":"attachment","attachment":{"type":"hook_blocking_error","hookEvent":"Stop","toolUseID":"i1","blockingError":{"blockingError":"json reason","command":"user-hook"}}}`,
	)
	r := p.Feed([]byte(`{"type":"system","subtype":"stop_hook_summary","hookInfos":[{"command":"user-hook"},{"command":"` + own + `","durationMs":40}],"hookErrors":["json reason"],"preventedContinuation":false,"toolUseID":"i1"}`))
	want(t, len(r.Hooks), 1)
	want(t, r.Hooks[0].Command, "user-hook")
	want(t, r.Hooks[0].Outcome, hooks.OutcomeBlocked)
	want(t, r.Hooks[0].Message, "json reason")
}

func TestOutcomeTextRoundTrips(t *testing.T) {
	for o := hooks.OutcomeSuccess; o <= hooks.OutcomeStopped; o++ {
		b, _ := o.MarshalText()
		var got hooks.Outcome
		if err := got.UnmarshalText(b); err != nil || got != o {
			t.Fatalf("%s: got %v, %v", b, got, err)
		}
	}
	var o hooks.Outcome
	if err := o.UnmarshalText([]byte("maybe")); err == nil {
		t.Fatal("an unknown outcome was read without an error")
	}
}

// hooksup's own hook is left out whatever its binary's path holds, quoted as hooksup quotes it
// for the agents; a hook of the person's that merely names the binary is not.
func TestOwnHookKnownWhateverItsPath(t *testing.T) {
	for _, dir := range []string{"/opt/it's", `/opt/say "hi"`, "/opt/$HOME", "/opt/a b", "/opt/ü/日本", `/opt/back\slash`, "/opt/new\nline", "/opt/${CLAUDE_PLUGIN_ROOT}"} {
		client, self := dir+"/hooksup-hook", dir+"/hooksup"
		p := NewParser(Options{OwnHook: HookProgram(self, client)})
		line := func(inv string, cmds ...string) string {
			var infos []string
			for _, c := range cmds {
				infos = append(infos, `{"command":`+quote(c)+`}`)
			}
			return `{"type":"system","subtype":"stop_hook_summary","hookInfos":[` + strings.Join(infos, ",") + `],"hookErrors":[],"preventedContinuation":false,"toolUseID":"` + inv + `"}`
		}
		feedAll(p,
			line("i1", hooks.ClientCommand(client, hooks.Stop), "lint"),
			line("i2", hooks.Command(self, hooks.Stop)),
			line("i3", hooks.InstalledCommand(client, "", hooks.Stop)),
			line("i4", "echo "+hooks.ShellQuote(client)),
		)
		var got []string
		for _, h := range p.Stats().Hooks {
			got = append(got, h.Command)
		}
		if len(got) != 2 || got[0] != "lint" || got[1] != "echo "+hooks.ShellQuote(client) {
			t.Errorf("%q: other hooks %q, want lint and the echo only", dir, got)
		}
	}
}
