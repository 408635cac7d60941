package qwen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/agent"
)

// The goal's next turn is typed only into an empty prompt box (its mark and its placeholder),
// read on the agent's captured screens; the same screen with text typed in its prompt is not
// empty. A follow-up suggestion shown in the box (qwen-suggestion.txt: the mock's answer to
// qwen's request for one) reads as text typed there: plain text cannot tell them apart.
func TestPromptEmpty(t *testing.T) {
	for name, want := range map[string]bool{
		"qwen-suggestion.txt":                   false,
		"qwen-after-allow.txt":                  true,
		"qwen-after-esc.txt":                    true,
		"qwen-approval-dialog.txt":              false,
		"qwen-approval-dialog-default-mode.txt": false,
	} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		screen := string(b)
		if got := agent.PromptEmpty(Agent{}, strings.Split(screen, "\n")); got != want {
			t.Errorf("%s: PromptEmpty = %v, want %v", name, got, want)
		}
		if !want {
			continue
		}
		// The prompt box is the last row with its mark.
		i := strings.LastIndex(screen, ">   Type your message or @path/to/file")
		if i < 0 {
			t.Fatalf("%s: no prompt mark", name)
		}
		typed := screen[:i] + ">   Type your message or @path/to/file fix the build" + screen[i+len(">   Type your message or @path/to/file"):]
		if agent.PromptEmpty(Agent{}, strings.Split(typed, "\n")) {
			t.Errorf("%s with text typed: PromptEmpty = true", name)
		}
	}
}
