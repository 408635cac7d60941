package vt

import "github.com/charmbracelet/x/ansi"

// hooksup: clusters found without the segmenter. Claude Code draws its boxes, rules and
// spinners with characters such as ─ ╌ │ ● ✻ ⎿, and segmenting each of them (uax29, then the
// width tables) and allocating its string was a fifth of the cost of its output. None of the
// characters in simpleRune's ranges can join the character before or after it when that one is
// also in the ranges (or printable ASCII): none is an Extend, ZWJ, SpacingMark or Prepend
// character, a regional indicator or a Hangul jamo (TestSimpleRunesNeverJoin checks every one
// of them against the segmenter). Between two of them, then, a cluster boundary is certain, and
// such a character is a cluster of its own; its width and string are what FirstGraphemeCluster
// gave the last time, kept per emulator in a small table (Emulator.glyphs).

// simpleRune reports whether r is printable ASCII or in the ranges described above.
func simpleRune(r rune) bool {
	switch {
	case r >= 0x20 && r < 0x7f:
		return true
	case r >= 0xa0 && r <= 0xff:
		return r != 0xad // the soft hyphen is a format character
	case r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x205e, r >= 0x2070 && r <= 0x20c0:
		return true
	case r >= 0x2100 && r <= 0x27bf, r >= 0x2900 && r <= 0x2bff:
		return true
	}
	return false
}

// glyph is a simple cluster's string and width.
type glyph struct {
	s string
	w int
}

// glyphEntry is a glyph kept for rune r (0: none).
type glyphEntry struct {
	r rune
	g glyph
}

// glyph returns the cluster of the one character b, r, a simple one, from the emulator's
// glyphs or from FirstGraphemeCluster; ok is false when b is not one cluster (never, for a
// simple one).
func (e *Emulator) glyph(r rune, b []byte) (glyph, bool) {
	c := &e.glyphs[r&0xff]
	if c.r != r || r == 0 {
		cluster, width := ansi.FirstGraphemeCluster(b, ansi.GraphemeWidth)
		if len(cluster) != len(b) {
			return glyph{}, false
		}
		*c = glyphEntry{r, glyph{string(cluster), width}}
	}
	return c.g, true
}
