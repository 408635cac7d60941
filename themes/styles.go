package themes

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Styles are the lipgloss styles the TUI draws with, derived once from a
// theme by NewStyles and handed to every pane. Where a slot has no colour
// (the mono theme), the style falls back to text attributes so that states
// stay distinguishable: reverse video for the selection and the status bar,
// bold for blocking verdicts and questions, faint for muted text, underline
// for warnings, a thick border for the focused pane.
type Styles struct {
	Text, Muted, Title, Accent lipgloss.Style
	// Key renders key bindings in help lines.
	Key lipgloss.Style
	// Pane and PaneFocus are bordered boxes for unfocused and focused panes.
	Pane, PaneFocus lipgloss.Style
	Selection       lipgloss.Style
	StatusBar       lipgloss.Style
	Error           lipgloss.Style

	Allow, Block, Halt, Warn, Pending lipgloss.Style

	Working, Idle, Permission, Stopped lipgloss.Style

	CheckRunning, CheckPass, CheckFail lipgloss.Style
}

// isNone reports whether c means "the terminal's default colour".
func isNone(c color.Color) bool {
	_, ok := c.(lipgloss.NoColor)
	return c == nil || ok
}

// NewStyles derives the styles from a theme.
func NewStyles(t Theme) Styles {
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	onBar := func(bg, text color.Color) lipgloss.Style {
		s := lipgloss.NewStyle().Background(bg).Foreground(text)
		if isNone(bg) {
			s = s.Reverse(true)
		}
		return s
	}
	ifNone := func(s lipgloss.Style, c color.Color, mono func(lipgloss.Style) lipgloss.Style) lipgloss.Style {
		if isNone(c) {
			return mono(s)
		}
		return s
	}
	faint := func(s lipgloss.Style) lipgloss.Style { return s.Faint(true) }
	underline := func(s lipgloss.Style) lipgloss.Style { return s.Underline(true) }
	bold := func(s lipgloss.Style) lipgloss.Style { return s.Bold(true) }

	focusBorder := lipgloss.RoundedBorder()
	if isNone(t.BorderFocus) {
		focusBorder = lipgloss.ThickBorder()
	}
	return Styles{
		Text:      fg(t.Text),
		Muted:     ifNone(fg(t.Muted), t.Muted, faint),
		Title:     fg(t.Title).Bold(true),
		Accent:    ifNone(fg(t.Accent), t.Accent, bold),
		Key:       fg(t.Accent).Bold(true),
		Pane:      lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(t.Border),
		PaneFocus: lipgloss.NewStyle().Border(focusBorder).BorderForeground(t.BorderFocus),
		Selection: onBar(t.Selection, t.SelectionText),
		StatusBar: onBar(t.StatusBar, t.StatusBarText),
		Error:     fg(t.Error).Bold(true),

		Allow:   fg(t.Allow),
		Block:   fg(t.Block).Bold(true),
		Halt:    fg(t.Halt).Bold(true),
		Warn:    ifNone(fg(t.Warn), t.Warn, underline),
		Pending: fg(t.Pending).Bold(true),

		Working:    fg(t.Working),
		Idle:       ifNone(fg(t.Idle), t.Idle, faint),
		Permission: fg(t.Permission).Bold(true),
		Stopped:    ifNone(fg(t.Stopped), t.Stopped, faint),

		CheckRunning: fg(t.CheckRunning),
		CheckPass:    fg(t.CheckPass),
		CheckFail:    fg(t.CheckFail).Bold(true),
	}
}

// Verdict returns the style of a hook verdict by its name in the verdict
// log: "allow", "block" or "halt"; anything else gets Text.
func (s Styles) Verdict(decision string) lipgloss.Style {
	switch decision {
	case "allow":
		return s.Allow
	case "block":
		return s.Block
	case "halt":
		return s.Halt
	default:
		return s.Text
	}
}
