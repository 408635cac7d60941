package vt

import (
	"slices"

	uv "github.com/charmbracelet/ultraviolet"
)

// hooksup: fast paths for the operations that cost most on a busy terminal. Upstream moves every
// cell of every row below the cursor on each scrolled line (a 200×50 screen copies 10,000 cells
// per line feed at the bottom), and fills a cleared row cell by cell through Line.Set, which
// looks for wide characters around each cell it writes. When an operation spans the whole width
// of the screen, the same result comes from moving the rows' slices and assigning the blank
// cell: that is what these do. Anything narrower (left and right margins) takes upstream's code.
// The results are the same cell for cell, the same touched lines and the same scrollback; the
// tests compare them with upstream's code (Screen.upstream) on random operations.

// fullWidth reports whether area covers every column of the screen (and no more, for the
// scrolls, where upstream's code would index past the row).
func (s *Screen) fullWidth(area uv.Rectangle, exact bool) bool {
	if exact {
		return area.Min.X == 0 && area.Max.X == s.buf.Width()
	}
	return area.Min.X <= 0 && area.Max.X >= s.buf.Width()
}

// blankRow sets every cell of l to c (a blank one cell wide), or to uv.EmptyCell when c is nil:
// what Line.Set leaves after writing c at every column from left to right.
func blankRow(l uv.Line, c *uv.Cell) {
	fill := uv.EmptyCell
	if c != nil {
		fill = *c
	}
	if len(l) == 0 {
		return
	}
	// Doubling copies: a few memmoves rather than a typed store per cell.
	l[0] = fill
	for n := 1; n < len(l); n *= 2 {
		copy(l[n:], l[:n])
	}
}

// scrollRows rotates the rows y..bottom-1 of the buffer by n: up (the top n rows go to the
// bottom) when up is true, else down. It moves only the rows' slices.
func scrollRows(lines []uv.Line, y, bottom, n int, up bool) {
	rows := lines[y:bottom]
	if !up {
		n = len(rows) - n
	}
	slices.Reverse(rows[:n])
	slices.Reverse(rows[n:])
	slices.Reverse(rows)
}

// setNarrowCell is uv.RenderBuffer.SetCell for the common case, a one-column cell over a
// one-column cell, where Line.Set has no wide character to mend around it. It reports whether
// it applied.
func (s *Screen) setNarrowCell(x, y int, c *uv.Cell) bool {
	if s.upstream || c == nil || c.Width != 1 || y < 0 || y >= len(s.buf.Lines) || x < 0 || x >= len(s.buf.Lines[y]) {
		return false
	}
	p := &s.buf.Lines[y][x]
	if p.Width != 1 {
		return false
	}
	if !sameCell(p, c) && !p.Equal(c) {
		s.buf.TouchLine(x, y, 1)
	}
	*p = *c
	return true
}

// putNarrow is SetCell(x, y, c) for c a one-column cell of content in the cursor's pen and
// link, written in place over a one-column cell (setNarrowCell without building c). It reports
// whether it applied.
func (s *Screen) putNarrow(x, y int, content string) bool {
	if s.upstream || y < 0 || y >= len(s.buf.Lines) || x < 0 || x >= len(s.buf.Lines[y]) {
		return false
	}
	p := &s.buf.Lines[y][x]
	if p.Width != 1 {
		return false
	}
	pen, link := &s.cur.Pen, &s.cur.Link
	// Touched unless equal as uv.Cell.Equal has it (colours by their RGBA values); the
	// comparison as values comes first, being quicker.
	if p.Content != content || !sameStyle(&p.Style, pen) || p.Link != *link {
		if p.Content != content || !p.Style.Equal(pen) || !p.Link.Equal(link) {
			s.buf.TouchLine(x, y, 1)
		}
	}
	p.Content, p.Style, p.Link = content, *pen, *link
	return true
}

// deleteLines is uv.RenderBuffer.DeleteLineArea (DL, and SU and line feeds at the bottom
// margin), fast when area spans the width.
func (s *Screen) deleteLines(y, n int, c *uv.Cell, area uv.Rectangle) {
	b := s.buf
	if s.upstream || !s.fullWidth(area, true) || (c != nil && c.Width != 1) ||
		n <= 0 || y < 0 || y < area.Min.Y || y >= area.Max.Y || y >= b.Height() || area.Max.Y > b.Height() {
		b.DeleteLineArea(y, n, c, area)
		return
	}
	k := min(n, area.Max.Y-y) // the touches below use n, as upstream's do
	scrollRows(b.Lines, y, area.Max.Y, k, true)
	for i := area.Max.Y - k; i < area.Max.Y; i++ {
		blankRow(b.Lines[i], c)
	}
	for i := area.Min.Y; i < area.Max.Y; i++ {
		b.TouchLine(area.Min.X, i, area.Max.X-area.Min.X)
		b.TouchLine(area.Min.X, i+n, area.Max.X-area.Min.X)
	}
}

// insertLines is uv.RenderBuffer.InsertLineArea (IL, and SD and reverse index at the top
// margin), fast when area spans the width.
func (s *Screen) insertLines(y, n int, c *uv.Cell, area uv.Rectangle) {
	b := s.buf
	if s.upstream || !s.fullWidth(area, true) || (c != nil && c.Width != 1) ||
		n <= 0 || y < 0 || y < area.Min.Y || y >= area.Max.Y || y >= b.Height() || area.Max.Y > b.Height() {
		b.InsertLineArea(y, n, c, area)
		return
	}
	k := min(n, area.Max.Y-y) // the touches below use n, as upstream's do
	scrollRows(b.Lines, y, area.Max.Y, k, false)
	for i := y; i < y+k; i++ {
		blankRow(b.Lines[i], c)
	}
	for i := area.Min.Y; i < area.Max.Y; i++ {
		b.TouchLine(area.Min.X, i, area.Max.X-area.Min.X)
		b.TouchLine(area.Min.X, i-n, area.Max.X-area.Min.X)
	}
}

// fillArea is uv.RenderBuffer.FillArea (and ClearArea, with c nil): erasing the screen, lines,
// or the rest of the screen, fast for the rows it covers from edge to edge.
func (s *Screen) fillArea(c *uv.Cell, area uv.Rectangle) {
	b := s.buf
	if s.upstream || !s.fullWidth(area, false) || (c != nil && c.Width != 1) {
		b.FillArea(c, area)
		return
	}
	for y := max(area.Min.Y, 0); y < min(area.Max.Y, b.Height()); y++ {
		blankRow(b.Lines[y], c)
	}
	w := area.Max.X - area.Min.X
	for y := area.Min.Y; y < area.Max.Y; y++ {
		b.TouchLine(area.Min.X, y, w)
	}
}
