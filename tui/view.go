package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
)

// View draws the whole screen. It only reads state: no I/O.
func (m model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.ReportFocus = true
	title := "hooksup"
	if t := m.header.title; t != "" {
		title += " · " + t
	}
	v.WindowTitle = title
	if m.focus == paneAgent && !m.editor.open && !m.help && m.agent.scroll == 0 && !m.exited && !m.isTooSmall() {
		if x, y, visible := m.io.term.Cursor(); visible {
			c := tea.NewCursor(m.lay.agent.x+1+x, m.lay.agent.y+1+y)
			v.Cursor = c
		}
	}
	if m.editor.open && !m.isTooSmall() {
		if c := m.editor.cursor(); c != nil {
			c.Position.X += m.lay.banner.x
			c.Position.Y += m.lay.banner.y + m.inputRow()
			v.Cursor = c
		}
	}
	return v
}

func (m model) render() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	if m.quitting {
		return ""
	}
	if m.isTooSmall() {
		return m.tooSmall()
	}
	rows := make([]string, 0, 4)
	rows = append(rows, m.statusLine())
	if !m.lay.banner.empty() {
		if len(m.questions) > 0 {
			rows = append(rows, m.banner())
		} else {
			rows = append(rows, m.trustBanner())
		}
	}
	agent := m.agentBox()
	switch m.lay.kind {
	case layoutWide:
		side := strings.Join([]string{m.verdictsBox(), m.checksBox(), m.subsBox()}, "\n")
		rows = append(rows, joinRow(agent, side))
	case layoutStack:
		rows = append(rows, agent, joinRow(m.verdictsBox(), m.checksBox(), m.subsBox()))
	default:
		rows = append(rows, agent)
	}
	out := strings.Join(rows, "\n")
	if m.exited && m.holdOnExit {
		out = overlayIn(out, m.exitBox(), m.lay.agent)
	}
	if m.help {
		out = overlay(out, m.helpBox(), m.w, m.h)
	}
	return out
}

// The smallest agent pane hooksup draws, inside its border; below it the screen says the
// terminal is too small rather than squeezing the agent to nothing.
const (
	minAgentCols = 20
	minAgentRows = 3
)

// isTooSmall reports whether the agent's pane would be under the minimum.
func (m model) isTooSmall() bool {
	return m.lay.agent.w-2 < minAgentCols || m.lay.agent.h-2 < minAgentRows
}

// tooSmall is the whole screen when the agent's pane would be smaller than the minimum: what
// is wrong, what would do, and that the keys still work.
func (m model) tooSmall() string {
	need := fmt.Sprintf("%d×%d", minAgentCols+2, m.h-(m.lay.agent.h-2)+minAgentRows)
	text := fmt.Sprintf("terminal too small (%d×%d): %s's pane needs %s or more. Keys still work: Esc interrupts.",
		m.w, m.h, m.name, need)
	lines := wrapText(text, max(m.w, 1))
	if len(m.questions) > 0 {
		lines = append(lines, wrapText(m.st.Warn.Render("⚑ "+m.name+" wants to stop: a question waits"), max(m.w, 1))...)
	}
	if len(lines) > m.h {
		lines = lines[:m.h]
	}
	return strings.Join(lines, "\n")
}

func (m model) statusLine() string {
	if m.exited {
		return exitLine(m.st, m.name, m.exitCode, m.exitErr, m.holdOnExit, m.w)
	}
	if m.confirmQuit {
		return m.st.Warn.Render(fit(fmt.Sprintf(" %s is working: %s again ends it · any other key keeps it", m.name, m.keys.Command.Quit.Help().Key), m.w))
	}
	if m.prefixed {
		c := m.keys.Command
		return m.st.Status.Render(fit(" hooksup: "+hintLine(" · ", c.Approve, c.Deny, c.Edit, c.Halt, c.Focus, c.Zoom, c.Help, c.Quit), m.w))
	}
	if len(m.notices) > 0 {
		return noticeLine(m.st, m.notices[len(m.notices)-1], m.w)
	}
	return m.header.view(m.st, m.w)
}

// exitLine replaces the header once the agent (named name) exited.
func exitLine(st Styles, name string, code int, err error, hold bool, w int) string {
	msg := fmt.Sprintf(" %s exited with status %d", name, code)
	if err != nil {
		msg += ": " + err.Error()
	}
	if hold {
		msg += " — press any key to close"
	}
	return st.Status.Render(fit(msg, w))
}

// noticeLine is a warning or an error of hooksup's own, in place of the header.
func noticeLine(st Styles, n session.Notice, w int) string {
	style := st.Warn
	if n.Level == session.NoticeError {
		style = st.Error
	}
	return style.Render(fit(" ⚠ "+termsafe.String(n.Text), w))
}

func (m model) border(p pane) lipgloss.Style {
	if p == paneAgent && len(m.questions) > 0 {
		return m.st.BorderAlert
	}
	if m.focus == p {
		return m.st.BorderFocus
	}
	return m.st.Border
}

func (m model) agentBox() string {
	r := m.lay.agent
	cols, rows := m.lay.agentInner()
	lines := m.io.term.RenderLines(cols, rows, m.agent.scroll)
	title := m.name
	if t := strings.TrimSpace(m.header.title); t != "" {
		title = termsafe.String(t) // the agent's word
	}
	if m.agent.scroll > 0 {
		title += fmt.Sprintf(" · scrolled back %d lines", m.agent.scroll)
	}
	if m.zoom {
		title += " · zoomed"
	}
	return box(title, lines, r.w, r.h, m.border(paneAgent), m.st.Title)
}

func (m model) verdictsBox() string {
	r := m.lay.verdicts
	lines := m.verdicts.view(m.st, r.w-2, r.h-2, m.focus == paneVerdicts)
	title := fmt.Sprintf("verdicts %d", len(m.verdicts.items))
	return box(title, lines, r.w, r.h, m.border(paneVerdicts), m.st.Title)
}

func (m model) checksBox() string {
	r := m.lay.checks
	return box("checks", m.checks.view(m.st, r.w-2, r.h-2, m.now), r.w, r.h, m.border(paneChecks), m.st.Title)
}

func (m model) subsBox() string {
	r := m.lay.subs
	return box(fmt.Sprintf("subagents %d", len(m.subs.agents)), m.subs.view(m.st, r.w-2, r.h-2), r.w, r.h, m.border(paneSubagents), m.st.Title)
}

func (m model) helpBox() string {
	// The keys' column fits the usual keys; a longer label gets a line of its own.
	const col = 22
	key := func(k string) string { return "  " + fit(m.st.Key.Render(k), col) }
	lines := []string{
		key("esc") + "interrupt " + m.name + "; the turn may stop",
		key(m.keys.Prefix.Help().Key) + "hooksup's prefix; twice sends it to " + m.name,
	}
	for _, sec := range m.keys.sections() {
		lines = append(lines, m.st.Muted.Render(sec.title))
		for _, l := range sec.lines {
			if k := l.keys(); ansi.StringWidth(k) >= col {
				lines = append(lines, "  "+m.st.Key.Render(k), key("")+l.text)
				continue
			}
			lines = append(lines, key(l.keys())+l.text)
		}
	}
	w := min(m.w-4, 84)
	h := min(m.h-2, len(lines)+2)
	return box("every key goes to "+m.name+", except", lines, w, h, m.st.BorderFocus, m.st.Title)
}

// overlay draws top centred over base (both w×h-ish blocks of lines).
//
// It splices lines rather than composing on lipgloss's Canvas/Compositor, measured with
// lipgloss v2.0.6 at 200×50 (the same cells either way): the help over a frame costs 0.3–0.6 ms
// here and 3–5 ms composed (1.4 MB and 2,100 allocations against 55 kB and 290), and the whole
// frame composed from one layer per pane 3.4 ms against 0.9 ms (BenchmarkFrame). The
// Compositor's hit testing would not simplify mouse: it needs the layers, so either a render
// in Update or View.OnMouse, whose Cmd would let mouse events overtake keys on their way to
// claude; the panes' rects from the layout answer it in four comparisons.
func overlay(base, top string, w, h int) string { return overlayIn(base, top, rect{0, 0, w, h}) }

// overlayIn draws top centred over the region r of base.
func overlayIn(base, top string, r rect) string {
	bl := strings.Split(base, "\n")
	tl := strings.Split(top, "\n")
	tw := 0
	for _, l := range tl {
		tw = max(tw, ansi.StringWidth(l))
	}
	x := r.x + max((r.w-tw)/2, 0)
	y := r.y + max((r.h-len(tl))/2, 0)
	for i, l := range tl {
		row := y + i
		if row >= len(bl) {
			break
		}
		left := ansi.Truncate(bl[row], x, "")
		left += strings.Repeat(" ", max(0, x-ansi.StringWidth(left)))
		right := ansi.TruncateLeft(bl[row], x+tw, "")
		bl[row] = left + l + right
	}
	return strings.Join(bl, "\n")
}
