package hooks

// Dialect is how one agent speaks the hook protocol: all the hook client needs of it, kept
// apart from the rest of what hooksup knows of the agent (agent.Agent, which has it too) so
// that the hook client stays small. Each agent's is in its package's wire subpackage.
type Dialect interface {
	// Name is the agent's command: "claude".
	Name() string
	// Input adapts a hook's input to hooksup's names, in place.
	Input(in *Input)
	// Answer encodes a verdict as the agent reads a hook's answer: stdout and exit code.
	Answer(a Answer) ([]byte, int)
	// Ran says how surely getenv, a hook's environment, is that of this agent's hooks (0: it
	// is not), for an installed hook whose command names no agent (installed by an earlier
	// hooksup).
	Ran(getenv func(string) string) int
	// ProjectDir is the project a hook's environment names, for an input without a cwd ("" when
	// none).
	ProjectDir(getenv func(string) string) string
}

// HookArgs reads a hook command's arguments after the program (and `hook`): [--agent NAME]
// EVENT [--installed]. The agent is "" when they name none (a hook installed by an earlier
// hooksup, or one injected for a session); ok is false when no event is left.
func HookArgs(args []string) (agent, event string, installed, ok bool) {
	if len(args) >= 2 && args[0] == AgentFlag {
		agent, args = args[1], args[2:]
	}
	if len(args) == 0 {
		return agent, "", false, false
	}
	return agent, args[0], len(args) > 1 && args[1] == InstalledFlag, true
}
