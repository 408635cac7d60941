package themes

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
)

// Preview renders a sample of the theme for `hooksup themes`: a swatch of
// every slot with its name and value, mock verdict, agent-state and check
// lines, two panes and a status bar. The result uses full colour; write it
// through a colorprofile.Writer to fit the terminal.
func Preview(t Theme) string {
	s := NewStyles(t)
	note := " · for light backgrounds"
	if t.Dark {
		note = " · for dark backgrounds"
	}
	if colorless(t) {
		note = " · no colour"
	}
	var b strings.Builder
	b.WriteString(s.Title.Render("theme "+t.Name) + s.Muted.Render(note) + "\n\n")

	// Swatches, in two columns.
	names := Slots()
	half := (len(names) + 1) / 2
	cell := func(name string) string {
		c, _ := t.Color(name)
		sw := lipgloss.NewStyle().Background(c)
		if isNone(c) {
			sw = lipgloss.NewStyle().Reverse(true)
		}
		return sw.Render("  ") + " " + s.Text.Render(fmt.Sprintf("%-15s", name)) + s.Muted.Render(fmt.Sprintf(" %-8s", formatColor(c)))
	}
	for i := range half {
		line := cell(names[i])
		if j := i + half; j < len(names) {
			line += "   " + cell(names[j])
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\n")

	label := func(l string) string { return s.Muted.Render(fmt.Sprintf("%-9s", l)) }
	verdicts := []struct {
		style      lipgloss.Style
		mark, word string
		why        string
	}{
		{s.Allow, "✔", "allow", "check:tests passed (2.1s)"},
		{s.Block, "✘", "block", "check:lint failed, claude continues (1/3)"},
		{s.Halt, "■", "halt", "the turn was ended"},
		{s.Warn, "!", "warn", "allowed: continuation limit reached"},
		{s.Pending, "?", "pending", "continue? waiting for you (4m59s)"},
	}
	for i, v := range verdicts {
		l := label("")
		if i == 0 {
			l = label("verdicts")
		}
		b.WriteString(l + " " + v.style.Render(fmt.Sprintf("%s %-7s", v.mark, v.word)) + " " + s.Text.Render(v.why) + "\n")
	}
	b.WriteString(label("agent") + " " + s.Working.Render("● working") + "  " + s.Idle.Render("○ idle") + "  " +
		s.Permission.Render("◆ permission") + "  " + s.Stopped.Render("■ stopped") + "\n")
	b.WriteString(label("checks") + " " + s.CheckRunning.Render("⟳ tests") + "  " + s.CheckPass.Render("✔ vet 0.4s") + "  " +
		s.CheckFail.Render("✘ lint exit 1") + "  " + s.Error.Render("error: golangci-lint not found") + "\n\n")

	focused := s.PaneFocus.Padding(0, 1).Width(34).Render(
		s.Title.Render("claude") + "\n" + s.Text.Render("❯ please run the tests") + "\n" + s.Selection.Render(" selected row "))
	other := s.Pane.Padding(0, 1).Width(30).Render(
		s.Title.Render("verdicts") + "\n" + s.Allow.Render("✔ allow") + s.Muted.Render(" 12:01") + "\n" + s.Block.Render("✘ block") + s.Muted.Render(" 12:03"))
	b.WriteString(lipgloss.JoinHorizontal(lipgloss.Top, focused, " ", other) + "\n")

	bar := s.Key.Render("esc") + s.Muted.Render(" interrupt  ") + s.Key.Render("tab") + s.Muted.Render(" next pane  ") + s.Accent.Render("ask mode")
	b.WriteString(bar + "\n")
	b.WriteString(s.StatusBar.Render(fmt.Sprintf(" %-64s", "hooksup · ask · 1/3 continuations · working")))
	return b.String()
}

// colorless reports whether no slot of t has a colour.
func colorless(t Theme) bool {
	for _, name := range Slots() {
		if c, _ := t.Color(name); !isNone(c) {
			return false
		}
	}
	return true
}
