package supervisor

import (
	"os"
	"strings"

	"github.com/hooksup/hooksup/hooks"
)

// outerTerminalVars describe the terminal hooksup runs in (and tmux around it). Claude in a
// pane runs in hooksup's terminal emulator instead.
var outerTerminalVars = []string{"TMUX", "TMUX_PANE", "TERM", "TERM_PROGRAM*", "COLORTERM"}

// PaneEnv is env (os.Environ() when nil) for an agent shown in a pane of hooksup's terminal
// emulator: nothing of the outer terminal, and the emulator's TERM and COLORTERM.
func PaneEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	return append(hooks.ScrubEnv(env, outerTerminalVars), "TERM=xterm-256color", "COLORTERM=truecolor")
}

// agentEnv is the agent's environment before hooksup's variables.
func (s *Supervisor) agentEnv() []string {
	if s.o.Env == nil {
		return os.Environ()
	}
	return s.o.Env
}

// envValue reads k from an environment list (the last setting wins).
func envValue(env []string, k string) string {
	v := ""
	for _, kv := range env {
		if name, val, ok := strings.Cut(kv, "="); ok && name == k {
			v = val
		}
	}
	return v
}
