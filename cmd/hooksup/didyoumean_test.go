package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A misspelt command or flag is answered with the one most likely meant, the flag written as
// it was typed; hooksup's own flags given after an agent's name are said to go first, and the
// agent is not started with them.
func TestDidYouMean(t *testing.T) {
	s := newSandbox(t)
	marker := filepath.Join(s.project, "agent-ran")
	fake := filepath.Join(s.project, "fake-claude")
	os.WriteFile(fake, []byte("#!/bin/sh\ntouch "+marker+"\necho 2.1.330 '(Claude Code)'\n"), 0o755)
	for _, c := range []struct {
		args []string
		code int
		say  string
	}{
		{[]string{"demoo"}, 2, `unknown command "demoo": did you mean demo?`},
		{[]string{"xyzzy"}, 2, `unknown command "xyzzy" (see hooksup --help)`},
		{[]string{"--mdoe", "ask", "demo"}, 2, "unknown flag --mdoe: did you mean --mode?"},
		{[]string{"log", "--sesion", "x"}, 2, "unknown flag --sesion: did you mean --session?"},
		{[]string{"check", "-x"}, 2, "unknown flag -x"},
		{[]string{"--claude-bin", fake, "claude", "--mode", "observe"}, 2, "--mode is hooksup's flag, not claude's: hooksup's flags go before the agent's name, e.g. hooksup --mode claude"},
		{[]string{"--claude-bin", fake, "claude", "-p", "x", "--theme=dark"}, 2, "--theme is hooksup's flag, not claude's"},
	} {
		code, out := s.hooksup(t, c.args...)
		if code != c.code || !strings.Contains(out, c.say) {
			t.Errorf("hooksup %q: exit %d, want %d saying %q:\n%s", c.args, code, c.code, c.say, out)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the agent was started with hooksup's flags")
	}
}
