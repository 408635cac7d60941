package hooks

// HookCommand is one command hook as Claude Code's settings spell it (and Codex's hooks.json).
type HookCommand struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout,omitempty"` // seconds
}

// MatcherGroup is one entry of settings.hooks.<Event>.
type MatcherGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []HookCommand `json:"hooks"`
}

// Command returns the short command line a hook runs: the binary (quoted by ShellQuote only
// when it must be) and `hook EVENT`. Claude shows the whole line to the model when a hook exits 2, so it
// stays short.
func Command(bin, event string) string {
	return ShellQuote(bin) + " hook " + event
}

// ClientCommand is the command line of the dedicated hook client (cmd/hooksup-hook) for event.
func ClientCommand(bin, event string) string { return ShellQuote(bin) + " " + event }
