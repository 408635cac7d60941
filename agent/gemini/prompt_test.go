package gemini

import (
	"testing"

	"github.com/hooksup/hooksup/agent/agenttest"
)

// The goal's next turn is typed only into an empty prompt box (its mark and its placeholder), read on the agent's
// captured screens; the same screen with text typed in its prompt is not empty.
func TestPromptEmpty(t *testing.T) {
	agenttest.PromptEmpty(t, Agent{}, ">   Type your message or @path/to/file", map[string]bool{
		"gemini-idle.txt":            true,
		"gemini-after-esc.txt":       true,
		"gemini-approval-dialog.txt": false,
	})
}
