package agent

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeAgent is an Agent named "fake" for the helpers' tests.
type fakeAgent struct{ Agent }

func (fakeAgent) Name() string        { return "fake" }
func (fakeAgent) BinEnv() string      { return "HOOKSUP_FAKE_BIN" }
func (fakeAgent) InstallHint() string { return "install fake" }

func TestFindAgent(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("not a program"), 0o644)
	exe := filepath.Join(dir, "fake")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o644)
	if err := os.Chmod(exe, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(fakeAgent{}, exe); err != nil || got != exe {
		t.Fatalf("Find(fakeAgent{}, exe) = %q, %v", got, err)
	}
	for name, want := range map[string]string{
		filepath.Join(dir, "missing"): "does not exist",
		dir:                           "is a directory",
		plain:                         "is not executable",
		"no-such-fake-anywhere":       "is not on PATH",
	} {
		_, err := Find(fakeAgent{}, name)
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), want) {
			t.Errorf("Find(fakeAgent{}, %q) = %v, want %q", name, err, want)
		}
	}
}
