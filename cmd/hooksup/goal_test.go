package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// The goal's flags are refused, naming the flag, before the agent starts: a limit without a
// goal, a goal without its text, a value out of range, a goal in observe mode.
func TestGoalFlagsRefused(t *testing.T) {
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
		{[]string{"--done", "true", "--max-turns", "3", "claude"}, 2, "--done and --max-turns bound a goal: give its text with --goal TEXT"},
		{[]string{"--goal", " ", "claude"}, 2, "--goal needs the goal's text"},
		{[]string{"--goal", "g", "--max-turns", "0", "claude"}, 1, "--max-turns: must be 1 or more"},
		{[]string{"--goal", "g", "--max-turns", "many", "claude"}, 2, `--max-turns "many": not a whole number`},
		{[]string{"--goal", "g", "--max-time", "soon", "claude"}, 2, `--max-time "soon": not a duration`},
		{[]string{"--goal", "g", "--max-tokens", "-5", "claude"}, 1, "--max-tokens: must be 0 (no limit) or more"},
		{[]string{"--goal", "g", "--mode", "observe", "claude"}, 2, "--goal needs a mode that can make the agent continue"},
		{[]string{"claude", "-p", "x", "--goal", "g"}, 2, "--goal is hooksup's flag, not claude's"},
	} {
		code, out := s.Hooksup(t, append([]string{"--claude-bin", fake}, c.args...)...)
		if code != c.code || !strings.Contains(out, c.say) {
			t.Errorf("hooksup %q: exit %d, want %d saying %q:\n%s", c.args, code, c.code, c.say, out)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the agent was started")
	}
}
