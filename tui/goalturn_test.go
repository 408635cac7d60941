package tui

import (
	"strings"
	"testing"
)

// The goal's next turn is typed only into an empty prompt box: claude's "❯" alone, in its box or
// not; never over what the person typed.
func TestPromptBoxEmpty(t *testing.T) {
	for screen, want := range map[string]bool{
		"some output\n╭────╮\n│ ❯  │\n╰────╯": true,
		"output\n❯ \n  ? for shortcuts":       true,
		"> ":                                  true,
		"output\n› ":                          true,
		"output\n❯ fix the build":             false,
		"│ > half typed │":                    false,
		"no prompt here":                      false,
	} {
		if got := promptMarkAlone(strings.Split(screen, "\n")); got != want {
			t.Errorf("promptMarkAlone(%q) = %v, want %v", screen, got, want)
		}
	}
}
