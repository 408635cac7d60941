package supervisor

import (
	"errors"
	"os"
	"testing"
)

// The agent is the caller's to pick: without one, New says so and prepares nothing.
func TestNewNeedsAnAgent(t *testing.T) {
	run := t.TempDir()
	_, err := New(Options{Bin: "true", HooksupBin: "/bin/false", ProjectDir: t.TempDir(), StateDir: t.TempDir(), RuntimeDir: run})
	if !errors.Is(err, ErrNoAgent) {
		t.Fatalf("New without an agent: %v, want ErrNoAgent", err)
	}
	if entries, _ := os.ReadDir(run); len(entries) != 0 {
		t.Fatalf("New without an agent left %v in the runtime directory", entries)
	}
}
