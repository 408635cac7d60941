package checks

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi/parser"
)

// PlainText is what a check printed, as text for claude and the verdict log: escape sequences
// (CSI, OSC, DCS, APC, …) and control characters removed, text a carriage return wrote over
// dropped, a backspace's character erased, invalid UTF-8 replaced. Tabs and newlines stay.
func PlainText(b []byte) string {
	s := stripEscapes(strings.ToValidUTF8(string(b), "\uFFFD"))
	out := make([]byte, 0, len(s))
	lineStart := 0 // where the current line starts in out
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '\n':
			out = append(out, '\n')
			lineStart = len(out)
		case r == '\r':
			if i < len(s) && s[i] == '\n' {
				continue // CRLF
			}
			out = out[:lineStart] // the line is written again from its start
		case r == '\b':
			if len(out) > lineStart {
				_, size := utf8.DecodeLastRune(out)
				out = out[:len(out)-size]
			}
		case r == '\t':
			out = append(out, '\t')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			// another C0 or C1 control: nothing to read
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
