package gemini

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/agent"
)

// The goal's next turn is typed only into an empty prompt box (its mark and its placeholder), read on the agent's
// captured screens; the same screen with text typed in its prompt is not empty.
func TestPromptEmpty(t *testing.T) {
	for name, want := range map[string]bool{
		"gemini-idle.txt":            true,
		"gemini-after-esc.txt":       true,
		"gemini-approval-dialog.txt": false,
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
