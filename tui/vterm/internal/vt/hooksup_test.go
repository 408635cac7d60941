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
