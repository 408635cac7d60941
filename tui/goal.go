package tui

import (
	"fmt"
	"strings"
	"time"

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

// The goal's turn is pasted into the agent's prompt, and Enter pressed goalEnterDelay later: an
// Enter in the paste's wake is taken as part of it (Qwen Code's input drops one within 500 ms
// of a paste; Gemini CLI's adds a line for one within 40 ms, as its clock, late on a busy
// machine, tells). While the agent still waits with the box not empty, its state unchanged and
// the person's keys untouched since, the turn was not sent: Enter again, goalEnterAgain apart,
// goalEnters in all. Never on an empty box: Qwen Code's Enter there sends its own suggestion.
const (
	goalEnterDelay = 600 * time.Millisecond
	goalEnterAgain = 2 * time.Second
	goalEnters     = 3
)

// typeGoalTurn types the goal's next turn into the agent's prompt (m.goalTurn), once the agent
// waits for input, no question is pending and its prompt box is empty on the screen: what the
// person typed there is never mixed with it. Then its Enter (enterGoalTurn).
func (m *model) typeGoalTurn() {
	if !m.goalEnter.IsZero() {
		m.enterGoalTurn()
		return
	}
	if m.goalTurn == "" || m.exited || m.header.state != session.StateWaiting || len(m.questions) > 0 || !m.promptBoxEmpty() {
		return
	}
	m.write(vterm.EncodePaste(m.goalTurn, m.io.term.Modes()))
	m.goalTurn = ""
	m.goalEnter, m.goalEnters, m.goalPasted = time.Now().Add(goalEnterDelay), 0, true
}

// enterGoalTurn presses Enter for the goal's turn pasted into the prompt, when one is due.
func (m *model) enterGoalTurn() {
	if time.Now().Before(m.goalEnter) {
		return
	}
	if m.goalEnters >= goalEnters || m.exited || !m.goalPasted || (m.goalEnters > 0 && (m.header.state != session.StateWaiting || m.promptBoxEmpty())) {
		m.goalEnter, m.goalPasted = time.Time{}, false
		return
	}
	m.write([]byte("\r"))
	m.goalEnters++
	m.goalEnter = time.Now().Add(goalEnterAgain)
}

// promptBoxEmpty reports whether the agent's screen shows its prompt box empty, by the agent's
// rule (Options.PromptEmpty), else a prompt mark alone on a row (agent.MarkAlone's rule).
func (m *model) promptBoxEmpty() bool {
	rows := strings.Split(m.io.term.Text(), "\n")
	if m.promptEmpty != nil {
		return m.promptEmpty(rows)
	}
	return promptMarkAlone(rows)
}

// promptMarkAlone reports whether a row holds a prompt mark alone (Claude Code's "❯", Gemini
// CLI's and Qwen Code's ">", Codex's "›"), inside a box's borders or not.
func promptMarkAlone(rows []string) bool {
	for _, l := range rows {
		l = strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "│┃|"))
		if l == "❯" || l == ">" || l == "›" {
			return true
		}
	}
	return false
}

// goalRecordFailure is the first line of what failed last, as a goal's record alone tells it
// (present.GoalRecordFailure).
func goalRecordFailure(g *verdictlog.Goal) string { return present.GoalRecordFailure(g) }
