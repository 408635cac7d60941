package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// A misspelt command or flag is answered with the one most likely meant, the flag written as
// it was typed; hooksup's own flags given after an agent's name are said to go first, and the
// agent is not started with them.
func TestDidYouMean(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	marker := filepath.Join(s.Project, "agent-ran")
	fake := filepath.Join(s.Project, "fake-claude")
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
		code, out := s.Hooksup(t, c.args...)
		if code != c.code || !strings.Contains(out, c.say) {
			t.Errorf("hooksup %q: exit %d, want %d saying %q:\n%s", c.args, code, c.code, c.say, out)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the agent was started with hooksup's flags")
	}
}

// hooksup help CMD is CMD's help, as hooksup CMD --help; every help fits 80 columns.
func TestHelpForACommandFitsEightyColumns(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	code, global := s.Hooksup(t, "--help")
	if code != 0 {
		t.Fatalf("--help: %d", code)
	}
	helps := map[string]string{"--help": global}
	for _, c := range program().Visible() {
		if c.Passthrough || c.Name == "watch" {
			// an agent's --help is the agent's own; watch's lists its keys.
			code, out := s.Hooksup(t, "help", c.Name)
			if code != 0 || !strings.HasPrefix(out, "usage: hooksup") {
				t.Errorf("help %s: %d %s", c.Name, code, out)
			}
			helps["help "+c.Name] = out
			continue
		}
		_, viaFlag := s.Hooksup(t, c.Name, "--help")
		code, viaHelp := s.Hooksup(t, "help", c.Name)
		if code != 0 || viaHelp != viaFlag || !strings.HasPrefix(viaHelp, "usage: hooksup") {
			t.Errorf("hooksup help %s (exit %d) is not hooksup %s --help:\n%s\n---\n%s", c.Name, code, c.Name, viaHelp, viaFlag)
		}
		helps["help "+c.Name] = viaHelp
	}
	for what, text := range helps {
		for _, l := range strings.Split(text, "\n") {
			if n := len([]rune(l)); n > 80 {
				t.Errorf("%s: a line of %d columns: %q", what, n, l)
			}
		}
	}
	if code, out := s.Hooksup(t, "help", "chekc"); code != 2 || !strings.Contains(out, "did you mean check?") {
		t.Errorf("help chekc: %d %s", code, out)
	}
}

// hooksup doctor never prints a heading with nothing under it: with no configuration file it
// says so, and where one would be looked for.
func TestDoctorSaysWhenThereIsNoConfiguration(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	_, out := s.Hooksup(t, "doctor")
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if l != "" && !strings.HasPrefix(l, " ") && i+1 < len(lines) && lines[i+1] != "" && !strings.HasPrefix(lines[i+1], " ") &&
			!strings.Contains(l, ":") {
			t.Errorf("doctor's heading %q has nothing under it:\n%s", l, out)
		}
	}
	if !strings.Contains(out, "no configuration file: the defaults, and no checks") {
		t.Errorf("doctor does not say there is no configuration:\n%s", out)
	}
}
