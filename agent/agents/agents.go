// Package agents is the one list of the coding agents hooksup supervises. Commands, flags,
// completions, help, install, uninstall and doctor are drawn from it: an agent is added by
// its package under agent/ and one line here.
package agents

import (
	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/agent/codex"
	"github.com/hooksup/hooksup/agent/copilot"
	"github.com/hooksup/hooksup/agent/gemini"
	"github.com/hooksup/hooksup/agent/qwen"
)

// All are the agents hooksup supervises, in the order help lists them; the first is the
// default (install's --agent, a session without one).
func All() []agent.Agent {
	return []agent.Agent{
		claude.Agent{},
		codex.Agent{},
		gemini.Agent{},
		copilot.Agent{},
		qwen.Agent{},
	}
}

// ByName is the agent whose Name is name.
func ByName(name string) (agent.Agent, bool) {
	for _, a := range All() {
		if a.Name() == name {
			return a, true
		}
	}
	return nil, false
}

// Leftovers are the suffixes of what the agents' injections write in the runtime directory
// beside a session's socket (agent.Leftovers).
func Leftovers() []string {
	var out []string
	for _, a := range All() {
		if l, ok := a.(agent.Leftovers); ok {
			out = append(out, l.Leftovers()...)
		}
	}
	return out
}

// Default is the agent of a session or an install that names none.
func Default() agent.Agent { return All()[0] }
