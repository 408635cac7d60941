package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The [goal] table gives goal mode's defaults: the done command, its timeout and the budgets.
func TestGoalDefaultsAndTable(t *testing.T) {
	d := Defaults().Goal
	if d.MaxTurns != 20 || d.NoProgress != 3 || d.MaxTime.D != 0 || d.MaxTokens != 0 || d.Done != "" || d.DoneTimeout.D != DefaultCheckTimeout {
		t.Fatalf("defaults %+v", d)
	}
	path := filepath.Join(t.TempDir(), "c.toml")
	write(t, path, "[goal]\ndone = \"make e2e\"\ndone_timeout = \"10m\"\nmax_turns = 5\nmax_time = \"2h\"\nmax_tokens = 3000000\nno_progress = 4\n")
	cfg, _, err := Load(LoadOptions{ExplicitFile: path})
	if err != nil {
		t.Fatal(err)
	}
	g := cfg.Goal
	if g.Done != "make e2e" || g.DoneTimeout.D != 10*time.Minute || g.MaxTurns != 5 || g.MaxTime.D != 2*time.Hour || g.MaxTokens != 3000000 || g.NoProgress != 4 {
		t.Fatalf("goal %+v", g)
	}
	// The done command runs inside the stop hook: its timeout lengthens the hook's.
	if without := Defaults(); cfg.StopHookTimeout() != without.StopHookTimeout()+10*time.Minute {
		t.Fatalf("stop hook timeout %v, without a done command %v", cfg.StopHookTimeout(), without.StopHookTimeout())
	}
}

// Each [goal] value out of range is refused with its key.
func TestGoalValidation(t *testing.T) {
	for content, want := range map[string]string{
		"[goal]\nmax_turns = 0\n":         "goal.max_turns: must be 1 or more",
		"[goal]\nmax_turns = -2\n":        "goal.max_turns: must be 1 or more",
		"[goal]\nmax_tokens = -1\n":       "goal.max_tokens: must be 0 (no limit) or more",
		"[goal]\nno_progress = 1\n":       "goal.no_progress: must be 0 (off) or 2 or more",
		"[goal]\nno_progress = -1\n":      "goal.no_progress: must be 0 (off) or 2 or more",
		"[goal]\nmax_time = \"soon\"\n":   "c.toml:2: goal.max_time:",
		"[goal]\ndone = \"  \"\n":         "goal.done: is empty: leave it out for the checks alone",
		"[goal]\nmax_turn = 3\n":          `c.toml:2: goal.max_turn: unknown key (did you mean "max_turns"?)`,
		"[goal]\ndone_timeout = \"0s\"\n": "goal.done_timeout: must be more than 0",
	} {
		path := filepath.Join(t.TempDir(), "c.toml")
		write(t, path, content)
		if _, _, err := Load(LoadOptions{ExplicitFile: path}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", content, err, want)
		}
	}
}
