package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/themes"
)

// Styles are derived once from a theme: foreground styles for the hand-drawn panes.
type Styles struct {
	Border      lipgloss.Style
	BorderFocus lipgloss.Style
	BorderAlert lipgloss.Style
	Title       lipgloss.Style
	Text        lipgloss.Style
	Muted       lipgloss.Style
	Accent      lipgloss.Style
	Allow       lipgloss.Style
	Block       lipgloss.Style
	Warn        lipgloss.Style
	Halt        lipgloss.Style
	Pending     lipgloss.Style
	Working     lipgloss.Style
	Idle        lipgloss.Style
	Selected    lipgloss.Style
	Status      lipgloss.Style
	Banner      lipgloss.Style
	Key         lipgloss.Style
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
		Title: fg(t.Title).Bold(true), Text: fg(t.Text), Muted: fg(t.Muted).Faint(isNone(t.Muted)), Accent: fg(t.Accent),
		Allow: fg(t.Allow), Block: fg(t.Block).Bold(true), Warn: fg(t.Warn), Halt: fg(t.Halt).Bold(true),
		Pending: fg(t.Pending).Bold(true), Working: fg(t.Working), Idle: fg(t.Idle), Key: fg(t.Accent).Bold(true),
		Selected: onBg(t.Selection, t.SelectionText), Status: onBg(t.StatusBar, t.StatusBarText),
		Banner: onBg(t.Pending, t.StatusBar).Bold(true),
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
	return s.Text
}
