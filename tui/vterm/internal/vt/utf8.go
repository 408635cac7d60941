package vt

import (
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// printableASCII reports whether r is a character that can never join the
// grapheme cluster beside it. No ASCII character is a combining mark, a ZWJ, a
// spacing mark or a regional indicator, and CR and LF are not printable, so a
// cluster boundary between two of these is certain without asking the
// segmenter.
func printableASCII(r rune) bool {
	return r >= ansi.SP && r < ansi.DEL
}

// handlePrint handles printable characters.
//
// A character is held back rather than printed straight away, because the one
// after it may be a combining mark that belongs to the same cluster. Printing
// "e" from "e\u0301" before the mark arrives puts the base in one cell and
// leaves the mark to become a zero-width cell of its own, which the next write
// or erase then destroys.
func (e *Emulator) handlePrint(r rune) {
	// No ASCII character can extend the cluster before it: none of them is
	// Extend, ZWJ, SpacingMark, Prepend, a regional indicator, or part of an
	// Indic conjunct. So an ASCII character arriving is proof that whatever is
	// buffered is finished, and the buffer can go out.
	//
	// This is also what keeps the buffer from being re-segmented as it grows.
	// Asking where the clusters are on every character costs the length of the
	// buffer each time, which is quadratic over a long run of combining marks
	// that never resolves into more than one cluster.
	if printableASCII(r) {
		// Two printable ASCII characters in a row is the common case by a wide
		// margin, and needs no segmenting at all.
		if len(e.grapheme) == 1 && printableASCII(rune(e.grapheme[0])) {
			// hooksup: string of a one-byte slice, not of the byte: Go converts a byte
			// to a string by allocating it, a one-byte slice from a static table.
			e.handleGrapheme(string(e.grapheme[:1]), 1)
			e.grapheme = utf8.AppendRune(e.grapheme[:0], r)
			return
		}
		e.flushGrapheme()
	}

	e.grapheme = utf8.AppendRune(e.grapheme, r)
}

// flushGrapheme flushes the current grapheme buffer, if any, and handles the
// grapheme as a single unit.
func (e *Emulator) flushGrapheme() {
	if len(e.grapheme) == 0 {
		return
	}

	// XXX: We always use [ansi.GraphemeWidth] here to report accurate widths
	// and it's up to the caller to decide how to handle Unicode vs non-Unicode
	// modes.
	method := ansi.GraphemeWidth
	graphemes := e.grapheme
	r, size := utf8.DecodeRune(graphemes) // hooksup: the first character, for glyphs.go
	for len(graphemes) > 0 {
		// hooksup: a simple character followed by another, or by nothing, is a cluster of
		// its own (glyphs.go).
		if !e.scr.upstream && r != utf8.RuneError && simpleRune(r) {
			next, nsize := utf8.RuneError, 0
			if size < len(graphemes) {
				next, nsize = utf8.DecodeRune(graphemes[size:])
			}
			if nsize == 0 || (next != utf8.RuneError && simpleRune(next)) {
				if g, ok := e.glyph(r, graphemes[:size]); ok {
					e.handleGrapheme(g.s, g.w)
					graphemes = graphemes[size:]
					r, size = next, nsize
					continue
				}
			}
		}
		cluster, width := ansi.FirstGraphemeCluster(graphemes, method)
		if len(cluster) == 0 {
			break
		}
		e.handleGrapheme(string(cluster), width)
		graphemes = graphemes[len(cluster):]
		r, size = utf8.DecodeRune(graphemes)
	}
	e.grapheme = e.grapheme[:0] // Reset the grapheme buffer.
}

// handleGrapheme handles UTF-8 graphemes.
func (e *Emulator) handleGrapheme(content string, width int) {
	awm := e.autoWrap // hooksup: was e.isModeSet(ansi.ModeAutoWrap)
	// hooksup: the cell is built only when it is not written in place (putNarrow,
	// below); nothing between here and there changes the pen or the link.
	cell := uv.Cell{
		Content: content,
		Width:   width,
	}

	x, y := e.scr.CursorPosition()
	if e.atPhantom && awm {
		// moves cursor down similar to [Terminal.linefeed] except it doesn't
		// respects [ansi.LNM] mode.
		// This will reset the phantom state i.e. pending wrap state.
		e.index()
		_, y = e.scr.CursorPosition()
		x = 0
	}

	// A single shift applies to the next character, whatever that character
	// turns out to be. Take it now, so it cannot leak onto the one after this
	// when this is a cluster no charset has a mapping for.
	single := e.gsingle
	e.gsingle = 0

	// Handle character set mappings
	if len(content) == 1 { //nolint:nestif
		var charset CharSet
		c := content[0]
		if single > 1 && single < 4 {
			charset = e.charsets[single]
		} else if c < 128 {
			charset = e.charsets[e.gl]
		} else {
			charset = e.charsets[e.gr]
		}

		if charset != nil {
			if r, ok := charset[c]; ok {
				cell.Content = r
				cell.Width = 1
			}
		}
	}

	if cell.Width == 1 && len(content) == 1 {
		e.lastChar, _ = utf8.DecodeRuneInString(content)
	}

	if cell.Width != 1 || !e.scr.putNarrow(x, y, cell.Content) { // hooksup: see putNarrow
		cell.Style, cell.Link = e.scr.cursorPen(), e.scr.cursorLink()
		e.scr.SetCell(x, y, &cell)
	}

	// Handle phantom state at the end of the line
	e.atPhantom = awm && x >= e.scr.Width()-1
	if !e.atPhantom {
		x += cell.Width
	}

	// NOTE: We don't reset the phantom state here, we handle it up above.
	e.scr.setCursor(x, y, false)
}

// printRunLast returns where the last character of the run of printable characters at p[i:]
// starts: printable ASCII, and whole, valid UTF-8 characters from U+0080 on (the parser hands
// each of those to handlePrint), and whether the characters before it are all ASCII. A
// character cut short by the end of p ends the run.
func printRunLast(p []byte, i int) (last int, ascii bool) {
	last, ascii = i, true
	lastASCII := true // whether p[last] is ASCII
	for j := i; j < len(p); {
		size, isASCII := 1, p[j] < utf8.RuneSelf
		if isASCII {
			if !printableASCII(rune(p[j])) {
				break
			}
		} else {
			var r rune
			if r, size = utf8.DecodeRune(p[j:]); r == utf8.RuneError {
				break
			}
		}
		if j > i && !lastASCII {
			ascii = false // the character at last joins those before the new last
		}
		last, lastASCII = j, isASCII
		j += size
	}
	return last, ascii
}

// printRun is handlePrint for each character of run, printable characters all (printRunLast).
func (e *Emulator) printRun(run []byte) {
	for len(run) > 0 {
		if run[0] < utf8.RuneSelf {
			j := 1
			for j < len(run) && run[j] < utf8.RuneSelf {
				j++
			}
			e.printASCII(run[:j])
			run = run[j:]
			continue
		}
		// handlePrint of a character from U+0080 on: it joins the cluster held back. (The
		// run is valid UTF-8: the first byte gives the size.)
		size := 2
		if run[0] >= 0xF0 {
			size = 4
		} else if run[0] >= 0xE0 {
			size = 3
		}
		e.grapheme = append(e.grapheme, run[:size]...)
		run = run[size:]
	}
}

// printASCII is handlePrint for each byte of run, printable ASCII, in turn.
//
// hooksup: the first byte sends out the cluster held back, and each byte after it prints the one
// before it and is held back in turn; so all but the last are printed in order, and the last is
// held. printBytes prints them a line's worth at a time where it can.
func (e *Emulator) printASCII(run []byte) {
	if len(run) == 0 {
		return
	}
	e.handlePrint(rune(run[0])) // e.grapheme is now run[0]
	if len(run) == 1 {
		return
	}
	e.printBytes(run[:len(run)-1])
	e.grapheme = append(e.grapheme[:0], run[len(run)-1])
}

// printBytes is handleGrapheme for each byte of text, printable ASCII, in turn, as a one-column
// cluster. Where a pending row can take the bytes that fit before the right edge (pending.go),
// they go at once, with one cursor move; anything else takes handleGrapheme.
func (e *Emulator) printBytes(text []byte) {
	for len(text) > 0 {
		x, y := e.scr.CursorPosition()
		n := min(len(text), e.scr.Width()-x)
		// A pending wrap, a character set or a single shift, or a cursor callback: one
		// character the usual way (a wrap happens once a line).
		if (e.atPhantom && e.autoWrap) || e.gsingle != 0 || e.charsets[e.gl] != nil || e.cb.CursorPosition != nil ||
			n <= 0 || !e.scr.printPendingRun(x, y, text[:n]) {
			// The cluster held back while it prints is itself, as in handlePrint (it shows
			// if handleGrapheme panics: the emulator must be left as upstream's would be).
			e.grapheme = append(e.grapheme[:0], text[0])
			e.handleGrapheme(string(text[:1]), 1)
			e.grapheme = e.grapheme[:0]
			text = text[1:]
			continue
		}
		// What handleGrapheme leaves after the last of them.
		last := x + n - 1
		e.lastChar = rune(text[n-1])
		e.atPhantom = e.autoWrap && last >= e.scr.Width()-1
		if !e.atPhantom {
			last++
		}
		e.scr.setCursor(last, y, false)
		text = text[n:]
	}
}
