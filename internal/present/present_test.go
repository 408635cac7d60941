package present

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/notify"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

func TestCount(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 950: "950", 12_345: "12.3k", 4_500_000: "4.5M"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestAge(t *testing.T) {
	for d, want := range map[time.Duration]string{-time.Second: "0s", 0: "0s", 42*time.Second + 900*time.Millisecond: "42s",
		5*time.Minute + 59*time.Second: "5m", time.Hour: "1h", 49 * time.Hour: "49h"} {
		if got := Age(d); got != want {
			t.Errorf("Age(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestCheckFailure(t *testing.T) {
	for _, tc := range []struct {
		r    session.CheckResult
		want string
	}{
		{session.CheckResult{ExitCode: 1}, "exit 1"},
		{session.CheckResult{ExitCode: -1, TimedOut: true, Duration: 120400 * time.Millisecond}, "timed out after 2m0s"},
		{session.CheckResult{ExitCode: -1, Canceled: true}, "interrupted"},
		{session.CheckResult{ExitCode: 127, StartErr: errors.New("sh: nope: not found")}, "could not start: sh: nope: not found"},
		{session.CheckResult{ExitCode: 127, StartErr: errors.New("sh: \x1b[2Jx\u202e: not found")}, `could not start: sh: \e[2Jx<U+202E>: not found`},
	} {
		if got := CheckFailure(tc.r); got != tc.want {
			t.Errorf("CheckFailure(%+v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}

func TestOtherHook(t *testing.T) {
	two, one := 2, 1
	for _, tc := range []struct {
		h     verdictlog.OtherHook
		short bool
		want  string
	}{
		{verdictlog.OtherHook{Command: "/home/u/block.sh", Outcome: hooks.OutcomeBlocked, Blocked: true, ExitCode: &two, Reason: "update the changelog\nand the docs"}, true, "block.sh blocked: update the changelog"},
		{verdictlog.OtherHook{Command: "/home/u/block.sh", Outcome: hooks.OutcomeBlocked, Blocked: true, Reason: "why"}, false, "/home/u/block.sh blocked: why"},
		{verdictlog.OtherHook{Command: `"/opt/my hooks/lint" --fast`, Outcome: hooks.OutcomeSuccess, Reason: "{}"}, true, "lint --fast allowed"},
		{verdictlog.OtherHook{Command: "/usr/bin/python3 /x/log.py", Outcome: hooks.OutcomeError, ExitCode: &one, Reason: "Traceback"}, true, "python3 /x/log.py failed (exit 1): Traceback"},
		{verdictlog.OtherHook{Command: "slow", Outcome: hooks.OutcomeCancelled, TimedOut: true}, true, "slow timed out"},
		{verdictlog.OtherHook{Command: "halt.sh", Outcome: hooks.OutcomeStopped, Reason: "enough"}, true, "halt.sh ended the turn: enough"},
		{verdictlog.OtherHook{Command: "/x/evil\x1b[2J.sh", Outcome: hooks.OutcomeBlocked, Blocked: true, Reason: "no\u202e\r\nmore"}, true, `evil\e[2J.sh blocked: no<U+202E>`},
		{verdictlog.OtherHook{Command: "/x/evil\x1b[2J.sh", Outcome: hooks.OutcomeBlocked, Blocked: true, Reason: "\aring"}, false, `/x/evil\e[2J.sh blocked: \aring`},
	} {
		if got := OtherHook(tc.h, tc.short); got != tc.want {
			t.Errorf("OtherHook(%+v) = %q, want %q", tc.h, got, tc.want)
		}
	}
}

func TestOtherHooksEffect(t *testing.T) {
	ok := verdictlog.OtherHook{Outcome: hooks.OutcomeSuccess}
	block := verdictlog.OtherHook{Outcome: hooks.OutcomeBlocked, Blocked: true}
	halt := verdictlog.OtherHook{Outcome: hooks.OutcomeStopped}
	for _, tc := range []struct {
		hs   []verdictlog.OtherHook
		want string
	}{
		{nil, ""},
		{[]verdictlog.OtherHook{ok}, ""},
		{[]verdictlog.OtherHook{ok, block}, "codex continued"},
		{[]verdictlog.OtherHook{block, halt}, "the turn ended"},
	} {
		if got := OtherHooksEffect(tc.hs).Words("codex"); got != tc.want {
			t.Errorf("OtherHooksEffect(%+v) = %q, want %q", tc.hs, got, tc.want)
		}
	}
}

// An agent's name read from a verdict log is shown, never acted on.
func TestEffectWordsShowAHostileAgentName(t *testing.T) {
	got := EffectContinued.Words("x\x1b]0;PWNED\x07")
	if strings.ContainsAny(got, "\x1b\x07") || !strings.Contains(got, "PWNED") {
		t.Errorf("Words = %q: the name's controls reach the terminal", got)
	}
}

func TestAlert(t *testing.T) {
	var sent []string
	system := notify.Notifier{Choice: notify.Choice{Method: notify.System}, GOOS: "linux",
		Run: func(_ context.Context, argv []string) error { sent = append(sent, strings.Join(argv, " ")); return nil }}
	osc777 := notify.Notifier{Choice: notify.Choice{Method: notify.OSC777}}
	for _, tc := range []struct {
		a    session.Alert
		n    notify.Notifier
		want string // written to the terminal
		sent string // run as the system's notifier
	}{
		{session.Alert{Action: session.ActionBell, Cause: session.CauseIdle}, system, "\a", ""},
		{session.Alert{Action: session.ActionNotify, Cause: session.CauseIdle, Agent: "codex"}, osc777,
			"\x1b]777;notify;hooksup;codex is waiting for your input\a", ""},
		// What claude named cannot end the sequence early or add fields.
		{session.Alert{Action: session.ActionNotify, Cause: session.CausePermission, Detail: "PermissionRequest a;b\a\x1b\u009c"}, osc777,
			"\x1b]777;notify;hooksup;the agent needs your permission (PermissionRequest a b   )\a", ""},
		{session.Alert{Action: session.ActionNotify, Cause: session.CausePermission, Detail: "PermissionRequest Bash", Agent: "claude"}, system,
			"", "notify-send -- hooksup claude needs your permission (PermissionRequest Bash)"},
		{session.Alert{Action: session.ActionNudge, Cause: session.CauseIdle, Text: "continue"}, osc777, "", ""},
		{session.Alert{Action: session.ActionNone}, system, "", ""},
	} {
		sent = nil
		seq, send := Alert(tc.a, tc.n)
		if send != nil {
			if err := send(); err != nil {
				t.Fatal(err)
			}
		}
		if seq != tc.want || strings.Join(sent, "") != tc.sent {
			t.Errorf("Alert(%+v, %s) wrote %q and sent %q, want %q and %q", tc.a, tc.n.Choice.Method, seq, sent, tc.want, tc.sent)
		}
	}
}

// A session's notifications name its project in their title.
func TestNotificationTitleNamesTheProject(t *testing.T) {
	for dir, want := range map[string]string{"/home/dev/src/api": "hooksup · api", "/": "hooksup", "": "hooksup", "/src/a;b": "hooksup · a,b"} {
		if got := NotificationTitle(dir); got != want {
			t.Errorf("NotificationTitle(%q) = %q, want %q", dir, got, want)
		}
	}
	n := notify.Notifier{Choice: notify.Choice{Method: notify.OSC777}, Title: NotificationTitle("/home/dev/src/api")}
	seq, _ := Alert(session.Alert{Action: session.ActionNotify, Cause: session.CauseIdle, Agent: "claude"}, n)
	if want := "\x1b]777;notify;hooksup · api;claude is waiting for your input\a"; seq != want {
		t.Fatalf("%q, want %q", seq, want)
	}
}

// The wording present gives people never carries a control from outside hooksup: a check's
// name, an agent's id, a hook's command, a path, a reason; each is shown visibly.
func TestWordsForPeopleShowControls(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	for _, tc := range []struct {
		name, got, want string
	}{
		{"FirstLine", FirstLine("  fix it\r\nthen more"), "fix it"},
		{"FirstLine", FirstLine("The check \"t\" (`x # \x1b]0;PWNED\a`) failed\nmore"), "The check \"t\" (`x # \\e]0;PWNED\\a`) failed"},
		{"FirstLine", FirstLine("\u202eevil\u009b2J"), "<U+202E>evil<U+009B>2J"},
		{"FirstLine", FirstLine("The check \"t\" failed (exit 1). Fix it, then finish. Its output:\nFAIL: x"), "The check \"t\" failed (exit 1). Fix it, then finish."},
		{"FirstLine", FirstLine("Also run gofmt on it:"), "Also run gofmt on it:"},
		{"Source", Source(verdictlog.SourceNoChecks), "no checks"},
		{"Source", Source("check:tests"), "check tests"},
		{"Source", Source("check:tests\x1b[2J\u202egnp.exe"), "check tests\\e[2J<U+202E>gnp.exe"},
		{"HomeTilde", HomeTilde("/home/u/src/a"), "~/src/a"},
		{"HomeTilde", HomeTilde("/home/u/proj\x1b[31m\nline\u202etxt"), "~/proj\\e[31m\\nline<U+202E>txt"},
		{"HomeTilde", HomeTilde("/srv/\tx"), "/srv/\\tx"},
		{"ShortCommand", ShortCommand("/home/u/.claude/check.sh --fast"), "check.sh --fast"},
		{"ShortCommand", ShortCommand("/x/ev\x1bil.sh \u202e--fast"), "ev\\eil.sh <U+202E>--fast"},
		{"Answered", Answered("approve", "Stop", "", "session 1a2b (~/a)", "", "The check\x1b[2J failed\nmore"),
			"approve: the agent continues after Stop in session 1a2b (~/a): The check\\e[2J failed"},
		{"Answered", Answered("halt", "SubagentStop", "ag\u202ent", "session 1a2b (~/a)", "stop\a now", ""),
			"halt: the turn ends at SubagentStop of subagent ag<U+202E>nt in session 1a2b (~/a): stop\\a now"},
		{"SessionLine", SessionLine(session.Summary{SessionID: "4312\x1bba3d-1", ToolCalls: map[string]int64{"Bash\u202e": 2}, Turns: 1}),
			"session 4312\\eba3d: 0 tokens (in 0 · out 0 · cache read 0 · cache write 0) · tools Bash<U+202E>×2 · 1 turns · 0 verdicts"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

// ReasonBy says whose reason a continuation sent when the person's replaced the checks'.
func TestReasonBy(t *testing.T) {
	checks := &verdictlog.Proposal{Decision: hooks.Block, Source: "check:tests", Reason: "The check \"tests\" failed"}
	for _, c := range []struct {
		v    verdictlog.Verdict
		want string
	}{
		{verdictlog.Verdict{Decision: hooks.Block, Source: "check:tests", Reason: "The check \"tests\" failed"}, ""},
		{verdictlog.Verdict{Decision: hooks.Block, Source: "manual", Reason: checks.Reason, Proposal: checks}, ""}, // approved as it was
		{verdictlog.Verdict{Decision: hooks.Block, Source: "manual", Reason: "mine", Proposal: checks}, "edited by you in the TUI"},
		{verdictlog.Verdict{Decision: hooks.Block, Source: "manual (hooksup web)", Reason: "mine", Proposal: checks}, "edited by you in hooksup web"},
		{verdictlog.Verdict{Decision: hooks.Block, Source: "manual (hooksup approve)", Reason: "mine", Proposal: checks}, "edited by you with hooksup approve"},
		{verdictlog.Verdict{Decision: hooks.Block, Source: "manual", Reason: "go on", Proposal: &verdictlog.Proposal{Decision: hooks.Allow, Source: "checks"}}, "written by you in the TUI"},
		{verdictlog.Verdict{Decision: hooks.Block, Source: "timeout", Reason: "x", Proposal: checks}, ""},
		{verdictlog.Verdict{Decision: hooks.Halt, Source: "manual", Reason: "stopped by you", Proposal: checks}, ""},
		{verdictlog.Verdict{Decision: hooks.Block, Source: "manual (\x1b[2Jweb)", Reason: "mine", Proposal: checks}, `edited by you with \e[2Jweb`},
	} {
		if got := ReasonBy(c.v); got != c.want {
			t.Errorf("ReasonBy(%s, %q) = %q, want %q", c.v.Source, c.v.Reason, got, c.want)
		}
	}
}

// Lines keeps every line of a reason, each under the first, its controls shown but for tabs.
func TestLines(t *testing.T) {
	got := Lines("first\r\n\tsecond\x1b[2K\nexpected 1\b\n\n", "  ")
	if want := "first\n  \tsecond\\e[2K\n  expected 1\\b"; got != want {
		t.Errorf("Lines = %q, want %q", got, want)
	}
}

// Each verdict says what it did to the agent in the words the person acts in, and who decided.
func TestOutcome(t *testing.T) {
	for _, tc := range []struct {
		d    hooks.Decision
		src  verdictlog.Source
		want string
	}{
		{hooks.Block, verdictlog.CheckSource("tests"), "continued (check tests failed)"},
		{hooks.Allow, verdictlog.SourceChecks, "let stop (checks passed)"},
		{hooks.Block, verdictlog.SourceManual, "continued by you"},
		{hooks.Block, "manual (hooksup approve)", "continued by you (hooksup approve)"},
		{hooks.Allow, "manual (hooksup deny)", "let stop by you (hooksup deny)"},
		{hooks.Halt, "manual (hooksup halt)", "turn ended by you (hooksup halt)"},
		{hooks.Allow, verdictlog.SourceLimit, "let stop (limit reached)"},
		{hooks.Allow, verdictlog.SourceEscape, "let stop (Escape)"},
		{hooks.Block, "check:a\x1b[2Jb", `continued (check a\e[2Jb failed)`},
	} {
		if got := Outcome(verdictlog.Verdict{Decision: tc.d, Source: tc.src}); got != tc.want {
			t.Errorf("Outcome(%s, %s) = %q, want %q", tc.d, tc.src, got, tc.want)
		}
	}
	if got := Counts(map[hooks.Decision]int{hooks.Block: 2, hooks.Allow: 1}, 1); got != "2 continued · 1 let stop · 1 interrupted" {
		t.Errorf("Counts = %q", got)
	}
}

func TestSays(t *testing.T) {
	for _, tc := range []struct {
		d    hooks.Decision
		src  verdictlog.Source
		want string
	}{
		{hooks.Block, verdictlog.CheckSource("tests"), "the checks say continue (check tests)"},
		{hooks.Allow, verdictlog.SourceChecks, "the checks say it may stop (checks)"},
		{hooks.Allow, verdictlog.SourceNoChecks, "no checks: it may stop"},
	} {
		if got := Says(tc.d, tc.src); got != tc.want {
			t.Errorf("Says(%s, %s) = %q, want %q", tc.d, tc.src, got, tc.want)
		}
	}
	if got := Logged(hooks.Block); got != "logged block" {
		t.Errorf("Logged(block) = %q", got)
	}
}
