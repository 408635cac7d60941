package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Binaries builds hooksup and the hook client beside it (as go install ./cmd/... puts them)
// into a fresh temporary directory, from the packages at hooksupPkg and hookPkg (paths as go
// build takes them), the way the tests themselves are built: with the race detector when they
// run under it, so a race in the binaries the tests drive fails those tests too. A race-built
// program sleeps a second before it exits (for late reports): Binaries sets GORACE so that every
// hook call does not take a second longer than it does for a user. remove deletes the directory.
func Binaries(hooksupPkg, hookPkg string) (hooksup, hook string, remove func(), err error) {
	dir, err := os.MkdirTemp("", "hooksup-bin")
	if err != nil {
		return "", "", nil, err
	}
	remove = func() { os.RemoveAll(dir) }
	hooksup, hook = filepath.Join(dir, "hooksup"), filepath.Join(dir, "hooksup-hook")
	for bin, pkg := range map[string]string{hooksup: hooksupPkg, hook: hookPkg} {
		build := GoBuild(bin, pkg)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			remove()
			return "", "", nil, fmt.Errorf("building %s: %w", pkg, err)
		}
	}
	if RaceEnabled {
		os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	}
	return hooksup, hook, remove, nil
}

// RunWithBinaries is a TestMain's body: it builds the binaries (Binaries) into *hooksup and
// *hook, runs the tests and removes the binaries; its result is the exit code.
func RunWithBinaries(m *testing.M, hooksupPkg, hookPkg string, hooksup, hook *string) int {
	var remove func()
	var err error
	*hooksup, *hook, remove, err = Binaries(hooksupPkg, hookPkg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer remove()
	return m.Run()
}

// GoBuild is the go build of pkg into out, with -race when the tests run under it.
func GoBuild(out, pkg string) *exec.Cmd {
	args := []string{"build", "-o", out}
	if RaceEnabled {
		args = append(args, "-race")
	}
	return exec.Command("go", append(args, pkg)...)
}
