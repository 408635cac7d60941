// Package wire is how Claude Code speaks the hook protocol (hooks.Dialect): all the hook client
// links of it.
package wire

import "github.com/hooksup/hooksup/hooks"

// Dialect is Claude Code's: package hooks' input and answer are its own.
type Dialect struct{}

func (Dialect) Name() string { return "claude" }

// Input: claude's input is hooksup's.
func (Dialect) Input(*hooks.Input) {}

// Answer is hooks' codec: claude's.
func (Dialect) Answer(a hooks.Answer) ([]byte, int) { return a.Encode() }

// Ran: claude sets CLAUDECODE and CLAUDE_PROJECT_DIR for its hooks (and Gemini CLI sets the
// latter too, which is why a surer sign of another agent wins).
func (Dialect) Ran(getenv func(string) string) int {
	if getenv("CLAUDECODE") != "" || getenv("CLAUDE_PROJECT_DIR") != "" {
		return 1
	}
	return 0
}

// ProjectDir is CLAUDE_PROJECT_DIR, which claude sets for its hooks.
func (Dialect) ProjectDir(getenv func(string) string) string {
	return getenv("CLAUDE_PROJECT_DIR")
}
