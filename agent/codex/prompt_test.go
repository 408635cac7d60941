package codex

import (
	"testing"

	"github.com/hooksup/hooksup/agent/agenttest"
)

// The goal's next turn is typed only into an empty prompt box (its mark and its placeholder), read on the agent's
// captured screens; the same screen with text typed in its prompt is not empty.
func TestPromptEmpty(t *testing.T) {
	agenttest.PromptEmpty(t, Agent{}, "› Ask Codex to do anything", map[string]bool{
		"codex-idle.txt":            true,
		"codex-after-esc.txt":       true,
		"codex-approval-dialog.txt": false,
	})
}
