package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/charmbracelet/x/ansi"

	"github.com/hooksup/hooksup/themes"
)

// themesOutput runs `hooksup themes` with a custom theme "ocean" in the user's theme directory
// and extra environment variables, and returns what it printed.
func themesOutput(t *testing.T, env ...string) string {
	t.Helper()
	s := e2e.NewSandbox(t)
	var cfg string
	for _, kv := range s.Env {
		if v, ok := strings.CutPrefix(kv, "XDG_CONFIG_HOME="); ok {
			cfg = v
		}
	}
	dir := filepath.Join(cfg, "hooksup", "themes")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ocean.toml"), []byte("base = \"dark\"\nblock = \"#010203\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := e2e.ExecHooksup(s, "themes")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hooksup themes: %v\n%s", err, out)
	}
	return string(out)
}

var colourRE = regexp.MustCompile(`\x1b\[[0-9;]*(3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]`)

// `hooksup themes` previews every built-in and custom theme with the TUI's own frame, in the
// theme's colours.
func TestThemesPreviewsEveryTheme(t *testing.T) {
	t.Parallel()
	out := themesOutput(t, "NO_COLOR=", "CLICOLOR_FORCE=1", "COLORTERM=truecolor", "TERM=xterm-256color")
	plain := ansi.Strip(out)
	names := append(themes.Names(), "ocean")
	for _, n := range names {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(n) + ` · `).MatchString(plain) {
			t.Errorf("no preview headed %q in\n%s", n, plain)
		}
	}
	// Each preview is a TUI frame: the header, the banner, the panes.
	for _, want := range []string{"wants to stop", "╭─ verdicts 3", "╭─ checks", "● needs permission"} {
		if got := strings.Count(plain, want); got != len(names) {
			t.Errorf("%q appears %d times, want once per theme (%d)", want, got, len(names))
		}
	}
	// ocean's own block colour is drawn, in its preview only.
	ocean := out[strings.Index(out, "ocean"):]
	if !strings.Contains(ocean, "38;2;1;2;3") || strings.Count(out, "38;2;1;2;3") != strings.Count(ocean, "38;2;1;2;3") {
		t.Errorf("ocean's block colour is not drawn in its preview (and only there)")
	}
	if !strings.Contains(plain, "check_fail") || strings.Contains(plain, " text ") {
		t.Errorf("the slots are not listed, or list text:\n%s", plain[strings.LastIndex(plain, "Choose"):])
	}
}

// With NO_COLOR every theme is still listed; the one preview is mono and has no colour.
func TestThemesNoColor(t *testing.T) {
	t.Parallel()
	out := themesOutput(t, "NO_COLOR=1", "CLICOLOR_FORCE=1", "COLORTERM=truecolor", "TERM=xterm-256color")
	if seqs := colourRE.FindAllString(out, -1); len(seqs) > 0 {
		t.Errorf("colour with NO_COLOR: %q", seqs)
	}
	plain := ansi.Strip(out)
	if want := strings.Join(append(themes.Names(), "ocean"), ", "); !strings.Contains(plain, want) {
		t.Errorf("the themes are not listed as %q:\n%s", want, plain)
	}
	if n := strings.Count(plain, "╭─ verdicts 3"); n != 1 || !strings.Contains(plain, "NO_COLOR is set") {
		t.Errorf("%d previews, want one, in mono, said so:\n%s", n, plain)
	}
}
