package vterm

import (
	"flag"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

var strictFuzz = flag.Bool("vterm.strict", false,
	"make FuzzWrite fail when the emulator panics, even though the panic was recovered")

// hostileSeeds are sequences known to hurt x/vt on its own.
var hostileSeeds = []string{
	"\x1b[1;999r\x1bM\x1b[5L\x1b[3M",
	"\x1b[?69h\x1b[5;999s\x1b[10;90H\x1b[@\x1b[P\x1b[5L",
	"a\x1b[9999999b",
	"\x1b[20;70H\x1b[?1049h\x1b[20;70H\x1b[?1049lX",
	"\x1b]0;\u2733 Claude Code\x07\x1b]8;;http://\u2733\x1b\\x\x1b]8;;\x1b\\",
	"\x1bP+q544e\x1b\\\x1b_Gi=1;AAAA\x1b\\\x1b[?u\x1b[>5u\x1b[c\x1b[5n\x1b[6n\x1b[18t",
	"e\u0301\u0301\u0301\xe2\x9c\x1b[31m\x9b1m\xff",
	"\x1b]7501;?\x07\x1b]7501;state=blocked:kind=permission:id=a/b:progress=7:msg=YQ==:title=\xe2\x9c\xb3\x07\x1b]7501;state=clear\x1b\\",
}

// FuzzWrite feeds arbitrary output, in chunks and with resizes between them,
// and checks that no panic escapes and that every rendered line keeps its
// exact width.
func FuzzWrite(f *testing.F) {
	for _, name := range samples {
		f.Add(append([]byte{7}, readSample(f, name)...))
	}
	for _, s := range hostileSeeds {
		f.Add(append([]byte{3}, s...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		term, _ := loopTerm(40, 12, Options{OnProgramStatus: func(s ProgramStatus) {
			if s.State == "" || s.Progress < -1 || s.Progress > 100 || len(s.Msg) > psMaxMsg || len(s.Title) > psMaxTitle {
				t.Fatalf("a report the protocol discards was passed on: %+v", s)
			}
		}})
		defer term.Close()
		chunk := 1 + int(data[0])%97
		p := data[1:]
		for i := 1; len(p) > 0; i++ {
			n := min(chunk, len(p))
			if _, err := term.Write(p[:n]); err != nil {
				t.Fatalf("Write: %v", err)
			}
			if i%16 == 0 && n >= 2 {
				term.Resize(1+int(p[0])%120, 1+int(p[1])%40)
			}
			p = p[n:]
		}
		cols, rows := term.Size()
		for off := range 3 {
			lines := term.RenderLines(cols, rows, off)
			if len(lines) != rows {
				t.Fatalf("RenderLines gave %d lines, want %d", len(lines), rows)
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != cols {
					t.Fatalf("line %d is %d cells wide, want %d: %q", i, w, cols, l)
				}
			}
		}
		_ = term.Text()
		_ = term.Modes()
		x, y, _ := term.Cursor()
		if x < 0 || y < 0 || x >= cols || y >= rows {
			t.Fatalf("cursor (%d,%d) outside %dx%d", x, y, cols, rows)
		}
		if *strictFuzz && term.Stats().Resets > 0 {
			t.Fatalf("the emulator panicked (recovered %d times)", term.Stats().Resets)
		}
	})
}
