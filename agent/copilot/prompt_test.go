package copilot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/agent"
)

// The goal's next turn is typed only into an empty prompt box (its mark alone between two
// rules), read on the agent's captured screens; the same screen with text typed in its prompt,
// on one row or on several with an empty one between, is not empty.
func TestPromptEmpty(t *testing.T) {
	for name, want := range map[string]bool{
		"copilot-after-esc.txt":    true,
		"copilot-idle.txt":         true,
		"copilot-run-dialog.txt":   false,
		"copilot-trust-dialog.txt": false,
	} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		rows := strings.Split(string(b), "\n")
		if got := agent.PromptEmpty(Agent{}, rows); got != want {
			t.Errorf("%s: PromptEmpty = %v, want %v", name, got, want)
		}
		if !want {
			continue
		}
		i := len(rows) - 1
		for i >= 0 && strings.TrimSpace(rows[i]) != "┃" && strings.TrimSpace(rows[i]) != "❯" {
			i--
		}
		if i < 0 {
			t.Fatalf("%s: no prompt row", name)
		}
		mark := strings.TrimSpace(rows[i])
		typed := append(append(append([]string{}, rows[:i]...), mark+" fix the build"), rows[i+1:]...)
		if agent.PromptEmpty(Agent{}, typed) {
			t.Errorf("%s with text typed: PromptEmpty = true", name)
		}
		lines := append(append(append([]string{}, rows[:i]...), mark+" fix the build", mark, mark+" and the tests"), rows[i+1:]...)
		if agent.PromptEmpty(Agent{}, lines) {
			t.Errorf("%s with text typed on three rows: PromptEmpty = true", name)
		}
	}
}
