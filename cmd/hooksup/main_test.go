package main

import (
	"debug/buildinfo"
	"os"
	"path/filepath"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

func TestMain(m *testing.M) {
	os.Exit(e2e.Main(m, ".", "../hooksup-hook", e2e.Race))
}

// The binaries this package's tests drive carry the race detector exactly when the tests do
// (e2e.Race).
func TestBinariesBuiltLikeTheTests(t *testing.T) {
	t.Parallel()
	for _, bin := range []string{e2e.HooksupBin, e2e.HookClientBin} {
		info, err := buildinfo.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		race := false
		for _, s := range info.Settings {
			if s.Key == "-race" {
				race = s.Value == "true"
			}
		}
		if race != e2e.RaceEnabled {
			t.Errorf("%s built with -race=%v, the tests run with -race=%v", filepath.Base(bin), race, e2e.RaceEnabled)
		}
	}
}
