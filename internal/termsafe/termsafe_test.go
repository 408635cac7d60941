package termsafe

import (
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"go test ./...", "go test ./..."},
		{"", ""},
		{"touch PWNED # \x1b[2K\r\x1b[1A\x1b[2K\r  tests  go test ./...", `touch PWNED # \e[2K\r\e[1A\e[2K\r  tests  go test ./...`},
		{"a\nb\tc", `a\nb\tc`},
		{"bell\a bs\b ff\f vt\v nul\x00 del\x7f", `bell\a bs\b ff\f vt\v nul\x00 del\x7f`},
		{"csi\u009b31m", `csi<U+009B>31m`},
		{"evil\u202Etxt.exe", `evil<U+202E>txt.exe`},
		{"\u2066iso\u2069 \u200Fmark", `<U+2066>iso<U+2069> <U+200F>mark`},
		{"bad \xff byte", `bad \xff byte`},
		{"héllo 世界 \\e stays", "héllo 世界 \\e stays"},
	} {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := HasControl(tc.in); got != (tc.in != tc.want) {
			t.Errorf("HasControl(%q) = %v", tc.in, got)
		}
	}
}

func TestTextKeepsLines(t *testing.T) {
	in := "FAIL x_test.go:3\n\tgot \x1b]0;title\a\u202Ereversed\r\n"
	want := "FAIL x_test.go:3\n\tgot \\e]0;title\\a<U+202E>reversed\\r\n"
	if got := Text(in); got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

// FuzzString: nothing String returns holds a byte a terminal acts on.
func FuzzString(f *testing.F) {
	f.Add("\x1b[2K\r\u202e\u009b\xff")
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if HasControl(out) {
			t.Fatalf("String(%q) = %q still holds a control", s, out)
		}
		if lines := strings.NewReplacer("\n", "", "\t", "").Replace(Text(s)); HasControl(lines) {
			t.Fatalf("Text(%q) = %q still holds a control besides newlines and tabs", s, Text(s))
		}
	})
}
