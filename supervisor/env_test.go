package supervisor

import (
	"slices"
	"testing"
)

// Claude in a pane sees hooksup's emulator, not the outer terminal or tmux; everything else of
// the environment reaches it unchanged.
func TestPaneEnv(t *testing.T) {
	got := PaneEnv([]string{"HOME=/h", "TMUX=/tmp/tmux-1/default,1,0", "TMUX_PANE=%3", "TERM=screen-256color",
		"TERM_PROGRAM=tmux", "TERM_PROGRAM_VERSION=3.4", "COLORTERM=", "TERMINFO=/ti", "TMUXED=1", "PATH=/bin"})
	want := []string{"HOME=/h", "TERMINFO=/ti", "TMUXED=1", "PATH=/bin", "TERM=xterm-256color", "COLORTERM=truecolor"}
	if !slices.Equal(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
