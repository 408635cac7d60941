package tui

import "testing"

// The goal's next turn is typed only into an empty prompt box: claude's "❯" alone, in its box or
// not; never over what the person typed.
func TestPromptBoxEmpty(t *testing.T) {
	for screen, want := range map[string]bool{
		"some output\n╭────╮\n│ ❯  │\n╰────╯": true,
		"output\n❯ \n  ? for shortcuts":       true,
		"> ":                                  true,
		"output\n❯ fix the build":             false,
		"│ > half typed │":                    false,
		"no prompt here":                      false,
	} {
		if got := promptBoxEmpty(screen); got != want {
			t.Errorf("promptBoxEmpty(%q) = %v, want %v", screen, got, want)
		}
	}
}
