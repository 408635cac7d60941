package vterm

import (
	"slices"
	"sync"
	"testing"
)

// Gemini CLI tells its state in its window title (OSC 0, BEL-terminated, padded to 80 columns):
// each change reaches OnTitle in order, as Title shows it, a repeat does not, and nothing
// reaches the screen.
func TestTitleChangesReachOnTitle(t *testing.T) {
	var mu sync.Mutex
	var got []string
	term, _ := newTerm(t, 80, 5, Options{OnTitle: func(s string) {
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
	}})
	write(t, term, "\x1b]0;◇  Ready (proj)                  \x07hi"+
		"\x1b]0;◇  Ready (proj)                  \x07"+
		"\x1b]0;✋  Action Required (proj)\x07"+
		"\x1b]2;✦  Working… (proj)\x1b\\")
	mu.Lock()
	defer mu.Unlock()
	want := []string{"◇  Ready (proj)                  ", "✋  Action Required (proj)", "✦  Working… (proj)"}
	if !slices.Equal(got, want) {
		t.Fatalf("titles %q, want %q", got, want)
	}
	if term.Title() != want[2] {
		t.Fatalf("Title() = %q", term.Title())
	}
}
