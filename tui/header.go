package tui

import (
	"fmt"
	"strings"

	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/supervisor"
)

// header is the one-line status bar: session, model, agent state, mode and the counts.
type header struct {
	sessionID   string
	model       string
	mode        supervisor.Mode
	state       supervisor.AgentState
	counts      supervisor.Counts
	interrupted bool
	title       string // claude's window title
	blockCap    int    // claude's own loop cap (0: off)
	tokens      int64  // in + out + cache, main and subagents, from the transcript
	toolCalls   int64
}

func (h *header) event(ev supervisor.Event) {
	switch e := ev.(type) {
	case supervisor.HookReceived:
		if e.Input.SessionID != "" {
			h.sessionID = e.Input.SessionID
		}
		if e.Input.Model != "" {
			h.model = e.Input.Model
		}
		if e.Input.HookEventName == "UserPromptSubmit" {
			h.interrupted = false
		}
	case supervisor.StateChanged:
		h.state = e.State
	case supervisor.Interrupted:
		h.interrupted = true
	case supervisor.TranscriptUpdated:
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
func stateLabel(st Styles, state supervisor.AgentState, interrupted bool) string {
	text := string(state)
	if text == "" {
		text = string(supervisor.StateStarting)
	}
	if interrupted {
		text += " · turn interrupted"
	}
	return st.stateStyle(state).Render("● " + text)
}

func (h *header) view(st Styles, w int) string {
	c := h.counts
	counts := fmt.Sprintf("turn %d/%d · session %d", c.TurnContinuations, c.MaxContinuations, c.SessionContinuations)
	if h.blockCap > 0 {
		counts += fmt.Sprintf(" · claude cap %d", h.blockCap)
	}
	parts := []string{st.Title.Render("hooksup"), stateLabel(st, h.state, h.interrupted), counts}
	if len(c.Steers) > 0 {
		total := 0
		for _, n := range c.Steers {
			total += n
		}
		parts = append(parts, fmt.Sprintf("steers %d (max %d/agent)", total, c.MaxSteers))
	}
	parts = append(parts, "mode "+string(h.mode))
	if h.tokens > 0 {
		parts = append(parts, fmt.Sprintf("%s tokens · %d tools", present.Count(h.tokens), h.toolCalls))
	}
	if h.model != "" {
		parts = append(parts, h.model)
	}
	if h.sessionID != "" {
		parts = append(parts, st.Muted.Render(shortID(h.sessionID)))
	}
	return fit(" "+strings.Join(parts, st.Muted.Render("  │  ")), w)
}
