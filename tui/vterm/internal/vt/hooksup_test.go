package vt

import (
	"fmt"
	"testing"
)

// The alternate screen keeps no history, whatever scrolls off it or is erased there; the main
// screen's history is untouched by it.
func TestAltScreenKeepsNoScrollback(t *testing.T) {
	e := NewEmulator(20, 5)
	for i := range 10 {
		fmt.Fprintf(e, "main %d\r\n", i)
	}
	mainLines := e.ScrollbackLen()
	if mainLines == 0 {
		t.Fatal("the main screen kept no history")
	}
	fmt.Fprint(e, "\x1b[?1049h")
	for i := range 100 {
		fmt.Fprintf(e, "alt %d\r\n", i) // scrolls off the top
	}
	fmt.Fprint(e, "\x1b[2J\x1b[H\x1b[5M\x1b[3S") // ED 2, DL, SU
	if !e.IsAltScreen() {
		t.Fatal("not on the alternate screen")
	}
	if sb := e.scrs[1].Scrollback(); sb != nil && sb.Len() > 0 {
		t.Fatalf("the alternate screen kept %d lines of history", sb.Len())
	}
	fmt.Fprint(e, "\x1b[?1049l")
	if got := e.ScrollbackLen(); got != mainLines {
		t.Fatalf("main screen history %d lines, want %d", got, mainLines)
	}
}

// Auto-wrap and line feed/new line mode, which the character and line feed paths read from
// booleans kept beside the mode map, follow the mode's changes, its reset and RIS.
func TestWrapAndNewLineModesFollowChanges(t *testing.T) {
	e := NewEmulator(5, 3)
	cursor := func(out string) (int, int) {
		t.Helper()
		fmt.Fprint(e, out)
		p := e.CursorPosition()
		return p.X, p.Y
	}
	if x, y := cursor("abcdefg"); x != 2 || y != 1 {
		t.Fatalf("auto-wrap on by default: cursor (%d,%d), want (2,1)", x, y)
	}
	if x, y := cursor("\x1b[H\x1b[?7labcdefg"); x != 4 || y != 0 {
		t.Fatalf("auto-wrap off: cursor (%d,%d), want (4,0)", x, y)
	}
	if x, y := cursor("\x1b[?7h\x1b[Habcdefg"); x != 2 || y != 1 {
		t.Fatalf("auto-wrap back on: cursor (%d,%d), want (2,1)", x, y)
	}
	if x, y := cursor("\x1b[H\x1b[20habc\n"); x != 0 || y != 1 {
		t.Fatalf("line feed/new line on: LF gave (%d,%d), want (0,1)", x, y)
	}
	if x, y := cursor("\x1b[20l\x1b[Habc\n"); x != 3 || y != 1 {
		t.Fatalf("line feed/new line off: LF gave (%d,%d), want (3,1)", x, y)
	}
	if x, y := cursor("\x1b[?7l\x1b[20h\x1bc\x1b[Habcdefg\n"); x != 2 || y != 2 {
		t.Fatalf("after RIS (auto-wrap on, LNM off): cursor (%d,%d), want (2,2)", x, y)
	}
}
