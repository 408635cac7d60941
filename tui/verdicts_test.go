package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/themes"
	"github.com/hooksup/hooksup/verdictlog"
)

func monoStyles(t *testing.T) Styles {
	t.Helper()
	th, err := themes.Get(themes.Mono)
	if err != nil {
		t.Fatal(err)
	}
	return NewStyles(th)
}

func plain(lines []string) string { return ansi.Strip(strings.Join(lines, "\n")) }

// otherHooksSession: hooksup allows two stops; at the first the user's hook blocks, at the
// second it allows and a logger fails. Claude's record of them comes after each verdict.
func otherHooksSession() []session.Event {
	two, one := 2, 1
	v := func(stop int) verdictlog.Verdict {
		return verdictlog.Verdict{Time: t0, SessionID: "s", Event: hooks.Stop, Turn: 1, Stop: stop,
			Decision: hooks.Allow, Source: verdictlog.SourceChecks, MaxContinuations: 3}
	}
	entry := func(stop int, hs ...verdictlog.OtherHook) session.OtherHooksReported {
		e := v(stop)
		e.Event, e.Source, e.OtherHooks = verdictlog.EventOtherHooks, verdictlog.SourceOtherHooks, hs
		return session.OtherHooksReported{Entry: e}
	}
	return []session.Event{
		session.VerdictDecided{Verdict: v(1)},
		entry(1, verdictlog.OtherHook{Command: "/home/u/.claude/block.sh", Outcome: hooks.OutcomeBlocked, Blocked: true,
			ExitCode: &two, DurationMS: 107, Reason: "update the changelog\nthen finish"}),
		session.VerdictDecided{Verdict: v(2)},
		entry(2, verdictlog.OtherHook{Command: "/home/u/.claude/block.sh", Outcome: hooks.OutcomeSuccess},
			verdictlog.OtherHook{Command: "/usr/bin/python3 /opt/log.py", Outcome: hooks.OutcomeError, ExitCode: &one, Reason: "Traceback"}),
		entry(9, verdictlog.OtherHook{Command: "nobody", Outcome: hooks.OutcomeBlocked, Blocked: true}), // no such stop
	}
}

func TestVerdictsPaneShowsOtherHooksBesideTheVerdict(t *testing.T) {
	st := monoStyles(t)
	p := newVerdictsPane(defaultKeyMap().Pane)
	p.agent = "claude"
	for _, ev := range otherHooksSession() {
		p.event(ev)
	}
	got := plain(p.view(st, 60, 10, false))
	want := strings.Join([]string{
		"14:30:00 Stop let stop (checks passed)",
		"  ↳ block.sh blocked: update the changelog",
		"14:30:00 Stop let stop (checks passed)",
		"  ↳ python3 /opt/log.py failed (exit 1): Traceback",
		"  ↳ block.sh allowed",
	}, "\n")
	if trimLines(got) != want {
		t.Fatalf("list:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(got, "nobody") {
		t.Fatal("hooks of a stop hooksup never decided were attached to a verdict")
	}

	// Too little room: the newest verdict and its hooks; the selection scrolls back to the first.
	if got := trimLines(plain(p.view(st, 60, 3, false))); !strings.HasPrefix(got, "14:30:00 Stop let stop (checks passed)\n  ↳ python3") {
		t.Fatalf("3 rows:\n%s", got)
	}
	p.move(-1)
	if got := trimLines(plain(p.view(st, 60, 3, true))); !strings.HasPrefix(got, "14:30:00 Stop let stop (checks passed)\n  ↳ block.sh blocked") {
		t.Fatalf("3 rows, first selected:\n%s", got)
	}

	// Its detail: hooksup allowed, the other hook blocked with its whole reason, and claude
	// continued; nothing says it stopped.
	p.navigate(press(tea.KeyEnter, 0, ""))
	got = plain(p.view(st, 60, 20, true))
	for _, s := range []string{"let stop (checks passed) · logged allow", "claude continued: another hook blocked", "blocked /home/u/.claude/block.sh (exit 2 · 107 ms)", "update the changelog", "then finish"} {
		if !strings.Contains(got, s) {
			t.Fatalf("detail lacks %q:\n%s", s, got)
		}
	}
	if strings.Contains(got, "stopped") {
		t.Fatalf("detail says stopped:\n%s", got)
	}
}

func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// An open detail stays on the verdict it was opened on when a newer one arrives: a person reading
// it is not moved away. Closed, the list follows the newest again when that one was selected.
func TestVerdictDetailStaysOnItsVerdict(t *testing.T) {
	st := monoStyles(t)
	p := newVerdictsPane(defaultKeyMap().Pane)
	p.agent = "claude"
	v := func(stop int, reason string) session.Event {
		return session.VerdictDecided{Verdict: verdictlog.Verdict{Time: t0, SessionID: "s", Event: hooks.Stop, Turn: 1, Stop: stop,
			Decision: hooks.Block, Source: verdictlog.SourceChecks, Reason: reason, MaxContinuations: 3}}
	}
	p.event(v(1, "FIRST-REASON"))
	p.navigate(press(tea.KeyEnter, 0, "")) // the only verdict, the newest, opened
	p.event(v(2, "SECOND-REASON"))
	got := plain(p.view(st, 60, 20, true))
	if !strings.Contains(got, "FIRST-REASON") || strings.Contains(got, "SECOND-REASON") {
		t.Fatalf("the open detail moved to the newer verdict:\n%s", got)
	}
	p.navigate(press(tea.KeyEnter, 0, "")) // closed: the first stays selected
	p.move(1)                              // onto the newest: following it again
	p.navigate(press(tea.KeyEnter, 0, "")) // opened and closed on the newest: still following
	p.navigate(press(tea.KeyEnter, 0, ""))
	p.event(v(3, "THIRD-REASON"))
	p.navigate(press(tea.KeyEnter, 0, ""))
	if got := plain(p.view(st, 60, 20, true)); !strings.Contains(got, "THIRD-REASON") {
		t.Fatalf("the newest was selected, yet the detail is not the newest verdict's:\n%s", got)
	}
}

// A figure and its unit stay on one row of the verdict detail, however narrow the pane: "0"
// at the end of one row and "ms" at the start of the next reads as two things.
func TestVerdictDetailKeepsFiguresWithTheirUnits(t *testing.T) {
	st := monoStyles(t)
	p := verdictsPane{agent: "claude", open: true, selected: -1, items: []verdictlog.Verdict{{Time: time.Unix(0, 0), Event: hooks.Stop,
		Decision: hooks.Block, Source: "check:tests", Continuations: 1, MaxContinuations: 3, SessionContinuations: 1, LatencyMS: 1234,
		Checks: []verdictlog.CheckRecord{{Name: "tests", ExitCode: 1, DurationMS: 5678}}}}}
	for w := 20; w <= 80; w++ {
		lines := p.detail(st, w, 40)
		for _, l := range lines {
			l = strings.TrimSpace(ansi.Strip(l))
			if strings.HasPrefix(l, "ms") {
				t.Fatalf("at %d columns a figure is cut from its unit:\n%s", w, strings.Join(lines, "\n"))
			}
			for _, f := range []string{"1234", "5678"} {
				if strings.HasSuffix(l, f) {
					t.Fatalf("at %d columns %s ends a row without its unit:\n%s", w, f, strings.Join(lines, "\n"))
				}
			}
		}
	}
}

// Where the reason quotes what failed, read from the output, the banner's and watch's few lines
// are its first: the first failure, not the summary at its end.
func TestFailureLinesShowTheFirstFailure(t *testing.T) {
	reason := "The check \"tests\" failed (exit 1). Fix what it reports, then finish. " + session.WhatFailed + "go test), from its 400 lines of output:\n" +
		"--- FAIL: TestLeap (0.00s)\n    dates_test.go:7: DaysIn(2) = 28, want 29\n--- FAIL: TestOther (0.00s)\n    other_test.go:3: boom\nFAIL\nFAIL\texample.com/dates\t0.01s"
	got := failureLines(reason, 2)
	if len(got) != 2 || got[0] != "--- FAIL: TestLeap (0.00s)" || got[1] != "dates_test.go:7: DaysIn(2) = 28, want 29" {
		t.Fatalf("failureLines = %q", got)
	}
	tail := failureLines("The check \"t\" failed (exit 1). Its output:\na\nb\nc", 2)
	if len(tail) != 2 || tail[0] != "b" || tail[1] != "c" {
		t.Fatalf("a whole output's lines = %q, want its last", tail)
	}
}
