package initcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// trustProject writes a project file whose one check passes, and returns its path.
func trustProject(t *testing.T, s *e2e.Sandbox, command string) string {
	t.Helper()
	p := filepath.Join(s.Project, ".hooksup.toml")
	if err := os.WriteFile(p, []byte("[[stop.checks]]\nname = \"tests\"\ncommand = "+e2e.QuoteTOML(command)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// trusted reports whether hooksup runs the project's checks: hooksup check refuses an
// untrusted file.
func trusted(t *testing.T, s *e2e.Sandbox) bool {
	t.Helper()
	code, out := s.Hooksup(t, "check")
	if code != 0 && !strings.Contains(out, "not trusted") {
		t.Fatalf("check: %d %s", code, out)
	}
	return code == 0
}

// trustInTmux runs hooksup trust with args on a terminal.
func trustInTmux(t *testing.T, s *e2e.Sandbox, args ...string) *e2e.Tmux {
	env := append(append([]string{}, s.Env...), "TERM=xterm-256color")
	return e2e.StartTmux(t, 160, 40, env, s.Project, append([]string{e2e.HooksupBin, "trust"}, args...)...)
}

// On a terminal, hooksup trust shows what the file runs and asks: y trusts, anything else
// does not, and says so.
func TestTrustAsksOnATerminal(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	file := trustProject(t, s, "true")
	tm := trustInTmux(t, s)
	scr := tm.WaitText(20*time.Second, "Trust this exact content? [y/N]")
	if !strings.Contains(scr, "command: true") {
		t.Errorf("the question does not show the command:\n%s", scr)
	}
	tm.Text("n")
	tm.Keys("Enter")
	scr = tm.WaitText(20*time.Second, "[exited 1]")
	if !strings.Contains(scr, "not trusted") {
		t.Errorf("a declined trust does not say so:\n%s", scr)
	}
	if trusted(t, s) {
		t.Fatal("answered n, and the file is trusted")
	}

	tm = trustInTmux(t, s)
	tm.WaitText(20*time.Second, "Trust this exact content? [y/N]")
	tm.Text("y")
	tm.Keys("Enter")
	tm.WaitText(20*time.Second, "trusted "+file, "[exited 0]")
	if !trusted(t, s) {
		t.Fatal("answered y, and the file is not trusted")
	}
}

// --show only shows, on a terminal too; --yes trusts without asking.
func TestTrustShowAndYes(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	file := trustProject(t, s, "true")
	tm := trustInTmux(t, s, "--show")
	scr := tm.WaitText(20*time.Second, "[exited 0]")
	if !strings.Contains(scr, "command: true") || strings.Contains(scr, "[y/N]") || !strings.Contains(scr, "hooksup trust") {
		t.Errorf("--show should show the file, ask nothing and say how to trust it:\n%s", scr)
	}
	if trusted(t, s) {
		t.Fatal("--show trusted the file")
	}

	tm = trustInTmux(t, s, "--yes")
	scr = tm.WaitText(20*time.Second, "[exited 0]")
	if strings.Contains(scr, "[y/N]") || !strings.Contains(scr, "trusted "+file) {
		t.Errorf("--yes should trust without asking:\n%s", scr)
	}
	if !trusted(t, s) {
		t.Fatal("--yes did not trust the file")
	}
}

// A file with a control character in what it runs is asked about on a terminal even with
// --yes: the person sees the warning before it is trusted.
func TestTrustYesStillAsksAboutHiddenCharacters(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	trustProject(t, s, e2e.DisguisedCommand)
	tm := trustInTmux(t, s, "--yes")
	scr := tm.WaitText(20*time.Second, "Trust this exact content? [y/N]")
	if !strings.Contains(scr, "Control characters or line breaks") {
		t.Errorf("no warning before the question:\n%s", scr)
	}
	tm.Keys("Enter")
	tm.WaitText(20*time.Second, "[exited 1]")
	if trusted(t, s) {
		t.Fatal("the file with hidden characters was trusted without a yes")
	}
}

// Without a terminal and without --yes, hooksup trust shows the file, trusts nothing, says
// how to, and fails; with --yes it trusts. A file already trusted is said to be.
func TestTrustWithoutATerminal(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	file := trustProject(t, s, "true")
	code, out := s.Hooksup(t, "trust")
	if code == 0 || !strings.Contains(out, "command: true") || !strings.Contains(out, "hooksup trust --yes") {
		t.Errorf("trust without a terminal: exit %d\n%s", code, out)
	}
	if trusted(t, s) {
		t.Fatal("trusted without a terminal or --yes")
	}
	if code, out := s.Hooksup(t, "trust", "--yes"); code != 0 || !strings.Contains(out, "trusted "+file) {
		t.Fatalf("trust --yes: exit %d\n%s", code, out)
	}
	if !trusted(t, s) {
		t.Fatal("trust --yes did not trust")
	}
	if code, out := s.Hooksup(t, "trust"); code != 0 || !strings.Contains(out, "already trusted") {
		t.Errorf("trust of a trusted file: exit %d\n%s", code, out)
	}
	if code, out := s.Hooksup(t, "trust", "--show", "--yes"); code != 2 {
		t.Errorf("--show with --yes: exit %d\n%s", code, out)
	}
}
