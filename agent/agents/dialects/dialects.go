// Package dialects is what the hook client needs of the list of agents (agents.All): each
// agent's hooks.Dialect, without the rest of its package, so that the hook client stays small.
// agents' test holds the two lists to the same agents.
package dialects

import (
	claude "github.com/hooksup/hooksup/agent/claude/wire"
	codex "github.com/hooksup/hooksup/agent/codex/wire"
	copilot "github.com/hooksup/hooksup/agent/copilot/wire"
	gemini "github.com/hooksup/hooksup/agent/gemini/wire"
	qwen "github.com/hooksup/hooksup/agent/qwen/wire"
	"github.com/hooksup/hooksup/hooks"
)

// All are the agents' dialects, in agents.All's order.
func All() []hooks.Dialect {
	return []hooks.Dialect{
		claude.Dialect{},
		codex.Dialect{},
		gemini.Dialect{},
		copilot.Dialect{},
		qwen.Dialect{},
	}
}

// ByName is the dialect of the agent named name.
func ByName(name string) (hooks.Dialect, bool) {
	for _, d := range All() {
		if d.Name() == name {
			return d, true
		}
	}
	return nil, false
}

// FromEnv is the dialect of the agent whose hook getenv is the environment of, the surest sign
// winning (Ran); false when none says so.
func FromEnv(getenv func(string) string) (hooks.Dialect, bool) {
	var best hooks.Dialect
	most := 0
	for _, d := range All() {
		if n := d.Ran(getenv); n > most {
			best, most = d, n
		}
	}
	return best, best != nil
}
