package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/themes"
)

// Styles are derived once from a theme, one style per slot (and a few made of two slots):
// every pane draws with these, and so does the `hooksup themes` preview (Preview).
type Styles struct {
	Border      lipgloss.Style // unfocused pane borders
	BorderFocus lipgloss.Style // the focused pane's border
	BorderAlert lipgloss.Style // claude's pane while a question waits (pending)
	Title       lipgloss.Style // pane titles, the check's name
	Muted       lipgloss.Style // times, hints, separators, empty-pane notes
	Accent      lipgloss.Style // a verdict's source
	Key         lipgloss.Style // keys in the help (accent, bold)
	Selected    lipgloss.Style // the selected verdict (selection on selection_text)
	Status      lipgloss.Style // the status line after claude exited (status_bar_text on status_bar)
	Banner      lipgloss.Style // the decision banner (status_bar on pending)
	Error       lipgloss.Style // hooksup's own errors in the status line

	Allow   lipgloss.Style // verdicts
	Block   lipgloss.Style
	Halt    lipgloss.Style
	Warn    lipgloss.Style // warnings, a steered subagent
	Pending lipgloss.Style

	Working    lipgloss.Style // agent states in the header
	Idle       lipgloss.Style
	Permission lipgloss.Style
	Stopped    lipgloss.Style // exited; a subagent that is done

	CheckRunning lipgloss.Style // the checks pane and a verdict's checks
	CheckPass    lipgloss.Style
	CheckFail    lipgloss.Style
}

func isNone(c color.Color) bool {
	_, ok := c.(lipgloss.NoColor)
	return c == nil || ok
}

// NewStyles derives the TUI's styles from a theme. A slot without a colour (the mono theme,
// NO_COLOR) falls back to bold, faint and reverse, so nothing depends on colour alone.
func NewStyles(t themes.Theme) Styles {
	fg := func(c color.Color) lipgloss.Style {
		if isNone(c) {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(c)
	}
	onBg := func(bg, text color.Color) lipgloss.Style {
		if isNone(bg) {
			return lipgloss.NewStyle().Reverse(true)
		}
		s := lipgloss.NewStyle().Background(bg)
		if !isNone(text) {
			s = s.Foreground(text)
		}
		return s
	}
	mono := isNone(t.Border)
	s := Styles{
		Border: fg(t.Border), BorderFocus: fg(t.BorderFocus).Bold(mono), BorderAlert: fg(t.Pending).Bold(true),
		Title: fg(t.Title).Bold(true), Muted: fg(t.Muted).Faint(isNone(t.Muted)), Accent: fg(t.Accent),
		Key: fg(t.Accent).Bold(true), Error: fg(t.Error).Bold(true),
		Selected: onBg(t.Selection, t.SelectionText), Status: onBg(t.StatusBar, t.StatusBarText),
		Banner: onBg(t.Pending, t.StatusBar).Bold(true),

		Allow: fg(t.Allow), Block: fg(t.Block).Bold(true), Halt: fg(t.Halt).Bold(true), Warn: fg(t.Warn),
		Pending: fg(t.Pending).Bold(true),

		Working: fg(t.Working), Idle: fg(t.Idle), Permission: fg(t.Permission).Bold(true),
		Stopped: fg(t.Stopped).Faint(isNone(t.Stopped)),

		CheckRunning: fg(t.CheckRunning), CheckPass: fg(t.CheckPass), CheckFail: fg(t.CheckFail).Bold(true),
	}
	if isNone(t.Pending) {
		s.Banner = lipgloss.NewStyle().Reverse(true).Bold(true)
	}
	return s
}

// decisionStyle colours a verdict's decision.
func (s Styles) decisionStyle(decision hooks.Decision) lipgloss.Style {
	switch decision {
	case hooks.Block:
		return s.Block
	case hooks.Halt:
		return s.Halt
	case hooks.Allow:
		return s.Allow
	}
	return lipgloss.NewStyle()
}

// stateStyle colours an agent state.
func (s Styles) stateStyle(state session.AgentState) lipgloss.Style {
	switch state {
	case session.StateWorking, session.StateStopping:
		return s.Working
	case session.StatePermission, session.StateQuestion:
		return s.Permission
	case session.StateFailed, session.StateInterrupted:
		return s.Block
	case session.StateExited:
		return s.Stopped
	}
	return s.Idle // starting, waiting for input
}
