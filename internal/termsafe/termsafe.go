// Package termsafe makes text from outside hooksup — a project's configuration, an agent's
// input, a check's output, a host's answer, a path — safe to print on a terminal: every
// character a terminal would act on instead of showing is shown as visible text, so what the
// person reads is what the string holds.
//
// Shown visibly: the C0 controls (ESC as \e, CR as \r, LF as \n, TAB as \t, and \a \b \f \v;
// the others as \x01…), DEL (\x7f), the C1 controls U+0080–U+009F (<U+009B>), the bidi
// controls that reorder what follows them (U+202A–U+202E, U+2066–U+2069, and the marks
// U+200E, U+200F, U+061C: <U+202E>), and bytes that are not UTF-8 (\xff). Everything else,
// backslashes included, is left as it is.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// String is s on one line, every control shown visibly (newlines and tabs too).
func String(s string) string {
	if clean(s, false) {
		return s
	}
	return escape(s, false)
}

// Text is s with its newlines and tabs kept, every other control shown visibly: for text of
// several lines, such as a check's output or a reason.
func Text(s string) string {
	if clean(s, true) {
		return s
	}
	return escape(s, true)
}

// HasControl reports whether s holds a character that String shows visibly: a control, a
// newline, a bidi control or a byte that is not UTF-8.
func HasControl(s string) bool { return !clean(s, false) }

// clean reports whether s needs no escaping; fast for plain ASCII.
func clean(s string, keepLines bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 || c == 0x7f) && !(keepLines && (c == '\n' || c == '\t')) {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || special(r) {
			return false
		}
		i += n
	}
	return true
}

// special reports the non-ASCII runes shown by their code point.
func special(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi embeddings, overrides, isolates
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c: // bidi marks
		return true
	}
	return false
}

func escape(s string, keepLines bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case keepLines && (c == '\n' || c == '\t'):
				b.WriteByte(c)
			case c == 0x1b:
				b.WriteString(`\e`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\a':
				b.WriteString(`\a`)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\f':
				b.WriteString(`\f`)
			case c == '\v':
				b.WriteString(`\v`)
			case c < 0x20 || c == 0x7f:
				fmt.Fprintf(&b, `\x%02x`, c)
			default:
				b.WriteByte(c)
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, c)
		case special(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
