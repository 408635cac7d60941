package checks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hooksup/hooksup/config"
)

func TestProgram(t *testing.T) {
	for cmd, want := range map[string]string{
		"uv run pytest -q":              "uv",
		"CI=true npm test":              "npm",
		".venv/bin/python -m pytest -q": ".venv/bin/python",
		"cd web && npm test":            "",
		"$HOME/bin/x":                   "",
		"'my tool' --check":             "",
		"test -f x || make":             "",
		"  go   test ./...":             "go",
		"GOFLAGS=-race go test ./...":   "go",
	} {
		if got := Program(cmd); got != want {
			t.Errorf("Program(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestMissing(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub", ".venv", "bin"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", ".venv", "bin", "python"), []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("PATH", "/bin:/usr/bin")
	for _, tc := range []struct {
		c    config.Check
		want string
	}{
		{config.Check{Command: "sh -c true"}, ""},
		{config.Check{Command: "nosuchtool-xyz check ."}, "nosuchtool-xyz"},
		{config.Check{Command: ".venv/bin/python -m pytest", Cwd: "sub"}, ""},
		{config.Check{Command: ".venv/bin/python -m pytest"}, ".venv/bin/python"},
		{config.Check{Command: "cd sub && nosuchtool-xyz"}, ""},
	} {
		if got := Missing(tc.c, dir); got != tc.want {
			t.Errorf("Missing(%q in %q) = %q, want %q", tc.c.Command, tc.c.Cwd, got, tc.want)
		}
	}
}
