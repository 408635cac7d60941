package initcmd

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/agentsim"
)

// The trust question shows a check's command exactly: what escapes would hide is shown as
// \e and \r, and said plainly; declining runs nothing.
func TestTrustPromptShowsAHiddenCommand(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	toml := "[[stop.checks]]\nname = \"tests\"\ncommand = " + e2e.QuoteTOML(e2e.DisguisedCommand) + "\n"
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte(toml), 0o644)
	self := e2e.SimAgentBin
	env := append(append([]string{}, s.Env...), "TERM=xterm-256color", e2e.EnvSimAgent+"=1", agentsim.EnvScenario+`={"prompts":["go"]}`)
	tm := e2e.StartTmux(t, 160, 40, env, s.Project, e2e.HooksupBin, "--claude-bin", self, "claude")
	scr := tm.WaitText(20*time.Second, "Trust this exact content? [y/N]")
	for _, want := range []string{`command: touch PWNED # \e[2K\r\e[1A\e[2K\r  tests  go test ./...`, "Control characters or line breaks in the command of check tests"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the trust question does not show %q:\n%s", want, scr)
		}
	}
	tm.Keys("Enter")
	tm.WaitText(20*time.Second, "claude exited with status 0")
	if _, err := os.Stat(filepath.Join(s.Project, "PWNED")); err == nil {
		t.Fatal("the hidden command ran")
	}
}

// hooksup trust lists what it trusts as the question does, and nothing it prints carries a
// control character from the file.
func TestTrustListsWhatItTrusts(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	toml := "[[stop.checks]]\nname = \"te\u202Ests\"\ncommand = " + e2e.QuoteTOML(e2e.DisguisedCommand) + "\ncwd = \"sub\"\nenv = { CI = \"true\" }\n"
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte(toml), 0o644)
	code, out := s.Hooksup(t, "trust", "--yes")
	if code != 0 {
		t.Fatalf("trust: %d %s", code, out)
	}
	for _, want := range []string{
		`Stop check te<U+202E>sts`,
		`command: touch PWNED # \e[2K\r\e[1A\e[2K\r  tests  go test ./...`,
		"in:      " + filepath.Join(s.Project, "sub"),
		"env:     CI=true",
		"Control characters or line breaks",
		"trusted " + filepath.Join(s.Project, ".hooksup.toml"),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("trust does not say %q:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\r\u202E") {
		t.Errorf("trust printed a control character: %q", out)
	}
}

// With no absolute home, hooksup has nowhere for its state: it says so, naming HOME, and never
// reads or writes a state directory relative to where it runs — where a project could have
// shipped one that trusts its own commands.
func TestNoHomeNeverUsesAStateDirUnderTheProject(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	toml := "[[stop.checks]]\nname = \"x\"\ncommand = \"touch PWNED\"\n"
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte(toml), 0o644)
	// The repository ships a trust record for its own file, where a relative state dir would be.
	shipped := filepath.Join(s.Project, ".local", "state", "hooksup")
	os.MkdirAll(shipped, 0o700)
	os.WriteFile(filepath.Join(shipped, "trusted"), []byte(config.Digest([]byte(toml))+" "+filepath.Join(s.Project, ".hooksup.toml")+"\n"), 0o600)
	for _, env := range [][]string{
		{"PATH=" + os.Getenv("PATH")},
		{"PATH=" + os.Getenv("PATH"), "HOME=home", "XDG_STATE_HOME=.local/state", "XDG_CONFIG_HOME=.config"},
	} {
		for _, args := range [][]string{{"check"}, {"trust"}, {"log"}} {
			cmd := exec.Command(e2e.HooksupBin, args...)
			cmd.Dir, cmd.Env = s.Project, append(env, "XDG_RUNTIME_DIR="+filepath.Join(filepath.Dir(s.Project), "run"))
			out, _ := cmd.CombinedOutput()
			if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), "HOME is not set to an absolute directory") {
				t.Errorf("%v with %v: exit %d, want 1 naming HOME:\n%s", args, env[1:], cmd.ProcessState.ExitCode(), out)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(s.Project, "PWNED")); err == nil {
		t.Error("the project's check ran on the trust record it shipped")
	}
	if b, _ := os.ReadFile(filepath.Join(shipped, "trusted")); strings.Count(string(b), "\n") != 1 {
		t.Errorf("the shipped trust record was written to: %q", b)
	}
	if _, err := os.Stat(filepath.Join(s.Project, ".config")); err == nil {
		t.Error("a .config directory was made in the project")
	}
}

// A trust record round-trips any path: a project whose path holds a newline is trusted and then
// used, and the newline cannot add a line that trusts another file.
func TestTrustRoundTripsAPathWithANewline(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	root := filepath.Dir(s.Project)
	victimDir := filepath.Join(root, "victim")
	victim := "[[stop.checks]]\nname = \"v\"\ncommand = \"touch PWNED\"\n"
	os.MkdirAll(victimDir, 0o700)
	os.WriteFile(filepath.Join(victimDir, ".hooksup.toml"), []byte(victim), 0o644)
	// The project's path ends, after a newline, with "<digest of victim> <victim's dir>".
	evil := filepath.Join(root, "a\n"+config.Digest([]byte(victim))+" "+victimDir)
	os.MkdirAll(evil, 0o700)
	os.WriteFile(filepath.Join(evil, ".hooksup.toml"), []byte("[[stop.checks]]\nname = \"ok\"\ncommand = \"echo fine\"\n"), 0o644)
	run := func(dir string, args ...string) (int, string) {
		cmd := exec.Command(e2e.HooksupBin, args...)
		cmd.Dir, cmd.Env = dir, s.Env
		out, _ := cmd.CombinedOutput()
		return cmd.ProcessState.ExitCode(), string(out)
	}
	if code, out := run(evil, "trust", "--yes"); code != 0 {
		t.Fatalf("trust: %d %s", code, out)
	}
	if code, out := run(evil, "check"); code != 0 || !strings.Contains(out, "✓ ok") {
		t.Errorf("check after trust, in a path with a newline: %d %s", code, out)
	}
	if code, out := run(victimDir, "check"); code != 1 || !strings.Contains(out, "not trusted") {
		t.Errorf("the victim's file became trusted through the newline: %d %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(victimDir, "PWNED")); err == nil {
		t.Error("the victim's check ran")
	}
}

// hooksup trust refuses what hooksup check (and a session) would refuse, with the same
// file:line messages.
func TestTrustRefusesWhatCheckRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, toml, say string }{
		{"no command", "[[stop.checks]]\nname = \"a\"\n", `.hooksup.toml:1: stop.checks[0].command: check "a" has no command`},
		{"two checks, one name", "[[stop.checks]]\nname = \"a\"\ncommand = \"true\"\n[[stop.checks]]\nname = \"a\"\ncommand = \"true\"\n", `stop.checks[1].name: two checks are named "a"`},
		{"negative limit", "[stop]\nmax_continuations = -1\n", `.hooksup.toml:2: stop.max_continuations: must be 0 or more`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := e2e.NewSandbox(t)
			os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte(tc.toml), 0o644)
			code, trustOut := s.Hooksup(t, "trust", "--yes")
			if code != 1 || !strings.Contains(trustOut, tc.say) {
				t.Errorf("trust: exit %d, want 1 saying %q:\n%s", code, tc.say, trustOut)
			}
			code, checkOut := s.Hooksup(t, "check")
			if code != 1 || !strings.Contains(checkOut, tc.say) {
				t.Errorf("check: exit %d, want 1 saying %q:\n%s", code, tc.say, checkOut)
			}
		})
	}
}

// From a subdirectory, the project's .hooksup.toml is found (up to the repository's root, never
// above it), each command says which file it uses, and the checks run where the file is.
func TestProjectConfigFoundFromASubdirectory(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.MkdirAll(filepath.Join(s.Project, ".git"), 0o700)
	deep := filepath.Join(s.Project, "a", "b")
	os.MkdirAll(deep, 0o700)
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte("mode = \"auto\"\n[[stop.checks]]\nname = \"where\"\ncommand = \"pwd > where.txt; echo broken; exit 1\"\n"), 0o644)
	// Above the repository's root: never used.
	os.WriteFile(filepath.Join(filepath.Dir(s.Project), ".hooksup.toml"), []byte("[[stop.checks]]\nname = \"above\"\ncommand = \"touch ABOVE\"\n"), 0o644)
	run := func(args ...string) (int, string) {
		cmd := exec.Command(e2e.HooksupBin, args...)
		cmd.Dir, cmd.Env = deep, s.Env
		out, _ := cmd.CombinedOutput()
		return cmd.ProcessState.ExitCode(), string(out)
	}
	file := filepath.Join(s.Project, ".hooksup.toml")
	if code, out := run("check"); code != 1 || !strings.Contains(out, "not trusted") || !strings.Contains(out, file) {
		t.Fatalf("check from a subdirectory before trust: %d %s", code, out)
	}
	if code, out := run("trust", "--yes"); code != 0 || !strings.Contains(out, "trusted "+file) {
		t.Fatalf("trust from a subdirectory: %d %s", code, out)
	}
	code, out := run("check")
	if code != 1 || !strings.Contains(out, "✗ where") || !strings.Contains(out, "using "+file) {
		t.Errorf("check from a subdirectory: exit %d, want 1 with the check failing and the file named:\n%s", code, out)
	}
	if b, err := os.ReadFile(filepath.Join(s.Project, "where.txt")); err != nil || strings.TrimSpace(string(b)) != s.Project {
		t.Errorf("the check ran in %q (%v), want the file's directory %s", b, err, s.Project)
	}
	if code, out := run("doctor"); !strings.Contains(out, file+" (project)") {
		t.Errorf("doctor does not name the project's file: %d %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(s.Project), "ABOVE")); err == nil {
		t.Error("a configuration above the repository's root was used")
	}
	// A session started in the subdirectory is gated by the same checks.
	self := e2e.SimAgentBin
	sc, _ := json.Marshal(agentsim.Scenario{Prompts: []string{"go"}})
	cmd := exec.Command(e2e.HooksupBin, "--claude-bin", self, "claude", "-p", "go")
	cmd.Dir = deep
	cmd.Env = append(append([]string{}, s.Env...), e2e.EnvSimAgent+"=1", agentsim.EnvScenario+"="+string(sc))
	sess, _ := cmd.CombinedOutput()
	if !strings.Contains(string(sess), "block: continued (check where failed)") || !strings.Contains(string(sess), "hooksup: checks from "+file) {
		t.Errorf("a session in a subdirectory was not gated by the project's check:\n%s", sess)
	}
}
