package tui

import (
	"testing"

	"github.com/creack/pty"
)

// The pane's size reaches the agent's end of the pty; once the pty is closed, a late resize
// fails instead of acting on whatever descriptor took its number.
func TestSetPTYSize(t *testing.T) {
	f, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer tty.Close()
	if err := setPTYSize(f, 97, 31); err != nil {
		t.Fatal(err)
	}
	rows, cols, err := pty.Getsize(tty)
	if err != nil || cols != 97 || rows != 31 {
		t.Fatalf("the agent's end is %dx%d (%v), want 97x31", cols, rows, err)
	}
	f.Close()
	if err := setPTYSize(f, 80, 24); err == nil {
		t.Fatal("resizing a closed pty succeeded")
	}
}
