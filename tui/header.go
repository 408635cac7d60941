package tui

import (
	"fmt"
	"strings"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// header is the one-line status bar: agent state, mode, the continuations, tokens, model and
// session.
type header struct {
	agent       string // the agent's name
	plain       string // the agent hooksup runs when none is named: the title leaves its name out
	sessionID   string
	model       string
	mode        config.Mode
	state       session.AgentState
	counts      session.Counts
	interrupted bool
	title       string // claude's window title
	blockCap    int    // claude's own loop cap (0: off)
	tokens      int64  // in + out + cache, main and subagents, from the transcript
	toolCalls   int64
	ignored     bool // the project's config is not trusted: its checks are ignored
	// goal is goal mode's latest record (nil: no goal), from the main agent's verdicts (goal.go);
	// goalFailed the first line of what failed at its latest turn.
	goal       *verdictlog.Goal
	goalFailed string
	// permission is the agent's permission dialog while it is a question of the session: it is
	// answered at the dialog or from anywhere (hooksup approve or deny, watch, the page).
	permission *session.Question
}

func (h *header) event(ev session.Event) {
	switch e := ev.(type) {
	case session.HookReceived:
		if e.Input.SessionID != "" {
			h.sessionID = e.Input.SessionID
		}
		if e.Input.Model != "" {
			h.model = e.Input.Model
		}
		if e.Input.HookEventName == "UserPromptSubmit" {
			h.interrupted = false
		}
	case session.StateChanged:
		h.state = e.State
	case session.QuestionAsked:
		if e.Question.Permission != nil {
			q := e.Question
			h.permission = &q
		}
	case session.QuestionResolved:
		if h.permission != nil && h.permission.ID == e.ID {
			h.permission = nil
		}
	case session.VerdictDecided:
		h.goalVerdict(e.Verdict)
	case session.ConfigApplied:
		h.mode = config.Mode(e.Mode) // a trusted edit of the configuration took effect
	case session.Interrupted:
		h.interrupted = true
	case session.TranscriptUpdated:
		h.tokens = e.Snapshot.Usage.Total()
		h.toolCalls = e.Snapshot.Main.ToolCallCount
		if e.Snapshot.Main.Model != "" {
			h.model = e.Snapshot.Main.Model
		}
	}
}

func shortID(id string) string {
	if i := strings.IndexByte(id, '-'); i > 0 {
		return id[:i]
	}
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// stateLabel is an agent state as the header shows it.
func stateLabel(st Styles, state session.AgentState, interrupted bool) string {
	text := string(state)
	if text == "" {
		text = string(session.StateStarting)
	}
	if interrupted && state != session.StateInterrupted {
		text += " · turn interrupted" // Escape was pressed in this turn: its stops are allowed
	}
	return st.stateStyle(state).Render("● " + text)
}

func (h *header) view(st Styles, w int) string {
	title := st.Title.Render("hooksup")
	if h.agent != h.plain && h.agent != present.AgentName("") {
		title += " " + st.Title.Render(h.agent) // hooksup's first agent goes unnamed; any other is named
	}
	parts := []string{title, stateLabel(st, h.state, h.interrupted), "mode " + string(h.mode)}
	if g := h.goal; g != nil {
		parts = append(parts, goalLine(st, g, h.goalFailed))
	}
	if h.goal == nil || h.goal.End != "" {
		// A goal's stops are bounded by its turns, not by max_continuations.
		parts = append(parts, continuations(h.counts, h.blockCap, present.AgentName(h.agent)))
	}
	if q := h.permission; q != nil {
		// The agent's text, shown visibly (it was made so), its first line's start: its dialog
		// shows it whole.
		what := "⚑ " + q.Permission.Tool
		if c := present.FirstLine(q.Permission.Command); c != "" {
			if r := []rune(c); len(r) > 60 {
				c = string(r[:59]) + "…"
			}
			what += ": " + c
		}
		parts = append(parts, st.Pending.Render(what)+st.Muted.Render(fmt.Sprintf(" (question %d)", q.ID)))
	}
	if w := h.counts.Waiting; w != nil {
		// Also where the checks pane is hidden (a small window, zoomed).
		parts = append(parts[:2], append([]string{st.Warn.Render("⧗ " + present.WaitingFor(w.Holder))}, parts[2:]...)...)
	}
	if c := h.counts; c.SubagentContinuations > 0 {
		parts = append(parts, fmt.Sprintf("subagent continuations %d (max %d each)", c.SubagentContinuations, c.MaxSteers))
	}
	if h.ignored {
		parts = append(parts, st.Warn.Render("⚠ project checks ignored: not trusted"))
	}
	if h.tokens > 0 {
		parts = append(parts, present.Count(h.tokens)+" tokens · "+plural(int64(h.toolCalls), "tool call"))
	}
	// The model and the session's id are the agent's word: shown visibly, the line stays one.
	if h.model != "" {
		parts = append(parts, termsafe.String(h.model))
	}
	if h.sessionID != "" {
		parts = append(parts, st.Muted.Render(termsafe.String(shortID(h.sessionID))))
	}
	return fit(" "+strings.Join(parts, st.Muted.Render("  │  ")), w)
}

// continuations counts the forced continuations of this turn against the limit, and of the
// session. The agent's own limit on blocks in a row is named only where it ends a turn first:
// the agent overrides the block after blockCap in a row, hooksup allows the stop after
// max_continuations.
func continuations(c session.Counts, blockCap int, agent string) string {
	s := fmt.Sprintf("continuations %d/%d this turn", c.TurnContinuations, c.MaxContinuations)
	if blockCap > 0 && blockCap < c.MaxContinuations {
		s += fmt.Sprintf(" (%s allows %d in a row)", agent, blockCap)
	}
	return s + fmt.Sprintf(" · %d this session", c.SessionContinuations)
}
