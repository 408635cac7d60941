// Package wire is how Codex speaks the hook protocol (hooks.Dialect): all the hook client links
// of it.
package wire

import "github.com/hooksup/hooksup/hooks"

// Dialect is Codex's: its hooks are modelled on Claude Code's, with the same input fields (plus
// turn_id, kept among the extra fields) and the same answers.
type Dialect struct{}

func (Dialect) Name() string { return "codex" }

// Input: Codex's input is hooksup's.
func (Dialect) Input(*hooks.Input) {}

// Answer is Claude Code's codec, which Codex reads the same way.
func (Dialect) Answer(a hooks.Answer) ([]byte, int) { return a.Encode() }

// Ran: Codex's hooks see CODEX_HOME or CODEX_SANDBOX.
func (Dialect) Ran(getenv func(string) string) int {
	if getenv("CODEX_HOME") != "" || getenv("CODEX_SANDBOX") != "" {
		return 1
	}
	return 0
}

// ProjectDir: Codex names the project in its input's cwd alone.
func (Dialect) ProjectDir(getenv func(string) string) string {
	return ""
}
