package agent

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindAgent(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("not a program"), 0o644)
	exe := filepath.Join(dir, "claude")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o644)
	if err := os.Chmod(exe, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(Claude{}, exe); err != nil || got != exe {
		t.Fatalf("Find(Claude{}, exe) = %q, %v", got, err)
	}
	for name, want := range map[string]string{
		filepath.Join(dir, "missing"): "does not exist",
		dir:                           "is a directory",
		plain:                         "is not executable",
		"no-such-claude-anywhere":     "is not on PATH",
	} {
		_, err := Find(Claude{}, name)
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), want) {
			t.Errorf("Find(Claude{}, %q) = %v, want %q", name, err, want)
		}
	}
}
