package qwen

import (
	"testing"

	"github.com/hooksup/hooksup/agent/agenttest"
)

// The goal's next turn is typed only into an empty prompt box (its mark and its placeholder),
// read on the agent's captured screens; the same screen with text typed in its prompt is not
// empty. A follow-up suggestion shown in the box (qwen-suggestion.txt: the mock's answer to
// qwen's request for one) reads as text typed there: plain text cannot tell them apart.
func TestPromptEmpty(t *testing.T) {
	agenttest.PromptEmpty(t, Agent{}, ">   Type your message or @path/to/file", map[string]bool{
		"qwen-suggestion.txt":                   false,
		"qwen-after-allow.txt":                  true,
		"qwen-after-esc.txt":                    true,
		"qwen-approval-dialog.txt":              false,
		"qwen-approval-dialog-default-mode.txt": false,
	})
}
