package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// fit makes s exactly w cells wide: cut with an ellipsis, or padded with spaces. s may hold
// ANSI styles.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	return s + strings.Repeat(" ", max(0, w-sw))
}

// box draws a rounded border of w×h cells around lines, with title in the top edge. It is
// composed by hand: lipgloss borders cost several times more per frame.
func box(title string, lines []string, w, h int, border lipgloss.Style, titleStyle lipgloss.Style) string {
	if w < 2 || h < 2 {
		return ""
	}
	inner := w - 2
	var b strings.Builder
	if title != "" && inner > 4 {
		t := ansi.Truncate(title, inner-3, "…")
		fill := inner - 3 - ansi.StringWidth(t)
		b.WriteString(border.Render("╭─ ") + titleStyle.Render(t) + border.Render(" "+strings.Repeat("─", fill)+"╮"))
	} else {
		b.WriteString(border.Render("╭" + strings.Repeat("─", inner) + "╮"))
	}
	side := border.Render("│")
	for i := 0; i < h-2; i++ {
		b.WriteByte('\n')
		b.WriteString(side)
		if i < len(lines) {
			b.WriteString(fit(lines[i], inner))
		} else {
			b.WriteString(strings.Repeat(" ", inner))
		}
		b.WriteString(side)
	}
	b.WriteByte('\n')
	b.WriteString(border.Render("╰" + strings.Repeat("─", inner) + "╯"))
	return b.String()
}

// joinRow puts blocks of equal height side by side.
func joinRow(blocks ...string) string {
	split := make([][]string, len(blocks))
	n := 0
	for i, b := range blocks {
		split[i] = strings.Split(b, "\n")
		n = max(n, len(split[i]))
	}
	var out strings.Builder
	for row := 0; row < n; row++ {
		if row > 0 {
			out.WriteByte('\n')
		}
		for _, s := range split {
			if row < len(s) {
				out.WriteString(s[row])
			}
		}
	}
	return out.String()
}

// wrapText wraps plain or styled text to w cells and returns its lines.
func wrapText(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	return strings.Split(ansi.Wrap(s, w, " "), "\n")
}
