package checks

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi/parser"

	"github.com/hooksup/hooksup/internal/termsafe"
)

// PlainText is what a check printed, as text for the agent and the verdict log: escape sequences
// (CSI, OSC, DCS, APC, …) removed, invalid UTF-8 replaced, CRLF a newline; every other control
// character shown as termsafe shows it (`\b`, `\r`, `\x00`, `<U+009B>`), never obeyed: a
// backspace erases nothing and a carriage return writes over nothing, so what the check printed
// is what the agent and the person read ("got 2 expected 1\b", not "got 2 expected ").
// Tabs and newlines stay.
func PlainText(b []byte) string {
	s := stripEscapes(strings.ToValidUTF8(string(b), "\uFFFD"))
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '\n':
			out = append(out, '\n')
		case r == '\r' && i < len(s) && s[i] == '\n':
			// CRLF: the newline ends the line
		case r == '\t':
			out = append(out, '\t')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			out = append(out, termsafe.String(string(r))...)
		default:
			out = utf8.AppendRune(out, r)
		}
	}
	return string(out)
}

// stripEscapes is x/ansi's Strip (v0.11.8) on x/ansi's own parser table: the text and control
// characters of s without its escape sequences. It is a copy so that the hook client, which
// links this package, does not initialise the rest of x/ansi (and the width tables under it) on
// every call; TestStripEscapesIsAnsiStrip holds the two together.
func stripEscapes(s string) string {
	var (
		buf    strings.Builder
		ri, rw int
		pstate = parser.GroundState
	)
	buf.Grow(len(s))
	for i := range len(s) {
		if pstate == parser.Utf8State {
			// Collect the rest of the rune's bytes, then back to the ground state.
			buf.WriteByte(s[i])
			ri++
			if ri < rw {
				continue
			}
			pstate = parser.GroundState
			ri, rw = 0, 0
			continue
		}
		state, action := parser.Table.Transition(pstate, s[i])
		switch action {
		case parser.CollectAction:
			if state == parser.Utf8State {
				rw = utf8ByteLen(s[i])
				buf.WriteByte(s[i])
				ri++
			}
		case parser.PrintAction, parser.ExecuteAction:
			buf.WriteByte(s[i])
		}
		pstate = state
	}
	return buf.String()
}

// utf8ByteLen is the length of the UTF-8 sequence lead byte b starts, or -1.
func utf8ByteLen(b byte) int {
	switch {
	case b <= 0x7f:
		return 1
	case b >= 0xc0 && b <= 0xdf:
		return 2
	case b >= 0xe0 && b <= 0xef:
		return 3
	case b >= 0xf0 && b <= 0xf7:
		return 4
	}
	return -1
}
