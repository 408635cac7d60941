package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/internal/agentsim"
)

const passingConfig = `mode = "auto"
[[stop.checks]]
name = "ok"
command = "true"
`

const failingConfig = passingConfig + `
[[stop.checks]]
name = "lint"
command = "echo 'lint: main.go:3: unused x'; exit 1"
`

// An edit of .hooksup.toml during a headless session: untrusted, the old checks still run and
// the session says how to trust it; trusted from another shell, the next stop runs the new
// checks, and the session said which.
func TestConfigEditHeadlessTrustedFromAnotherShell(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte(passingConfig), 0o644)
	s.Ok("trust", "--yes")
	gate := filepath.Join(s.Project, "gate")
	ls := s.StartLive("", agentsim.Scenario{Prompts: []string{"one", "two"}, TurnGate: gate}, nil, "-p", "three")
	if st := ls.WaitStops(1); st[0].Block {
		t.Fatalf("the first stop was blocked: %+v", st[0])
	}

	s.EditProject(failingConfig)
	out := ls.WaitStderr("hooksup trust")
	for _, want := range []string{".hooksup.toml changed", "not trusted", "still runs the checks it ran (ok)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the notice of the untrusted edit does not say %q:\n%s", want, out)
		}
	}
	ls.OpenGate(gate, 2)
	if st := ls.WaitStops(2); st[1].Block {
		t.Fatalf("an untrusted edit changed the checks: the second stop was blocked: %+v", st[1])
	}

	s.Ok("trust", "--yes") // from another shell
	out = ls.WaitStderr("from the next stop")
	if !strings.Contains(out, "runs the checks ok, lint") {
		t.Errorf("the notice of the trusted edit does not name the checks it now runs:\n%s", out)
	}
	ls.OpenGate(gate, 3)
	st := ls.WaitStops(3)
	if !st[2].Block || !strings.Contains(st[2].Reasons[0], `The check "lint"`) {
		t.Fatalf("the third stop did not run the new check: %+v", st[2])
	}
	if code := ls.Wait(30 * time.Second); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, ls.ErrText())
	}
}

// A broken edit keeps the old checks and says why, naming the file and the line, once.
func TestConfigEditBrokenNamesTheLine(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte(passingConfig), 0o644)
	s.Ok("trust", "--yes")
	gate := filepath.Join(s.Project, "gate")
	ls := s.StartLive("", agentsim.Scenario{Prompts: []string{"one"}, TurnGate: gate}, nil, "-p", "two")
	ls.WaitStops(1)

	s.EditProject(passingConfig + "\n[[stop.checks]]\nname = \"lint\"\ncomand = \"false\"\n")
	out := ls.WaitStderr("comand")
	if !strings.Contains(out, ".hooksup.toml:8") || !strings.Contains(out, "still runs the checks it ran (ok)") {
		t.Errorf("the notice of a broken edit does not name the line, or the checks kept:\n%s", out)
	}
	ls.OpenGate(gate, 2)
	if st := ls.WaitStops(2); st[1].Block {
		t.Fatalf("a broken edit changed the checks: %+v", st[1])
	}
	if code := ls.Wait(30 * time.Second); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, ls.ErrText())
	}
	if n := strings.Count(ls.ErrText(), "comand"); n != 1 {
		t.Errorf("the broken edit was told %d times, want once:\n%s", n, ls.ErrText())
	}
}

// startConfigTUI starts a TUI session of the simulated claude in a project whose trusted
// .hooksup.toml runs a passing check, with the turns prompts (two when none), each after the
// first held by gate; it returns once the first stop was let through.
func startConfigTUI(t *testing.T, s *e2e.Sandbox, prompts ...string) (tm *e2e.Tmux, gate, trace string) {
	e2e.RequireTmux(t)
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte(passingConfig), 0o644)
	s.Ok("trust", "--yes")
	gate, trace = filepath.Join(s.Project, "gate"), filepath.Join(s.Project, "trace.jsonl")
	self := e2e.SimAgentBin
	if len(prompts) == 0 {
		prompts = []string{"one", "two"}
	}
	sc, _ := json.Marshal(agentsim.Scenario{Prompts: prompts, TurnGate: gate})
	env := append(append([]string{}, s.Env...), "TERM=xterm-256color", e2e.EnvSimAgent+"=1",
		agentsim.EnvScenario+"="+string(sc), agentsim.EnvTrace+"="+trace)
	tm = e2e.StartTmux(t, 160, 44, env, s.Project, e2e.HooksupBin, "--claude-bin", self, "claude")
	e2e.WaitTraceStops(t, trace, 1)
	return tm, gate, trace
}

// In the TUI, an untrusted edit asks; y trusts exactly what was shown, and the next stop runs
// the new checks.
func TestConfigEditTUIAsksAndYesTrusts(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	tm, gate, trace := startConfigTUI(t, s)
	s.EditProject(failingConfig)
	tm.WaitText(20*time.Second, "Trust this exact content?", "Stop check lint", "command: echo 'lint: main.go:3: unused x'; exit 1")
	tm.Keys("C-]", "y")
	tm.WaitText(20*time.Second, "runs the checks ok, lint")
	if err := os.WriteFile(gate+".2", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if st := e2e.WaitTraceStops(t, trace, 2); !st[1].Block || !strings.Contains(st[1].Reasons[0], `The check "lint"`) {
		t.Fatalf("the stop after y did not run the new check: %+v", st[1])
	}
}

// n keeps the checks the session runs: the next stop is let through by them.
func TestConfigEditTUINoKeepsTheOldChecks(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	tm, gate, trace := startConfigTUI(t, s)
	s.EditProject(failingConfig)
	tm.WaitText(20*time.Second, "Trust this exact content?")
	tm.Keys("C-]", "n")
	tm.WaitText(20*time.Second, "is not trusted: the session still runs the checks it ran")
	if err := os.WriteFile(gate+".2", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if st := e2e.WaitTraceStops(t, trace, 2); st[1].Block {
		t.Fatalf("n changed the checks: %+v", st[1])
	}
}

// A trusted edit shows in the TUI once it took effect at a stop: until then the header and the
// checks pane show what still runs; from that stop, the new mode and the new checks.
func TestConfigEditTUIShowsTheNewChecksOnceInEffect(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	tm, gate, trace := startConfigTUI(t, s, "one", "two", "three") // the third turn never comes: the screen stays
	tm.WaitText(20*time.Second, "✓ ok")
	s.EditProject("mode = \"observe\"\n[[subagent_stop.checks]]\nname = \"review\"\ncommand = \"true\"\n")
	tm.WaitText(20*time.Second, "Trust this exact content?")
	tm.Keys("C-]", "y")
	scr := tm.WaitText(20*time.Second, "from the next stop, hooksup runs no checks (at a subagent's stop: review)", "✓ ok")
	if strings.Contains(scr, "○ review") || strings.Contains(scr, "mode observe") {
		t.Fatalf("the new configuration is shown before it took effect:\n%s", scr)
	}
	if err := os.WriteFile(gate+".2", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	e2e.WaitTraceStops(t, trace, 2)
	scr = tm.WaitText(20*time.Second, "mode observe", "when a subagent stops:", "○ review  $ true")
	if strings.Contains(scr, "✓ ok") {
		t.Errorf("the checks pane still shows the old configuration's run:\n%s", scr)
	}
}
