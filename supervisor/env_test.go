package supervisor

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
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

// A check gets hooksup's environment but none of a session's variables (an outer session's
// socket, token or log), plus its own.
func TestCheckEnv(t *testing.T) {
	t.Setenv(hooks.EnvSocket, "/outer.sock")
	t.Setenv(hooks.EnvToken, "outer-secret")
	t.Setenv(hooks.EnvLog, "/outer.log")
	t.Setenv("KEEP_ME", "1")
	res := runCheck(context.Background(), nil, config.Check{Name: "env", Command: "env", Env: map[string]string{"MINE": "2"}}, t.TempDir(), nil, nil)
	out := string(res.Output)
	for _, v := range []string{"KEEP_ME=1", "MINE=2", "HOOKSUP_CHECK=env"} {
		if !strings.Contains(out, v+"\n") {
			t.Errorf("the check lacks %s:\n%s", v, out)
		}
	}
	for _, v := range []string{hooks.EnvSocket, hooks.EnvToken, hooks.EnvLog, "outer-secret"} {
		if strings.Contains(out, v) {
			t.Errorf("the check got %s:\n%s", v, out)
		}
	}
}
