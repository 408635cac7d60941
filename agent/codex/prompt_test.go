package codex

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
		"codex-idle.txt":            true,
		"codex-after-esc.txt":       true,
		"codex-approval-dialog.txt": false,
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
		i := strings.LastIndex(screen, "› Ask Codex to do anything")
		if i < 0 {
			t.Fatalf("%s: no prompt mark", name)
		}
		typed := screen[:i] + "› Ask Codex to do anything fix the build" + screen[i+len("› Ask Codex to do anything"):]
		if agent.PromptEmpty(Agent{}, strings.Split(typed, "\n")) {
			t.Errorf("%s with text typed: PromptEmpty = true", name)
		}
	}
}
