package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/tui/vterm"
	"github.com/hooksup/hooksup/verdictlog"
)

// goalTextCells bounds the goal's text in the header: its start says which goal it is.
const goalTextCells = 32

// goalVerdict takes a main agent's verdict in goal mode: its goal record, and the first line of
// what failed at that stop (the done command, else the check that failed). A verdict without a
// goal (a subagent's, the ordinary stops after the goal's end) changes nothing.
func (h *header) goalVerdict(v verdictlog.Verdict) {
	if v.Goal == nil {
		return
	}
	g := *v.Goal
	h.goal = &g
	switch failed := goalFailure(v); {
	case failed != "":
		h.goalFailed = failed
	case g.End == verdictlog.GoalReached:
		h.goalFailed = ""
	}
}

// goalFailure is the first line of what failed at a goal's stop (present.GoalFailure).
func goalFailure(v verdictlog.Verdict) string { return present.GoalFailure(v) }

// goalLine is the goal as the header shows it: while it goes on, `goal turn 2/5 "make the e2e
// suite…" · 4m/3h · 12.3k/200.0k tokens · ✗ done exit 1: FAIL TestLogin` (time and tokens where
// they have a budget); once it ended, how: `goal reached after 2 turns "…"`, `goal ended: its
// budget of turns (5) ran out "…"`.
func goalLine(st Styles, g *verdictlog.Goal, failed string) string {
	text := strings.TrimSpace(g.Text)
	text, _, _ = strings.Cut(text, "\n")
	quoted := `"` + ansi.Truncate(termsafe.String(text), goalTextCells, "…") + `"`
	if g.End != "" {
		s := st.Title.Render("goal "+goalEnd(g)) + " " + quoted
		if failed != "" && !g.End.Reached() {
			s += " · " + st.CheckFail.Render("✗ "+failed)
		}
		return s
	}
	parts := []string{st.Title.Render(fmt.Sprintf("goal turn %d/%d", g.Turn, g.MaxTurns)) + " " + quoted}
	elapsed, tokens := present.GoalBudgets(g)
	for _, p := range []string{elapsed, tokens} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if failed != "" {
		parts = append(parts, st.CheckFail.Render("✗ "+failed))
	}
	return strings.Join(parts, " · ")
}

// goalEnd says how a goal ended (present.GoalEnd).
func goalEnd(g *verdictlog.Goal) string { return present.GoalEnd(g) }

// typeGoalTurn types the goal's next turn into the agent's prompt (m.goalTurn), once the agent
// waits for input, no question is pending and its prompt box is empty on the screen: what the
// person typed there is never mixed with it.
func (m *model) typeGoalTurn() {
	if m.goalTurn == "" || m.exited || m.header.state != session.StateWaiting || len(m.questions) > 0 || !promptBoxEmpty(m.io.term.Text()) {
		return
	}
	m.write(vterm.EncodePaste(m.goalTurn, m.io.term.Modes()))
	m.write([]byte("\r"))
	m.goalTurn = ""
}

// promptBoxEmpty reports whether the agent's screen shows its prompt box empty: a line holding
// its prompt mark alone (Claude Code's "❯", Gemini CLI's and Qwen Code's ">"), inside the box's
// borders or not.
func promptBoxEmpty(screen string) bool {
	for _, l := range strings.Split(screen, "\n") {
		l = strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "│┃|"))
		if l == "❯" || l == ">" {
			return true
		}
	}
	return false
}

// goalRecordFailure is the first line of what failed last, as a goal's record alone tells it
// (present.GoalRecordFailure).
func goalRecordFailure(g *verdictlog.Goal) string { return present.GoalRecordFailure(g) }
