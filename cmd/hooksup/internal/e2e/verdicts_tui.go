package e2e

import (
	"encoding/json"
	"testing"

	"github.com/hooksup/hooksup/internal/agentsim"
)

// SimTUI starts `hooksup ARGS… claude` in tmux with the simulated claude playing sc.
func SimTUI(t *testing.T, s *Sandbox, sc agentsim.Scenario, args ...string) *Tmux {
	t.Helper()
	self := SimAgentBin
	b, _ := json.Marshal(sc)
	env := append(append([]string{}, s.Env...), "TERM=xterm-256color", EnvSimAgent+"=1", agentsim.EnvScenario+"="+string(b))
	argv := append(append([]string{HooksupBin}, args...), "--claude-bin", self, "claude")
	return StartTmux(t, 150, 40, env, s.Project, argv...)
}

// HooksupOut runs hooksup in the sandbox and returns its stdout.
func HooksupOut(t *testing.T, s *Sandbox, args ...string) string {
	t.Helper()
	out, err := ExecHooksup(s, args...).Output()
	if err != nil {
		t.Fatalf("hooksup %v: %v", args, err)
	}
	return string(out)
}
