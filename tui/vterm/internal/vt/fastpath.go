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

// scrollRows rotates the rows y..bottom-1 of the buffer (or of Screen.rows) by n: up (the top n
// rows go to the bottom) when up is true, else down. It moves only the rows' slices.
func scrollRows[T any](lines []T, y, bottom, n int, up bool) {
	rows := lines[y:bottom]
	if n == 1 && len(rows) > 1 { // a line feed at the bottom, or a reverse index at the top
		if up {
			first := rows[0]
			copy(rows, rows[1:])
			rows[len(rows)-1] = first
		} else {
			last := rows[len(rows)-1]
			copy(rows[1:], rows)
			rows[0] = last
		}
		return
	}
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
	if !s.allTouched && !sameCell(p, c) && !p.Equal(c) { // allTouched: the touch would change nothing
		s.buf.TouchLine(x, y, 1)
	}
	*p = *c
	return true
}

// putNarrow is SetCell(x, y, c) for c a one-column cell of content in the cursor's pen and
// link, written in place over a one-column cell (setNarrowCell without building c). It reports
// whether it applied.
func (s *Screen) putNarrow(x, y int, content string) bool {
	if s.printPending(x, y, content) { // hooksup: see pending.go
		return true
	}
	s.settle(y)
	if s.upstream || y < 0 || y >= len(s.buf.Lines) || x < 0 || x >= len(s.buf.Lines[y]) {
		return false
	}
	p := &s.buf.Lines[y][x]
	if p.Width != 1 {
		return false
	}
	pen, link := &s.cur.Pen, &s.cur.Link
	// Touched unless equal as uv.Cell.Equal has it (colours by their RGBA values); the
	// comparison as values comes first, being quicker. With allTouched, the touch would
	// change nothing.
	if !s.allTouched && (p.Content != content || !sameStyle(&p.Style, pen) || p.Link != *link) {
		if p.Content != content || !p.Style.Equal(pen) || !p.Link.Equal(link) {
			s.buf.TouchLine(x, y, 1)
		}
	}
	p.Content, p.Style, p.Link = content, *pen, *link
	return true
}

// linesFast reports whether a delete or insert of n lines at row y of area can move whole rows:
// the area spans the screen's width and lies within its height, y is in it, and the blank
// written is one column wide.
func (s *Screen) linesFast(y, n int, c *uv.Cell, area uv.Rectangle) bool {
	h := s.buf.Height()
	return !s.upstream && s.fullWidth(area, true) && (c == nil || c.Width == 1) &&
		n > 0 && y >= 0 && y >= area.Min.Y && y < area.Max.Y && y < h && area.Max.Y <= h
}

// deleteLines is uv.RenderBuffer.DeleteLineArea (DL, and SU and line feeds at the bottom
// margin), fast when area spans the width.
func (s *Screen) deleteLines(y, n int, c *uv.Cell, area uv.Rectangle) {
	if !s.linesFast(y, n, c, area) {
		s.settleRows(area.Min.Y, area.Max.Y)
		s.buf.DeleteLineArea(y, n, c, area)
		return
	}
	k := min(n, area.Max.Y-y) // the touches below use n, as upstream's do
	s.moveRows(y, area.Max.Y, k, true)
	s.blankRows(area.Max.Y-k, area.Max.Y, c)
	s.touchRows(area.Min.Y, area.Max.Y, area.Min.X, area.Max.X-area.Min.X, n)
}

// insertLines is uv.RenderBuffer.InsertLineArea (IL, and SD and reverse index at the top
// margin), fast when area spans the width.
func (s *Screen) insertLines(y, n int, c *uv.Cell, area uv.Rectangle) {
	if !s.linesFast(y, n, c, area) {
		s.settleRows(area.Min.Y, area.Max.Y)
		s.buf.InsertLineArea(y, n, c, area)
		return
	}
	k := min(n, area.Max.Y-y) // the touches below use n, as upstream's do
	s.moveRows(y, area.Max.Y, k, false)
	s.blankRows(y, y+k, c)
	s.touchRows(area.Min.Y, area.Max.Y, area.Min.X, area.Max.X-area.Min.X, -n)
}

// fillArea is uv.RenderBuffer.FillArea (and ClearArea, with c nil): erasing the screen, lines,
// or the rest of the screen, fast for the rows it covers from edge to edge.
func (s *Screen) fillArea(c *uv.Cell, area uv.Rectangle) {
	b := s.buf
	if s.upstream || (c != nil && c.Width != 1) {
		b.FillArea(c, area)
		return
	}
	if !s.fullWidth(area, false) {
		if !s.fillRowEnds(c, area) {
			s.settleRows(area.Min.Y, area.Max.Y)
			b.FillArea(c, area)
		}
		return
	}
	s.blankRows(area.Min.Y, area.Max.Y, c)
	s.touchRows(area.Min.Y, area.Max.Y, area.Min.X, area.Max.X-area.Min.X, 0)
}

// moveRows rotates the rows y..bottom-1 by n, up or down (scrollRows), with what is known of
// them (pending.go): their pending touches are told first, at the rows they were made on.
func (s *Screen) moveRows(y, bottom, n int, up bool) {
	scrollRows(s.buf.Lines, y, bottom, n, up)
	if s.pendOK() {
		if s.pending && !s.allTouched { // with allTouched, no touch is pending
			for i := y; i < bottom; i++ {
				s.flushTouch(i)
			}
		}
		scrollRows(s.rows, y, bottom, n, up)
	}
}

// pushLines is Scrollback.PushN(s.buf, y, n): a row with pending text goes to the scrollback
// from that text, without its cells being written.
func (s *Screen) pushLines(y, n int) {
	sb := s.scrollback
	if sb == nil || n <= 0 {
		return
	}
	for i := range min(n, s.buf.Height()-y) {
		if s.pendOK() && s.rows[y+i].state != rowAny {
			// Blank beneath (or to be blanked): the pending text, if any, is the line.
			sb.pushPending(s.rows[y+i])
			continue
		}
		if line := s.buf.Line(y + i); line != nil {
			sb.Push(line)
		}
	}
}

// touchRows is touchLine(x, y, n) for each row y in [y0, y1), and touchLine(x, y+shift, n)
// after each when shift is not 0: the touches of a scroll or an erase. Once every row of the
// screen is touched across its width (allTouched: a scroll or erase of the whole screen does
// that), such touches change nothing and are skipped: a line feed at the bottom made ~100 calls.
func (s *Screen) touchRows(y0, y1, x, n, shift int) {
	w := s.buf.Width()
	if s.allTouched && x >= 0 && x+n <= w {
		return
	}
	for y := y0; y < y1; y++ {
		s.touchLine(x, y, n)
		if shift != 0 {
			s.touchLine(x, y+shift, n)
		}
	}
	if x <= 0 && x+n >= w && y0 <= 0 && y1 >= s.buf.Height() {
		s.allTouched = true
	}
}

// touchLine is RenderBuffer.TouchLine, quicker when the line's touched columns already cover
// x..x+n-1 (after the first scrolls, every row's do, and a scroll touches every row).
func (s *Screen) touchLine(x, y, n int) {
	if t := s.buf.Touched; y >= 0 && y < len(t) && y < len(s.buf.Lines) && t[y] != nil && t[y].FirstCell <= x && t[y].LastCell >= x+n {
		return
	}
	s.buf.TouchLine(x, y, n)
}

// fillRowEnds is fillArea for an area from a column to the right edge (an erase to the end of
// the line, EL 0 and ECH past the edge), when every row is touched already (allTouched): the
// cells from the column on become c, as upstream's SetCell on each leaves them when the column
// does not split a wide character, and its touches change nothing. A pending row (pending.go)
// keeps its text up to the column. It reports whether it applied.
func (s *Screen) fillRowEnds(c *uv.Cell, area uv.Rectangle) bool {
	w := s.buf.Width()
	x0 := area.Min.X
	if !s.allTouched || !s.pendOK() || x0 <= 0 || x0 >= w || area.Max.X < w {
		return false
	}
	y0, y1 := max(area.Min.Y, 0), min(area.Max.Y, s.buf.Height())
	for y := y0; y < y1; y++ { // all or nothing: first see that every row can take it
		if s.rows[y].state != rowAny && c == nil {
			continue
		}
		l := s.buf.Lines[y]
		if l[x0].Width == 0 {
			return false // in a wide character: upstream's Line.Set mends it, left of x0 too
		}
		for x := x0; x < w; x++ {
			if l[x].Width > 1 && x+l[x].Width > w {
				return false // a wide character cut by the edge: its touch would reach past it
			}
		}
	}
	for y := y0; y < y1; y++ {
		r := s.rows[y]
		if c == nil && r.state != rowAny {
			// Blank beneath (or to be blanked): only the pending text past x0 goes.
			if r.state == rowText && len(r.text) > x0 {
				r.truncate(x0)
			}
			continue
		}
		s.settle(y)
		blankRow(s.buf.Lines[y][x0:], c)
	}
	return true
}
