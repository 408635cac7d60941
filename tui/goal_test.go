package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// goalStop is the verdict of a main agent's stop in goal mode.
func goalStop(d hooks.Decision, src verdictlog.Source, g verdictlog.Goal, checks ...verdictlog.CheckRecord) session.Event {
	return session.VerdictDecided{At: session.At{Time: time.Now()}, Verdict: verdictlog.Verdict{Time: time.Now(), Event: "Stop",
		Decision: d, Source: src, Goal: &g, Checks: checks}}
}

// The header follows the goal from its verdicts: its text (clipped), the turn against the
// budget, time and tokens against theirs where set, what failed last; and how it ended.
func TestTUIGoalHeader(t *testing.T) {
	text := "make the e2e suite pass on every platform we ship, including the slow ones nobody runs"
	base := verdictlog.Goal{Text: text, MaxTurns: 5, MaxTimeMS: int64(3 * time.Hour / time.Millisecond), MaxTokens: 200_000}
	doneFailed := &verdictlog.CheckRecord{Name: "done", ExitCode: 1, Output: "\nFAIL e2e/login_test.go: TestLogin\nok  e2e/other\n"}

	m := newScreenModel(t, 220, 44)
	m.header.goal = &verdictlog.Goal{Text: text, MaxTurns: 5} // as the session starts
	_, scr := feedEvents(m)
	if !strings.Contains(scr, "goal turn 0/5") || !strings.Contains(scr, "make the e2e suite pass") {
		t.Fatalf("as the session starts, the header lacks the goal:\n%s", firstLine(scr))
	}

	g1 := base
	g1.Turn, g1.ElapsedMS, g1.Tokens = 1, 61_000, 12_345
	m, scr = feedEvents(m, goalStop(hooks.Block, "check:tests", g1, verdictlog.CheckRecord{Name: "tests", ExitCode: 1,
		Output: "--- FAIL: TestAdd (0.01s)\n    add_test.go:9: 1+1 = 3\n"}))
	head := firstLine(scr)
	for _, want := range []string{"goal turn 1/5", "make the e2e suite pass on", "…", "1m/3h", "12.3k/200.0k tokens", "tests exit 1: --- FAIL: TestAdd"} {
		if !strings.Contains(head, want) {
			t.Errorf("after turn 1, the header lacks %q:\n%s", want, head)
		}
	}
	if strings.Contains(head, "nobody runs") {
		t.Errorf("the goal's text is not clipped:\n%s", head)
	}

	g2 := base
	g2.Turn, g2.ElapsedMS, g2.Tokens, g2.Done = 2, 125_000, 40_000, doneFailed
	m, scr = feedEvents(m, goalStop(hooks.Block, verdictlog.SourceGoal, g2, verdictlog.CheckRecord{Name: "tests"}))
	head = firstLine(scr)
	for _, want := range []string{"goal turn 2/5", "2m/3h", "40.0k/200.0k tokens", "done exit 1: FAIL e2e/login_test.go: TestLogin"} {
		if !strings.Contains(head, want) {
			t.Errorf("after turn 2, the header lacks %q:\n%s", want, head)
		}
	}
	if strings.Contains(head, "TestAdd") || strings.Contains(head, "continuations") {
		t.Errorf("after turn 2, the header says an old failure or the per-turn limit:\n%s", head)
	}

	ends := []struct {
		name string
		g    func(g *verdictlog.Goal)
		want string
	}{
		{"reached", func(g *verdictlog.Goal) {
			g.Turn, g.Done, g.End = 2, &verdictlog.CheckRecord{Name: "done"}, verdictlog.GoalReached
		}, "goal reached after 2 turns"},
		{"budget", func(g *verdictlog.Goal) {
			g.Turn, g.Done, g.End, g.Budget = 5, doneFailed, verdictlog.GoalBudget, verdictlog.BudgetTurns
		}, "goal ended: its budget of turns (5) ran out"},
		{"time", func(g *verdictlog.Goal) { g.Turn, g.End, g.Budget = 3, verdictlog.GoalBudget, verdictlog.BudgetTime }, "goal ended: its budget of time (3h) ran out"},
		{"no progress", func(g *verdictlog.Goal) {
			g.Turn, g.Done, g.End, g.Repeated = 3, doneFailed, verdictlog.GoalNoProgress, "the done command's same output, 3 stops in a row"
		}, "goal ended: no progress: the done command's same output, 3 stops in a row"},
		{"halted", func(g *verdictlog.Goal) { g.Turn, g.End = 2, verdictlog.GoalHalted }, "goal ended: halted"},
	}
	for _, e := range ends {
		t.Run(e.name, func(t *testing.T) {
			g := base
			e.g(&g)
			_, scr := feedEvents(m, goalStop(hooks.Allow, verdictlog.SourceGoal, g))
			head := firstLine(scr)
			if !strings.Contains(head, e.want) || !strings.Contains(head, "make the e2e suite pass") {
				t.Errorf("the header lacks %q:\n%s", e.want, head)
			}
			if strings.Contains(head, "goal turn") {
				t.Errorf("an ended goal still counts turns:\n%s", head)
			}
		})
	}

	// A subagent's stop and the ordinary stops after the goal's end carry no goal: the end stays.
	g := base
	g.Turn, g.End = 2, verdictlog.GoalReached
	m, _ = feedEvents(m, goalStop(hooks.Allow, verdictlog.SourceGoal, g))
	_, scr = feedEvents(m, session.VerdictDecided{Verdict: verdictlog.Verdict{Event: "Stop", Decision: hooks.Allow, Source: "checks"}})
	if head := firstLine(scr); !strings.Contains(head, "goal reached after 2 turns") || !strings.Contains(head, "continuations") {
		t.Errorf("after the goal, an ordinary stop:\n%s", head)
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
