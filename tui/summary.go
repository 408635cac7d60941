package tui

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
)

// tally counts what the summary shown at claude's exit says, from the events.
type tally struct {
	sessionID string
	turns     int64 // prompts in the transcript: 0 means there is no conversation to resume
	tokens    int64
	toolCalls int64
	verdicts  map[hooks.Decision]int
}

func (t *tally) event(ev session.Event) {
	switch e := ev.(type) {
	case session.HookReceived:
		if e.Input.SessionID != "" {
			t.sessionID = e.Input.SessionID
		}
	case session.TranscriptUpdated:
		t.turns, t.tokens = e.Snapshot.Main.Turns, e.Snapshot.Usage.Total()
		t.toolCalls = e.Snapshot.Main.ToolCallCount
		for _, a := range e.Snapshot.Agents {
			t.toolCalls += a.Stats.ToolCallCount
		}
		if e.Snapshot.SessionID != "" {
			t.sessionID = e.Snapshot.SessionID
		}
	case session.VerdictDecided:
		if t.verdicts == nil {
			t.verdicts = map[hooks.Decision]int{}
		}
		t.verdicts[e.Verdict.Decision]++
	}
}

// lines are the summary's lines: the verdicts, what the session used and, with the command
// that resumes a session (before its id), how to resume this one.
func (t tally) lines(resume string) []string {
	n := 0
	for _, c := range t.verdicts {
		n += c
	}
	var out []string
	switch n {
	case 0:
		out = append(out, "no verdicts")
	case 1:
		out = append(out, "1 verdict: "+present.Counts(t.verdicts, 0))
	default:
		out = append(out, fmt.Sprintf("%d verdicts: %s", n, present.Counts(t.verdicts, 0)))
	}
	if t.turns == 0 {
		return append(out, "no conversation to resume")
	}
	out = append(out, fmt.Sprintf("%s tokens · %s · %s", present.Count(t.tokens), plural(t.toolCalls, "tool call"), plural(t.turns, "prompt")))
	if resume != "" && t.sessionID != "" {
		out = append(out, "resume it with:", "  "+resume+" "+termsafe.String(t.sessionID))
	}
	return out
}

func plural(n int64, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// exitBox is the summary held over claude's pane after it exited.
func (m model) exitBox() string {
	title := fmt.Sprintf("%s exited with status %d", m.name, m.exitCode)
	lines := append(m.tally.lines(m.resume), m.st.Muted.Render("press any key to close"))
	w := ansi.StringWidth(title) + 6
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l)+4) // a space either side
	}
	w = min(w, max(m.lay.agent.w-2, 12))
	var wrapped []string
	for _, l := range lines {
		for _, r := range wrapText(l, w-4) {
			wrapped = append(wrapped, " "+r)
		}
	}
	return box(title, wrapped, w, len(wrapped)+2, m.st.BorderFocus, m.st.Title)
}
