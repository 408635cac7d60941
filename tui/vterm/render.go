package vterm

import (
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
)

// ScrollbackLen returns how many lines of history lie above the screen. It
// is 0 while the alternate screen is active: like tmux, the alternate screen
// has no history.
func (t *Terminal) ScrollbackLen() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.scrollbackLen()
}

// scrollbackLen is ScrollbackLen with t.mu held.
func (t *Terminal) scrollbackLen() int {
	if t.altScreen() {
		return 0
	}
	return t.emu.ScrollbackLen()
}

// Render returns the view as height lines joined by "\n", each exactly width
// cells wide and styled with ANSI sequences that never carry over to the next
// line, ready for lipgloss to compose. See RenderLines.
func (t *Terminal) Render(width, height, scrollOffset int) string {
	return strings.Join(t.RenderLines(width, height, scrollOffset), "\n")
}

// RenderLines returns the view as height styled lines, each exactly width
// cells wide (cropped or padded with blanks).
//
// With scrollOffset 0 the view is the screen, top-aligned. With
// scrollOffset k > 0 the view starts k lines up in the history: the last k
// lines of the scrollback, then the top of the screen (the cursor row is then
// at y+k). The offset is clamped to [0, ScrollbackLen()].
func (t *Terminal) RenderLines(width, height, scrollOffset int) []string {
	width, height = max(width, 0), max(height, 0)
	lines := make([]string, height)
	t.mu.Lock()
	defer t.mu.Unlock()
	blank := ""
	t.eachLine(width, height, scrollOffset, func(i int, l uv.Line) {
		if l == nil {
			if blank == "" {
				blank = strings.Repeat(" ", width)
			}
			lines[i] = blank
			return
		}
		lines[i] = l.Render()
	})
	return lines
}

// Text returns the screen as plain text: one line per row, trailing blanks
// removed, joined by "\n". It is meant for tests and debugging.
func (t *Terminal) Text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	t.eachLine(t.cols, t.rows, 0, func(i int, l uv.Line) {
		if i > 0 {
			b.WriteByte('\n')
		}
		if l != nil {
			b.WriteString(strings.TrimRight(l.String(), " "))
		}
	})
	return b.String()
}

// eachLine calls fn for the height lines of the view, each as a line of
// exactly width cells in which every wide character is whole, or nil for a
// blank line. The line passed is reused between calls. Called with t.mu held.
func (t *Terminal) eachLine(width, height, scrollOffset int, fn func(i int, l uv.Line)) {
	defer func() {
		// Reading cells should not panic, but a corrupt emulator must not
		// take the UI down: the rest of the view stays blank.
		_ = recover()
	}()
	sbLen := t.scrollbackLen()
	scrollOffset = min(max(scrollOffset, 0), sbLen)
	sb := t.emu.Scrollback()
	top := sbLen - scrollOffset
	if cap(t.scratch) < width {
		t.scratch = make(uv.Line, width)
	}
	line := t.scratch[:width]
	ew, eh := t.emu.Width(), t.emu.Height()
	for i := range height {
		idx := top + i
		n := 0
		switch {
		case idx < sbLen:
			t.sbLine = sb.AppendLine(t.sbLine[:0], idx)
			n = copy(line, t.sbLine)
		case idx-sbLen < eh:
			y := idx - sbLen
			n = min(width, ew)
			for x := range n {
				if c := t.emu.CellAt(x, y); c != nil {
					line[x] = *c
				} else {
					line[x] = uv.EmptyCell
				}
			}
		default:
			fn(i, nil)
			continue
		}
		for x := n; x < width; x++ {
			line[x] = uv.EmptyCell
		}
		fixWidths(line)
		fn(i, line)
	}
}

// fixWidths makes line render to exactly len(line) cells: a wide character
// must be followed by its placeholder cells, a placeholder must belong to a
// wide character, and a zero-width character (a combining mark that arrived
// alone) cannot occupy a cell of its own. Offenders become blanks.
func fixWidths(line uv.Line) {
	covered := 0
	for x := range line {
		c := &line[x]
		switch {
		case c.IsZero(): // placeholder
			if covered > 0 {
				covered--
				continue
			}
			*c = uv.EmptyCell
		case c.Width <= 0:
			*c = uv.EmptyCell
			covered = 0
		case c.Width == 1:
			covered = 0
		default:
			ok := x+c.Width <= len(line)
			for k := 1; ok && k < c.Width; k++ {
				ok = line[x+k].IsZero()
			}
			if !ok {
				style, link := c.Style, c.Link
				*c = uv.EmptyCell
				c.Style, c.Link = style, link
				covered = 0
				continue
			}
			covered = c.Width - 1
		}
	}
}
