package vt

import (
	"image/color"

	uv "github.com/charmbracelet/ultraviolet"
)

// DefaultScrollbackSize is the default maximum number of lines in the scrollback buffer.
const DefaultScrollbackSize = 10000

// Scrollback represents a scrollback buffer that stores lines scrolled off the screen.
//
// hooksup: each line is kept compact (sbLine), not as cells: a cell is ~112 bytes, so upstream
// copied ~11 KB for every 100-column line that scrolled off (the most part of the cost of plain
// scrolling output) and kept ~22 KB per full 200-column line. Lines are decoded back to cells,
// equal to what upstream kept, when they are read.
type Scrollback struct {
	lines    []sbLine
	maxLines int
	scratch  []byte // the text of the line being pushed
	// arr is the array lines lies in, from its start: once full, lines slides along it, one
	// line at a time, and moves back to its start at its end (add).
	arr []sbLine
}

// sbLine is a line of the scrollback: the cells' contents, their sizes and widths when they are
// not all one byte and one column, and their styles and links as runs.
type sbLine struct {
	text  string
	cells []sbCell // nil when every cell is one byte of text, one column wide
	runs  []sbRun  // nil when every cell has no style and no link (one allocation less)
}

// sbCell is a cell's content length and width.
type sbCell struct{ size, width int32 }

// sbRun is n cells in a row with the same style and link.
type sbRun struct {
	n     int
	style uv.Style
	link  uv.Link
}

// blankCell is c.IsZero() || c.Equal(&uv.EmptyCell), quicker: a cell equals the empty cell
// only when it has no colour, no attribute and no link, that is when it is the empty cell.
func blankCell(c *uv.Cell) bool {
	switch c.Content {
	case "":
		if c.Width != 0 {
			return false
		}
	case " ":
		if c.Width != 1 {
			return false
		}
	default:
		return false
	}
	return plainStyle(&c.Style) && c.Link.URL == "" && c.Link.Params == ""
}

// plainStyle is s.IsZero() without comparing the colours as interfaces.
func plainStyle(s *uv.Style) bool {
	return s.Fg == nil && s.Bg == nil && s.UnderlineColor == nil && s.Underline == 0 && s.Attrs == 0
}

// sameStyle is *a == *b, quicker when colours are unset (no interface comparison).
func sameStyle(a, b *uv.Style) bool {
	return a.Attrs == b.Attrs && a.Underline == b.Underline &&
		sameColor(a.Fg, b.Fg) && sameColor(a.Bg, b.Bg) && sameColor(a.UnderlineColor, b.UnderlineColor)
}

func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a == b
}

// sameCell is *a == *b, quicker.
func sameCell(a, b *uv.Cell) bool {
	return a.Width == b.Width && a.Content == b.Content && sameStyle(&a.Style, &b.Style) && a.Link == b.Link
}

// encode makes l compact. scratch is reused for the text.
func encode(l uv.Line, scratch []byte) (sbLine, []byte) {
	var sl sbLine
	text := scratch[:0]
	for i := range l {
		c := &l[i]
		if sl.cells == nil && (len(c.Content) != 1 || c.Width != 1) {
			// The first cell that is not one byte, one column: from here on, every
			// cell's size and width is kept.
			sl.cells = make([]sbCell, i, len(l))
			for k := range sl.cells {
				sl.cells[k] = sbCell{1, 1}
			}
		}
		text = append(text, c.Content...)
		if sl.cells != nil {
			sl.cells = append(sl.cells, sbCell{int32(len(c.Content)), int32(c.Width)})
		}
		// Styles and links are compared as values, as uv.Cell.IsZero does.
		if k := len(sl.runs) - 1; k >= 0 && sameStyle(&sl.runs[k].style, &c.Style) && sl.runs[k].link == c.Link {
			sl.runs[k].n++
		} else {
			sl.runs = append(sl.runs, sbRun{n: 1, style: c.Style, link: c.Link})
		}
	}
	sl.text = string(text)
	return sl, text
}

// len is the number of cells in the line.
func (sl *sbLine) len() int {
	if sl.runs == nil {
		if sl.cells != nil {
			return len(sl.cells)
		}
		return len(sl.text)
	}
	n := 0
	for _, r := range sl.runs {
		n += r.n
	}
	return n
}

// appendTo appends the line's cells to dst.
func (sl *sbLine) appendTo(dst uv.Line) uv.Line {
	off, i := 0, 0
	runs := sl.runs
	if runs == nil {
		runs = []sbRun{{n: sl.len()}}
	}
	for _, r := range runs {
		for range r.n {
			size, width := 1, 1
			if sl.cells != nil {
				size, width = int(sl.cells[i].size), int(sl.cells[i].width)
			}
			dst = append(dst, uv.Cell{Content: sl.text[off : off+size], Width: width, Style: r.style, Link: r.link})
			off += size
			i++
		}
	}
	return dst
}

// NewScrollback creates a new scrollback buffer with the given maximum number of lines.
func NewScrollback(maxLines int) *Scrollback {
	if maxLines <= 0 {
		maxLines = DefaultScrollbackSize
	}
	arr := make([]sbLine, 0, min(maxLines, 1000)) // Pre-allocate reasonable capacity
	return &Scrollback{
		lines:    arr,
		maxLines: maxLines,
		arr:      arr,
	}
}

// Push adds a line to the scrollback buffer.
// If the buffer is full, the oldest line is removed.
func (s *Scrollback) Push(line uv.Line) {
	if s == nil || s.maxLines <= 0 {
		return
	}

	// Find last non-empty cell to trim trailing empty cells.
	// This helps with wrapping and window resizing.
	lastNonEmpty := -1
	for i := len(line) - 1; i >= 0; i-- {
		if !blankCell(&line[i]) { // hooksup: was !c.IsZero() && !c.Equal(&uv.EmptyCell)
			lastNonEmpty = i
			break
		}
	}

	// Keep the line content up to and including the last non-empty cell
	var sl sbLine
	sl, s.scratch = encode(line[:lastNonEmpty+1], s.scratch)
	s.add(sl)
}

// add appends a compact line, dropping the oldest when full.
func (s *Scrollback) add(sl sbLine) {
	if len(s.lines) >= s.maxLines {
		// hooksup: drop the oldest line by moving the start of the slice, not the other
		// lines (upstream's slices.Delete moved all of them on every line once full).
		s.lines[0] = sbLine{}
		s.lines = s.lines[1:]
	}
	if len(s.lines) == cap(s.lines) {
		s.makeRoom()
	}
	s.lines = append(s.lines, sl)
}

// makeRoom gives lines, at the end of its array, room for one more line. When the room left at
// the array's start by the lines dropped is at least half their number, it moves them back there:
// a full scrollback, in an array of twice the lines kept, so moves each line about once more and
// allocates nothing. Else it copies them into a new array twice their number (at most twice the
// lines kept).
func (s *Scrollback) makeRoom() {
	n := len(s.lines)
	if free := cap(s.arr) - cap(s.lines); free > 0 && free >= n/2 {
		copy(s.arr[:n], s.lines)
		clear(s.arr[n:cap(s.arr)]) // the lines' old places: so they can be collected
		s.lines = s.arr[:n]
		return
	}
	s.arr = make([]sbLine, n, max(min(2*n, 2*s.maxLines), n+1))
	copy(s.arr, s.lines)
	s.lines = s.arr
}

// PushN adds n lines from the buffer starting at line y to the scrollback.
func (s *Scrollback) PushN(buf *uv.RenderBuffer, y, n int) {
	if s == nil || buf == nil || n <= 0 {
		return
	}

	for i := range min(n, buf.Height()-y) {
		if line := buf.Line(y + i); line != nil {
			s.Push(line)
		}
	}
}

// Len returns the number of lines in the scrollback buffer.
func (s *Scrollback) Len() int {
	if s == nil {
		return 0
	}
	return len(s.lines)
}

// MaxLines returns the maximum number of lines the scrollback buffer can hold.
func (s *Scrollback) MaxLines() int {
	if s == nil {
		return 0
	}
	return s.maxLines
}

// SetMaxLines sets the maximum number of lines in the scrollback buffer.
// If the current number of lines exceeds the new maximum, oldest lines are removed.
func (s *Scrollback) SetMaxLines(maxLines int) {
	if s == nil || maxLines <= 0 {
		return
	}

	s.maxLines = maxLines
	if len(s.lines) > maxLines {
		// Remove oldest lines
		clear(s.lines[:len(s.lines)-maxLines]) // hooksup: so they can be collected
		s.lines = s.lines[len(s.lines)-maxLines:]
	}
}

// Line returns the line at the given index.
// Index 0 is the oldest line, Len()-1 is the most recent.
// Returns nil if index is out of bounds.
//
// hooksup: the line is a new copy, decoded from the compact one kept.
func (s *Scrollback) Line(index int) uv.Line {
	if s == nil || index < 0 || index >= len(s.lines) {
		return nil
	}
	sl := &s.lines[index]
	return sl.appendTo(make(uv.Line, 0, sl.len()))
}

// AppendLine appends the cells of the line at the given index to dst and
// returns the result, like Line without a new allocation when dst has room.
//
// hooksup: added, for drawing scrolled-back lines frame after frame.
func (s *Scrollback) AppendLine(dst uv.Line, index int) uv.Line {
	if s == nil || index < 0 || index >= len(s.lines) {
		return dst
	}
	return s.lines[index].appendTo(dst)
}

// Lines returns all lines in the scrollback buffer.
// Index 0 is the oldest line.
//
// hooksup: the lines are new copies, decoded from the compact ones kept.
func (s *Scrollback) Lines() []uv.Line {
	if s == nil {
		return nil
	}
	lines := make([]uv.Line, len(s.lines))
	for i := range s.lines {
		lines[i] = s.Line(i)
	}
	return lines
}

// PopNewest removes the n most recent lines (fewer if there are not as many) and returns them,
// the oldest first.
//
// hooksup: added, for a screen that grows to take back the lines it scrolled off.
func (s *Scrollback) PopNewest(n int) []uv.Line {
	if s == nil || n <= 0 {
		return nil
	}
	n = min(n, len(s.lines))
	start := len(s.lines) - n
	lines := make([]uv.Line, n)
	for i := range lines {
		lines[i] = s.Line(start + i)
	}
	clear(s.lines[start:]) // so they can be collected
	s.lines = s.lines[:start]
	return lines
}

// Clear removes all lines from the scrollback buffer.
func (s *Scrollback) Clear() {
	if s == nil {
		return
	}
	clear(s.lines) // hooksup: so they can be collected
	s.lines = s.lines[:0]
}

// CellAt returns the cell at the given position in the scrollback buffer.
// x is the column, y is the line index (0 = oldest).
// Returns nil if position is out of bounds.
func (s *Scrollback) CellAt(x, y int) *uv.Cell {
	line := s.Line(y)
	if line == nil || x < 0 || x >= len(line) {
		return nil
	}
	return &line[x]
}
