package checks

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestPlainText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"sgr", "\x1b[1m\x1b[31mFAILED\x1b[0m TestX", "FAILED TestX"},
		{"osc title bel", "a\x1b]0;title\x07b", "ab"},
		{"osc hyperlink st", "see \x1b]8;;https://x\x1b\\the docs\x1b]8;;\x1b\\.", "see the docs."},
		{"dcs", "x\x1bPq#0;1\x1b\\y", "xy"},
		{"apc", "x\x1b_Gf=1;AAAA\x1b\\y", "xy"},
		{"private csi", "\x1b[?25lhidden\x1b[?25h", "hidden"},
		{"charset", "\x1b(Bok", "ok"},
		{"lone esc at end", "end\x1b", "end"},
		// Controls are shown as termsafe shows them, never obeyed.
		{"bell", "ding\x07!", `ding\a!`},
		{"c1 csi", "c1 \u009b control", "c1 <U+009B> control"},
		{"del and nul", "a\x7fb\x00c", `a\x7fb\x00c`},
		{"carriage return", "FAIL TestX\rok        \nnext", `FAIL TestX\rok        ` + "\nnext"},
		{"crlf", "one\r\ntwo\r\n", "one\ntwo\n"},
		{"backspace", "got 2 expected 1\b\n", `got 2 expected 1\b` + "\n"},
		{"backspace at line start", "a\n\bb", `a` + "\n" + `\bb`},
		{"tabs and unicode", "\t✓ ok — fine", "\t✓ ok — fine"},
		{"invalid utf8", "bad \xff byte", "bad \uFFFD byte"},
	} {
		if got := PlainText([]byte(tc.in)); got != tc.want {
			t.Errorf("%s: PlainText(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// The copy of x/ansi's Strip says what it says, on the cases above and on every input the fuzzer
// tries (go test -fuzz FuzzStripEscapesIsAnsiStrip ./supervisor/).
func FuzzStripEscapesIsAnsiStrip(f *testing.F) {
	for _, s := range []string{"\x1b[1m\x1b[31mFAILED\x1b[0m", "a\x1b]0;t\x07b", "x\x1bPq#0\x1b\\y", "x\x1b_G\x1b\\y", "\x1b(Bok", "end\x1b",
		"c1 \u009b x", "\x18\x1a\x1b[\x18m", "✓ \x1b[38;2;1;2;3m—\x1b[m", "\x1bX sos \x1b\\ \x1b^pm\x07", "\x1b[?1049h\x1b[2J\x1b[H"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := stripEscapes(s), ansi.Strip(s); got != want {
			t.Fatalf("stripEscapes(%q) = %q, ansi.Strip = %q", s, got, want)
		}
	})
}
