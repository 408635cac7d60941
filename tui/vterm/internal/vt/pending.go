package vt

import (
	"slices"

	uv "github.com/charmbracelet/ultraviolet"
)

// hooksup: printed text kept beside the cells until something needs the cells ("pending rows").
//
// Output that scrolls fast (a build log, a long diff) prints line after line of text at the
// bottom of the screen, and most of those lines scroll into the history before any frame shows
// them. Writing each character into its ~112-byte cell, and then reading the cells back to
// encode the line for the history, was most of the cost of such output. Instead, a blank row
// that gets printable ASCII, from any column, keeps that text, with its styles and links as runs
// (the history's own form), and its cells stay blank beneath: a row that scrolls off goes to the
// history as it is, and a row's cells are written (settle) only when something reads or changes
// that row any other way. The result is the same, cell for cell, touched line for
// touched line, as writing each character in place (Screen.putNarrow): fastpath_test.go compares
// them with upstream's code on random operations.
//
// Screen.rows holds what is known of each row of the screen (rotated with the rows when they
// scroll). Every Screen method that reads or writes cells in any other way settles the rows it
// reaches first (settle, settleAll); that is the whole contract, and it is why the only code
// that touches s.buf's cells is in screen.go, fastpath.go and here.

// rowState is what is known of a row's cells.
type rowState uint8

const (
	rowAny   rowState = iota // nothing: the cells are all there is
	rowBlank                 // every cell is uv.EmptyCell (once blanked, when dirty)
	rowText                  // every cell is uv.EmptyCell (once blanked), under the pending text
)

// pendRow is what is known of one row of the screen.
type pendRow struct {
	state rowState
	// text is one printable ASCII byte per cell, from column 0 (rowText). The blank cells
	// before text printed from the middle of the row are spaces with no style and no link:
	// the cells they settle into are uv.EmptyCell, as they were.
	text []byte
	runs []sbRun // rowText: the text's styles and links, as the scrollback keeps them
	// t0, t1 are the columns the text changed that TouchLine has not been told of yet (none
	// when equal): putNarrow would have touched them as it wrote them.
	t0, t1 int
	// blankPen: a space in the last run's style and link is uv.EmptyCell.
	blankPen bool
	// dirty: the row (rowBlank or rowText) was erased, but its cells not yet blanked: they
	// are, when it settles. A full-screen erase, then, costs nothing for the rows that are
	// erased again, or scroll off, before anything is written on them.
	dirty bool
}

// pendOK reports whether this screen keeps pending rows: not when it runs upstream's code.
func (s *Screen) pendOK() bool {
	return !s.upstream && len(s.rows) == len(s.buf.Lines)
}

// printPending is putNarrow for a one-byte content written where a pending row can take it: on
// a blank row, or right of a row's pending text. It reports whether it applied.
func (s *Screen) printPending(x, y int, content string) bool {
	if len(content) != 1 {
		return false
	}
	b := [1]byte{content[0]}
	return s.printPendingRun(x, y, b[:])
}

// printPendingRun is putNarrow for each byte of text, printable ASCII, at x, x+1, … on row y,
// when a pending row can take them all: text starts anywhere on a blank row, or anywhere right
// of a row's pending text (a line printed from where the one before ended, after a bare line
// feed), and ends by the right edge. It reports whether it applied.
func (s *Screen) printPendingRun(x, y int, text []byte) bool {
	if len(text) == 0 || !s.pendOK() || y < 0 || y >= len(s.rows) || x < 0 || x+len(text) > len(s.buf.Lines[y]) {
		return false
	}
	r := s.rows[y]
	switch r.state {
	case rowBlank:
		r.state, r.text, r.runs, r.t0, r.t1 = rowText, r.text[:0], r.runs[:0], 0, 0
		s.pending = true
	case rowText:
		if x < len(r.text) {
			return false
		}
	default:
		return false
	}
	if gap := x - len(r.text); gap > 0 {
		// The blank cells up to x stay as they are: blanks with no style and no link,
		// which putNarrow never wrote, so never touched.
		r.addRun(gap, &uv.Style{}, &uv.Link{})
		for gap > 0 {
			k := min(gap, len(blanks))
			r.text = append(r.text, blanks[:k]...)
			gap -= k
		}
	}
	r.addRun(len(text), &s.cur.Pen, &s.cur.Link)
	r.text = append(r.text, text...)
	// putNarrow touches a cell unless it writes what is there (uv.Cell.Equal): a blank.
	first, last := 0, len(text)-1
	if r.blankPen {
		for first <= last && text[first] == ' ' {
			first++
		}
		for last >= first && text[last] == ' ' {
			last--
		}
	}
	if first <= last && !s.allTouched { // every row's every column is touched already
		if r.t0 == r.t1 {
			r.t0 = x + first
		}
		r.t1 = x + last + 1
	}
	return true
}

// blanks are 64 spaces, to pad a pending row's text with up to where text is printed: appended
// at once, not one by one (a row of a stream whose lines wrap has ~100 of them).
const blanks = "                                                                "

// addRun adds n cells in style and link to the row's runs.
func (r *pendRow) addRun(n int, style *uv.Style, link *uv.Link) {
	if k := len(r.runs) - 1; k >= 0 && sameStyle(&r.runs[k].style, style) && r.runs[k].link == *link {
		r.runs[k].n += n
		return
	}
	r.runs = append(r.runs, sbRun{n: n, style: *style, link: *link})
	r.blankPen = uv.EmptyCell.Style.Equal(style) && uv.EmptyCell.Link.Equal(link)
}

// flushTouch tells TouchLine of the columns row y's pending text changed, as putNarrow would
// have when it wrote them. It must run before the row moves or its text goes.
func (s *Screen) flushTouch(y int) {
	r := s.rows[y]
	if r.t0 < r.t1 {
		s.buf.TouchLine(r.t0, y, r.t1-r.t0)
	}
	r.t0, r.t1 = 0, 0
}

// settle writes row y's pending text into its cells, and forgets what was known of the row:
// the caller is about to read or change its cells.
func (s *Screen) settle(y int) {
	if y < 0 || y >= len(s.rows) || !s.pendOK() {
		return
	}
	r := s.rows[y]
	if r.state != rowAny && r.dirty {
		blankRow(s.buf.Lines[y], nil)
		r.dirty = false
	}
	if r.state == rowText {
		l := s.buf.Lines[y]
		i := 0
		for _, run := range r.runs {
			for range run.n {
				p := &l[i]
				// A one-byte string of a slice is not allocated (Go keeps a table of them).
				p.Content, p.Style, p.Link = string(r.text[i:i+1]), run.style, run.link
				i++
			}
		}
		s.flushTouch(y)
	}
	r.state = rowAny
}

// settleRows settles rows [y0, y1): the caller may read or change their cells.
func (s *Screen) settleRows(y0, y1 int) {
	if !s.pending {
		return
	}
	for y := max(y0, 0); y < min(y1, len(s.rows)); y++ {
		s.settle(y)
	}
}

// settleAll settles every row: the caller may read or change any cell.
func (s *Screen) settleAll() {
	s.settleRows(0, len(s.rows))
	s.pending = false
}

// flushTouches tells TouchLine of every pending row's changed columns.
func (s *Screen) flushTouches() {
	if !s.pending || !s.pendOK() {
		return
	}
	for y := range s.rows {
		s.flushTouch(y)
	}
}

// dropTouches forgets the pending rows' changed columns: the touched lines were cleared.
func (s *Screen) dropTouches() {
	for _, r := range s.rows {
		r.t0, r.t1 = 0, 0
	}
}

// blankRows fills rows [y0, y1) with c (nil: the empty cell) from edge to edge. Their pending
// text, if any, goes (its touches told first). With the empty cell, the rows are only marked
// blank: their cells are blanked when they settle (dirty).
func (s *Screen) blankRows(y0, y1 int, c *uv.Cell) {
	y0, y1 = max(y0, 0), min(y1, len(s.buf.Lines))
	if !s.pendOK() {
		for y := y0; y < y1; y++ {
			blankRow(s.buf.Lines[y], c)
		}
		return
	}
	for y := y0; y < y1; y++ {
		r := s.rows[y]
		s.flushTouch(y)
		switch {
		case c != nil:
			blankRow(s.buf.Lines[y], c)
			r.state, r.dirty = rowAny, false
		case r.state == rowAny:
			r.state, r.dirty = rowBlank, true
			s.pending = true
		default: // blank beneath already, or to be blanked
			r.state = rowBlank
		}
	}
}

// resetRows sizes the pending rows to the screen, knowing nothing of them.
func (s *Screen) resetRows() {
	h := len(s.buf.Lines)
	for len(s.rows) < h {
		s.rows = append(s.rows, new(pendRow))
	}
	clear(s.rows[h:cap(s.rows)])
	s.rows = s.rows[:h]
	for _, r := range s.rows {
		r.state, r.t0, r.t1, r.dirty = rowAny, 0, 0, false
	}
	s.pending = false
}

// pushPending adds row r's pending text to the scrollback as Push would add its cells (the
// cells past the text being blank): without its trailing blanks.
func (sb *Scrollback) pushPending(r *pendRow) {
	if sb == nil || sb.maxLines <= 0 {
		return
	}
	if r.state != rowText {
		sb.add(sbLine{})
		return
	}
	n, ri, keep := len(r.text), len(r.runs)-1, 0 // keep: the cells of run ri kept
	if ri >= 0 {
		keep = r.runs[ri].n
	}
	for n > 0 && r.text[n-1] == ' ' && blankRun(&r.runs[ri]) {
		n--
		if keep--; keep == 0 {
			if ri--; ri < 0 {
				break
			}
			keep = r.runs[ri].n
		}
	}
	sl := sbLine{text: string(r.text[:n])}
	if n > 0 && (ri > 0 || !plainStyle(&r.runs[0].style) || r.runs[0].link != uv.Link{}) {
		sl.runs = slices.Clone(r.runs[:ri+1])
		sl.runs[ri].n = keep
	}
	sb.add(sl)
}

// blankRun reports whether a space in run's style and link is a blank cell, as Push trims them.
func blankRun(run *sbRun) bool {
	c := uv.Cell{Content: " ", Width: 1, Style: run.style, Link: run.link}
	return blankCell(&c)
}

// truncate drops the pending text from column n on (0 < n < len(r.text)): those cells are blank
// again. The touches stay: upstream touched the columns when it wrote them.
func (r *pendRow) truncate(n int) {
	r.text = r.text[:n]
	k := 0
	for i, run := range r.runs {
		if k+run.n >= n {
			r.runs[i].n = n - k
			r.runs = r.runs[:i+1]
			r.blankPen = uv.EmptyCell.Style.Equal(&run.style) && uv.EmptyCell.Link.Equal(&run.link)
			break
		}
		k += run.n
	}
}

// onlySpaces reports whether the pending text is all spaces (in any style): isLineEmpty's test.
func (r *pendRow) onlySpaces() bool {
	for _, b := range r.text {
		if b != ' ' {
			return false
		}
	}
	return true
}
