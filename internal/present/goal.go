package present

import (
	"fmt"
	"strings"
	"time"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/verdictlog"
)

// GoalEnd says how a goal ended: "reached after 2 turns", "ended: its budget of turns (5) ran
// out", "ended: no progress: …", "ended: halted". The TUI's header, hooksup watch's card and
// hooksup web's page say it with these words.
func GoalEnd(g *verdictlog.Goal) string {
	switch {
	case g.End == verdictlog.GoalReached && g.Turn == 1:
		return "reached after 1 turn"
	case g.End == verdictlog.GoalReached:
		return fmt.Sprintf("reached after %d turns", g.Turn)
	case g.End == verdictlog.GoalHalted:
		return "ended: halted"
	case g.End == verdictlog.GoalNoProgress:
		return "ended: no progress: " + termsafe.String(g.Repeated)
	case g.End == verdictlog.GoalPaused:
		return "ended: paused: " + termsafe.String(g.Paused) + " changed"
	case g.Budget == verdictlog.BudgetTurns:
		return fmt.Sprintf("ended: its budget of turns (%d) ran out", g.MaxTurns)
	case g.Budget == verdictlog.BudgetTime:
		return "ended: its budget of time (" + Age(goalMS(g.MaxTimeMS)) + ") ran out"
	case g.Budget == verdictlog.BudgetTokens:
		return "ended: its budget of tokens (" + Count(g.MaxTokens) + ") ran out"
	}
	return "ended: " + termsafe.String(string(g.End))
}

// GoalResumable reports whether a goal that ended can be resumed with a larger budget (hooksup
// goal resume, the page's resume): out of budget, paused or for no progress.
func GoalResumable(g *verdictlog.Goal) bool {
	return g.End == verdictlog.GoalBudget || g.End == verdictlog.GoalPaused || g.End == verdictlog.GoalNoProgress
}

// GoalBudgets are the goal's time and tokens against their budgets, where it has one: "4m/3h",
// "12.3k/200.0k tokens" ("" where it has none).
func GoalBudgets(g *verdictlog.Goal) (elapsed, tokens string) {
	if g.MaxTimeMS > 0 {
		elapsed = Age(goalMS(g.ElapsedMS)) + "/" + Age(goalMS(g.MaxTimeMS))
	}
	if g.MaxTokens > 0 {
		tokens = Count(g.Tokens) + "/" + Count(g.MaxTokens) + " tokens"
	}
	return elapsed, tokens
}

// GoalFailure is the first line of what failed at a goal's stop: "done exit 1: FAIL TestLogin",
// "tests exit 1: --- FAIL: TestAdd"; "" when nothing did.
func GoalFailure(v verdictlog.Verdict) string {
	failed := func(r verdictlog.CheckRecord) bool { return r.ExitCode != 0 || r.TimedOut || r.Error != "" }
	var r *verdictlog.CheckRecord
	if v.Goal != nil && v.Goal.Done != nil && failed(*v.Goal.Done) {
		r = v.Goal.Done
	} else {
		for i := range v.Checks {
			if failed(v.Checks[i]) {
				r = &v.Checks[i]
				break
			}
		}
	}
	if r == nil {
		return ""
	}
	how := fmt.Sprintf("exit %d", r.ExitCode)
	switch {
	case r.TimedOut:
		how = "timed out"
	case r.Error != "":
		how = FirstLine(r.Error)
	}
	s := termsafe.String(r.Name) + " " + how
	for _, l := range strings.Split(checks.PlainText([]byte(r.Output)), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return s + ": " + termsafe.String(l)
		}
	}
	return s
}

// GoalRecordFailure is the first line of what failed last, as a goal's record alone tells it
// (a session's snapshot): the done command's failing run, else what is left undone.
func GoalRecordFailure(g *verdictlog.Goal) string {
	if d := g.Done; d != nil && (d.ExitCode != 0 || d.TimedOut || d.Error != "") {
		return GoalFailure(verdictlog.Verdict{Goal: g})
	}
	return FirstLine(g.Undone)
}

func goalMS(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
