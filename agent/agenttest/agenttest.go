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

// NotReadUntilDrawn checks that each of a's captured dialogs (testdata/NAME) is read whole, and
// not while still being drawn: cut before the row holding last, its last option.
func NotReadUntilDrawn(t *testing.T, a agent.KeyPermissions, last string, names ...string) {
	t.Helper()
	for _, name := range names {
		rows := Screen(t, name)
		if _, ok := a.KeyDialog(rows); !ok {
			t.Fatalf("%s: not read whole", name)
		}
		for i, r := range rows {
			if strings.Contains(r, last) {
				rows = rows[:i]
				break
			}
		}
		if d, ok := a.KeyDialog(rows); ok {
			t.Errorf("%s without its last option read: %+v", name, d)
		}
	}
}

// Screen is the captured screen testdata/name, its rows top to bottom (its trailing newlines
// left out).
func Screen(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}
