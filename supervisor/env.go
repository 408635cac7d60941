package supervisor

import (
	"os"
	"strings"

	"github.com/hooksup/hooksup/hooks"
)

// sessionVars are a session's own variables: the hooks' socket, token and log. An outer
// session's must reach neither a check nor a nested claude, whose hooks would call the outer
// hooksup.
var sessionVars = []string{hooks.EnvSocket, hooks.EnvToken, hooks.EnvLog}

// outerTerminalVars describe the terminal hooksup runs in (and tmux around it). Claude in a
// pane runs in hooksup's terminal emulator instead.
var outerTerminalVars = []string{"TMUX", "TMUX_PANE", "TERM", "TERM_PROGRAM*", "COLORTERM"}

// scrubEnv returns env without the variables named in drop; a name ending in * drops every
// variable whose name begins with the rest.
func scrubEnv(env []string, drop []string) []string {
	out := make([]string, 0, len(env))
next:
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		for _, d := range drop {
			if prefix, ok := strings.CutSuffix(d, "*"); ok {
				if strings.HasPrefix(name, prefix) {
					continue next
				}
			} else if name == d {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}

// PaneEnv is env (os.Environ() when nil) for an agent shown in a pane of hooksup's terminal
// emulator: nothing of the outer terminal, and the emulator's TERM and COLORTERM.
func PaneEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	return append(scrubEnv(env, outerTerminalVars), "TERM=xterm-256color", "COLORTERM=truecolor")
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
