// Package agenttest holds what the agents' own tests share.
package agenttest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/agent"
)

// PromptEmpty checks agent.PromptEmpty on a's captured screens (testdata/NAME: whether its prompt
// box shows empty), and that each empty one, with text typed after its prompt row (the last
// row holding prompt, its mark and placeholder), is not.
func PromptEmpty(t *testing.T, a agent.Agent, prompt string, screens map[string]bool) {
	t.Helper()
	for name, want := range screens {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		screen := string(b)
		if got := agent.PromptEmpty(a, strings.Split(screen, "\n")); got != want {
			t.Errorf("%s: PromptEmpty = %v, want %v", name, got, want)
		}
		if !want {
			continue
		}
		i := strings.LastIndex(screen, prompt)
		if i < 0 {
			t.Fatalf("%s: no prompt row %q", name, prompt)
		}
		typed := screen[:i] + prompt + " fix the build" + screen[i+len(prompt):]
		if agent.PromptEmpty(a, strings.Split(typed, "\n")) {
			t.Errorf("%s with text typed: PromptEmpty = true", name)
		}
	}
}
