package supervisor

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// plainText is what a check printed, as text for claude and the verdict log: escape sequences
// (CSI, OSC, DCS, APC, …) and control characters removed, text a carriage return wrote over
// dropped, a backspace's character erased, invalid UTF-8 replaced. Tabs and newlines stay.
func plainText(b []byte) string {
	s := ansi.Strip(strings.ToValidUTF8(string(b), "\uFFFD"))
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
