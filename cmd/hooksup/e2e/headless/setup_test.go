package headless

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/verdictlog"
)

func TestCheckCommand(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte(`
[[stop.checks]]
name = "ok"
command = "echo fine"
[[stop.checks]]
name = "broken"
command = "echo 'boom: 2 failures'; exit 3"
`), 0o644)
	// Untrusted: nothing runs, and check fails.
	code, out := s.Hooksup(t, "check")
	if code != 1 || !strings.Contains(out, "not trusted") || strings.Contains(out, "✓ ok") {
		t.Fatalf("untrusted: %d %s", code, out)
	}
	if code, out := s.Hooksup(t, "trust", "--yes"); code != 0 {
		t.Fatal(out)
	}
	code, out = s.Hooksup(t, "check")
	if code != 1 || !strings.Contains(out, "✓ ok") || !strings.Contains(out, "✗ broken: exit 3") || !strings.Contains(out, "boom: 2 failures") ||
		!strings.HasSuffix(out, "\n1 of 2 checks failed\n") {
		t.Fatalf("%d %s", code, out)
	}
	// One check is one check.
	for _, tc := range []struct {
		command string
		code    int
		last    string
	}{{"echo fine", 0, "1 check passed"}, {"exit 3", 1, "1 check failed"}} {
		os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte("[[stop.checks]]\nname = \"one\"\ncommand = \""+tc.command+"\"\n"), 0o644)
		s.Hooksup(t, "trust", "--yes")
		code, out := s.Hooksup(t, "check")
		if code != tc.code || !strings.HasSuffix(out, "\n"+tc.last+"\n") {
			t.Errorf("one check, %q: %d %s", tc.command, code, out)
		}
	}
}

// hooksup check exits 0 with "no checks" only when there truly is no configuration: a project
// file it may not use (untrusted, changed since it was trusted, or broken) fails check, before
// anything runs, with the one hint that helps — and never "hooksup trust" for a file that trust
// would refuse.
func TestCheckFailsOnAFileItCannotUse(t *testing.T) {
	t.Parallel()
	const checks = "[[stop.checks]]\nname = \"ok\"\ncommand = \"echo ran > ran.txt\"\n"
	for _, tc := range []struct {
		name   string
		file   string // .hooksup.toml; "" for none
		trust  bool
		change string // appended after trusting
		code   int
		say    []string
		notSay []string
	}{
		{name: "no file", code: 0,
			say: []string{"no [[stop.checks]] configured", "hooksup init"}, notSay: []string{"hooksup trust"}},
		{name: "trusted, no checks", file: "mode = \"auto\"\n", trust: true, code: 0,
			say: []string{"no [[stop.checks]] configured", ".hooksup.toml"}, notSay: []string{"hooksup init", "not trusted"}},
		{name: "untrusted", file: checks, code: 1,
			say: []string{".hooksup.toml", "not trusted", "hooksup trust"}, notSay: []string{"no [[stop.checks]]", "hooksup init", "passed"}},
		{name: "changed since trusted", file: checks, trust: true, change: "# more\n", code: 1,
			say: []string{".hooksup.toml", "not trusted", "hooksup trust"}, notSay: []string{"no [[stop.checks]]", "hooksup init", "passed"}},
		{name: "untrusted with an unknown key", file: checks + "timout = \"2m\"\n", code: 1,
			say: []string{".hooksup.toml:4: stop.checks[0].timout: unknown key"}, notSay: []string{"no [[stop.checks]]", "hooksup init", "run `hooksup trust`", "passed"}},
		{name: "trusted, then broken", file: checks, trust: true, change: "[stop\n", code: 1,
			say: []string{".hooksup.toml"}, notSay: []string{"no [[stop.checks]]", "hooksup init", "run `hooksup trust`", "passed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := e2e.NewSandbox(t)
			path := filepath.Join(s.Project, ".hooksup.toml")
			if tc.file != "" {
				os.WriteFile(path, []byte(tc.file), 0o644)
			}
			if tc.trust {
				if code, out := s.Hooksup(t, "trust", "--yes"); code != 0 {
					t.Fatal(out)
				}
			}
			if tc.change != "" {
				f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
				f.WriteString(tc.change)
				f.Close()
			}
			code, out := s.Hooksup(t, "check")
			if code != tc.code {
				t.Errorf("exit %d, want %d:\n%s", code, tc.code, out)
			}
			for _, w := range tc.say {
				if !strings.Contains(out, w) {
					t.Errorf("check did not say %q:\n%s", w, out)
				}
			}
			for _, w := range tc.notSay {
				if strings.Contains(out, w) {
					t.Errorf("check said %q:\n%s", w, out)
				}
			}
			if _, err := os.Stat(filepath.Join(s.Project, "ran.txt")); err == nil && tc.code != 0 {
				t.Errorf("a check ran")
			}
		})
	}
}

// hooksup check shows a failed check as the agent reads it: the reason the installed Stop
// hook gives claude, byte for byte (plain text, its last reason_lines lines), not the raw
// end of the output; a check that could not start says so once, on one line.
func TestCheckShowsWhatTheAgentReads(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	// Colours, blank lines, the failure early and 60 lines of passes after it.
	script := "printf '=== RUN TestA\\n\\033[31m--- FAIL: TestA\\033[0m\\n\\n    a_test.go:9: boom\\n'\n" +
		"i=0; while [ $i -lt 60 ]; do printf '\\033[32m--- PASS: TestB%d\\033[0m\\n' $i; i=$((i+1)); done\nexit 1\n"
	s.Files(map[string]string{
		"t.sh": script,
		".hooksup.toml": "mode = \"auto\"\nreason_lines = 30\n[[stop.checks]]\nname = \"test\"\ncommand = \"sh t.sh\"\n" +
			"[[stop.checks]]\nname = \"lint\"\ncommand = \"nosuchtool-xyz check .\"\n",
	})
	if code, out := s.Hooksup(t, "trust", "--yes"); code != 0 {
		t.Fatal(out)
	}
	cmd := e2e.ExecHooksup(s, "hook", "Stop", "--installed")
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"Stop","session_id":"s1","cwd":` + strconv.Quote(s.Project) + `,"stop_hook_active":false}`)
	raw, _ := cmd.Output()
	var answer struct{ Decision, Reason string }
	if err := json.Unmarshal(raw, &answer); err != nil || answer.Decision != "block" {
		t.Fatalf("the hook's answer (%v): %s", err, raw)
	}
	code, out := s.Hooksup(t, "check")
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, "\n"+answer.Reason+"\n") {
		t.Errorf("check does not show the reason the agent reads:\n%s\n--- the agent reads:\n%s", out, answer.Reason)
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("check printed terminal controls:\n%q", out)
	}
	if n := strings.Count(out, "nosuchtool-xyz: not found"); n != 1 {
		t.Errorf("the check that could not start is told %d times:\n%s", n, out)
	}
	if !regexp.MustCompile(`(?m)^✗ lint: could not start: .*nosuchtool-xyz: not found \(\d+ms\)$`).MatchString(out) {
		t.Errorf("the check that could not start is not one line:\n%s", out)
	}
}

// hooksup check, through the real go test: a failing test printed early, under 60 passing
// ones of -v, is still in the reason, with its message, and the passes are not.
func TestCheckReasonNamesTheFailingGoTest(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	s := e2e.NewSandbox(t)
	s.Env = append(s.Env, "GOCACHE="+strings.TrimSpace(string(gocache)), "GOTOOLCHAIN=local", "GOFLAGS=", "GOPROXY=off")
	var passes strings.Builder
	passes.WriteString("package dates\n\nimport \"testing\"\n\n")
	for i := range 60 {
		fmt.Fprintf(&passes, "func TestPasses%02d(t *testing.T) { t.Log(\"fine\") }\n", i)
	}
	s.Files(map[string]string{
		"go.mod":   "module example.com/dates\n\ngo 1.22\n",
		"dates.go": "package dates\n\nfunc DaysIn(m int) int { return []int{31, 28, 31}[m-1] }\n",
		// Sorted before pass_test.go: go test runs it first.
		"dates_test.go": "package dates\n\nimport \"testing\"\n\nfunc TestDaysInLeapFebruary(t *testing.T) {\n" +
			"\tif got := DaysIn(2); got != 29 {\n\t\tt.Errorf(\"DaysIn(2) = %d, want 29\", got)\n\t}\n}\n",
		"pass_test.go":  passes.String(),
		".hooksup.toml": "[[stop.checks]]\nname = \"test\"\ncommand = \"go test -count=1 -v ./...\"\ntimeout = \"5m\"\n",
	})
	if code, out := s.Hooksup(t, "trust", "--yes"); code != 0 {
		t.Fatal(out)
	}
	code, out := s.Hooksup(t, "check")
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{"--- FAIL: TestDaysInLeapFebruary", "dates_test.go:7: DaysIn(2) = 28, want 29"} {
		if !strings.Contains(out, want) {
			t.Errorf("the reason lacks %q:\n%s", want, out)
		}
	}
	for _, noise := range []string{"--- PASS", "=== RUN"} {
		if strings.Contains(out, noise) {
			t.Errorf("the reason quotes %q:\n%s", noise, out)
		}
	}
}

const otherHooks = `{
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "./block-forever.sh"}]}],
    "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}]
  },
  "model": "opus"
}
`

func TestInstallTwiceThenUninstall(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	settings := filepath.Join(s.Project, ".claude", "settings.local.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(otherHooks), 0o644)
	if code, out := s.Hooksup(t, "install"); code != 0 || !strings.Contains(out, "installed") {
		t.Fatalf("%d %s", code, out)
	}
	first, _ := os.ReadFile(settings)
	if code, out := s.Hooksup(t, "install"); code != 0 || !strings.Contains(out, "already installed") {
		t.Fatalf("%d %s", code, out)
	}
	second, _ := os.ReadFile(settings)
	if !bytes.Equal(first, second) {
		t.Fatalf("second install changed the file:\n%s\n%s", first, second)
	}
	if n := strings.Count(string(second), "--installed"); n != 2 {
		t.Fatalf("%d hooksup entries (want Stop + SubagentStop):\n%s", n, second)
	}
	for _, keep := range []string{"./block-forever.sh", "notify-send hi", `"model": "opus"`} {
		if !strings.Contains(string(second), keep) {
			t.Fatalf("lost %s", keep)
		}
	}
	if code, out := s.Hooksup(t, "uninstall"); code != 0 || !strings.Contains(out, "removed") {
		t.Fatalf("%d %s", code, out)
	}
	third, _ := os.ReadFile(settings)
	var a, b any
	json.Unmarshal([]byte(otherHooks), &a)
	json.Unmarshal(third, &b)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("uninstall left:\n%s", third)
	}
}

// A settings file that install made, and that holds nothing else once uninstall removed
// hooksup's hooks, is removed rather than left holding {}.
func TestUninstallRemovesTheFileItEmptied(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	settings := filepath.Join(s.Project, ".claude", "settings.local.json")
	if code, out := s.Hooksup(t, "install"); code != 0 {
		t.Fatalf("install: %d %s", code, out)
	}
	if _, err := os.Stat(settings); err != nil {
		t.Fatalf("install wrote no settings: %v", err)
	}
	code, out := s.Hooksup(t, "uninstall")
	if code != 0 || !strings.Contains(out, "removed") {
		t.Fatalf("uninstall: %d %s", code, out)
	}
	if b, err := os.ReadFile(settings); err == nil {
		t.Fatalf("uninstall left %s holding %q", settings, b)
	}
}

func TestInstallRefusesInvalidJSON(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	settings := filepath.Join(s.Project, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	broken := "{\"hooks\": {\n  \"Stop\": [\n}\n"
	os.WriteFile(settings, []byte(broken), 0o644)
	code, out := s.Hooksup(t, "install", "--scope", "project")
	if code == 0 || !strings.Contains(out, settings) || !strings.Contains(out, "not changed") {
		t.Fatalf("%d %s", code, out)
	}
	if b, _ := os.ReadFile(settings); string(b) != broken {
		t.Fatal("the broken file was changed")
	}
}

func TestDoctorFlagsRiskyStopHooks(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.MkdirAll(filepath.Join(s.Project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(s.Project, ".claude", "settings.json"), []byte(`{"disableAllHooks": true, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./block-forever.sh"}]}]}}`), 0o644)
	code, out := s.Hooksup(t, "--claude-bin", "/bin/true", "doctor")
	if code != 1 || !strings.Contains(out, "never mentions stop_hook_active") || !strings.Contains(out, "disableAllHooks is true") {
		t.Fatalf("%d %s", code, out)
	}
}

// doctor names what is wrong with an untrusted project file that trust would refuse (its
// unknown key, with file and line), rather than only "not trusted".
func TestDoctorNamesTheProblemOfAnUntrustedFile(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	path := filepath.Join(s.Project, ".hooksup.toml")
	os.WriteFile(path, []byte("[[stop.checks]]\nname = \"ok\"\ncommand = \"true\"\ntimout = \"2m\"\n"), 0o644)
	code, out := s.Hooksup(t, "--claude-bin", "/bin/true", "doctor")
	want := path + `:4: stop.checks[0].timout: unknown key (did you mean "timeout"?)`
	if code != 1 || !strings.Contains(out, "✗ "+want) || strings.Contains(out, "run `hooksup trust`") {
		t.Fatalf("%d %s", code, out)
	}
}

// Plain claude after `hooksup install`: the installed hook runs the checks itself, keeps its
// counts across hook processes, and makes claude continue until the check passes.
func TestStandaloneAfterInstall(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "tests"
command = "test -f %[1]s || { touch %[1]s; echo 'FAIL: TestX'; exit 1; }"
`, filepath.Join(s.Project, "marker"))), 0o644)
	if code, out := s.Hooksup(t, "trust", "--yes"); code != 0 {
		t.Fatal(out)
	}
	if code, out := s.Hooksup(t, "install"); code != 0 {
		t.Fatal(out)
	}
	// The small client beside hooksup is what claude runs: it does the standalone work.
	if argv := installedStop(t, s); argv != hooks.ShellQuote(e2e.HookClientBin)+" --agent claude Stop --installed" {
		t.Fatalf("installed Stop hook %q, want the hook client's", argv)
	}
	self := e2e.SimAgentBin
	trace := filepath.Join(s.Project, "trace.jsonl")
	cmd := exec.Command(self, "--settings", filepath.Join(s.Project, ".claude", "settings.local.json"), "-p", "go")
	cmd.Dir = s.Project
	cmd.Env = append(append([]string{}, s.Env...), e2e.EnvSimAgent+"=1", agentsim.EnvTrace+"="+trace)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	stops := e2e.StopTrace(e2e.ReadTrace(t, trace), "Stop")
	if len(stops) != 2 || !stops[0].Block || stops[1].Block || !strings.Contains(stops[0].Reasons[0], "FAIL: TestX") {
		t.Fatalf("stops %+v", stops)
	}
	if got := e2e.Decisions(s.Verdicts()); got != "Stop:block/check:tests Stop:allow/checks" {
		t.Fatalf("verdicts %s", got)
	}
}

// installedStop is the Stop hook command in the project's local settings.
func installedStop(t *testing.T, s *e2e.Sandbox) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.Project, ".claude", "settings.local.json"))
	if err != nil {
		t.Fatal(err)
	}
	var settings struct {
		Hooks map[string][]hooks.MatcherGroup `json:"hooks"`
	}
	if err := json.Unmarshal(b, &settings); err != nil || len(settings.Hooks["Stop"]) != 1 || len(settings.Hooks["Stop"][0].Hooks) != 1 {
		t.Fatalf("settings (%v):\n%s", err, b)
	}
	return settings.Hooks["Stop"][0].Hooks[0].Command
}

// Where hooksup-hook is not installed beside hooksup, install registers `hooksup hook`, which
// runs the checks the same way.
func TestInstallWithoutTheHookClient(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte("mode = \"auto\"\n[[stop.checks]]\nname = \"t\"\ncommand = \"echo FAIL: TestY; exit 1\"\n"), 0o644)
	s.Hooksup(t, "trust", "--yes")
	alone := filepath.Join(t.TempDir(), "hooksup")
	b, err := os.ReadFile(e2e.HooksupBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(alone, "install")
	cmd.Dir, cmd.Env = s.Project, s.Env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	argv := installedStop(t, s)
	if argv != hooks.ShellQuote(alone)+" hook --agent claude Stop --installed" {
		t.Fatalf("installed Stop hook %q, want hooksup's own", argv)
	}
	hook := exec.Command("/bin/sh", "-c", argv)
	hook.Dir, hook.Env = s.Project, s.Env
	hook.Stdin = strings.NewReader(`{"session_id":"s1","cwd":"` + s.Project + `","prompt_id":"p1","hook_event_name":"Stop","stop_hook_active":false}`)
	out, err := hook.Output()
	if err != nil || !strings.Contains(string(out), `"decision":"block"`) || !strings.Contains(string(out), "FAIL: TestY") {
		t.Fatalf("%v: %s", err, out)
	}
}

// An always-failing check in standalone mode stops at max_continuations: the count survives
// between hook processes.
func TestStandaloneLimitAcrossProcesses(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte("mode = \"auto\"\n[stop]\nmax_continuations = 2\n[[stop.checks]]\nname = \"t\"\ncommand = \"exit 1\"\n"), 0o644)
	s.Hooksup(t, "trust", "--yes")
	s.Hooksup(t, "install")
	self := e2e.SimAgentBin
	cmd := exec.Command(self, "--settings", filepath.Join(s.Project, ".claude", "settings.local.json"), "-p", "go")
	cmd.Dir = s.Project
	cmd.Env = append(append([]string{}, s.Env...), e2e.EnvSimAgent+"=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if got := e2e.Decisions(s.Verdicts()); got != "Stop:block/check:t Stop:block/check:t Stop:allow/limit" {
		t.Fatalf("verdicts %s", got)
	}
}

// The timeout install gives claude for each hook covers that hook's checks: a slow subagent
// check is not cut short by claude killing the installed SubagentStop hook.
func TestInstalledTimeoutsCoverTheChecks(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte(`
[[stop.checks]]
name = "tests"
command = "true"
timeout = "12m"
[[subagent_stop.checks]]
name = "review"
command = "true"
timeout = "30m"
`), 0o644)
	if code, out := s.Hooksup(t, "trust", "--yes"); code != 0 {
		t.Fatal(out)
	}
	if code, out := s.Hooksup(t, "install"); code != 0 {
		t.Fatal(out)
	}
	b, err := os.ReadFile(filepath.Join(s.Project, ".claude", "settings.local.json"))
	if err != nil {
		t.Fatal(err)
	}
	var settings struct {
		Hooks map[string][]hooks.MatcherGroup `json:"hooks"`
	}
	if err := json.Unmarshal(b, &settings); err != nil {
		t.Fatal(err)
	}
	for event, check := range map[string]time.Duration{hooks.Stop: 12 * time.Minute, hooks.SubagentStop: 30 * time.Minute} {
		groups := settings.Hooks[event]
		if len(groups) != 1 || len(groups[0].Hooks) != 1 {
			t.Fatalf("%s: %s", event, b)
		}
		if got := time.Duration(groups[0].Hooks[0].Timeout * float64(time.Second)); got <= check {
			t.Errorf("the installed %s hook times out after %v, before its check's %v", event, got, check)
		}
	}
}

// An untrusted project config never runs, and claude is told why once.
func TestStandaloneIgnoresUntrustedConfig(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	evil := filepath.Join(s.Project, "pwned")
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte("[[stop.checks]]\nname = \"x\"\ncommand = \"touch "+evil+"\"\n"), 0o644)
	s.Hooksup(t, "install")
	self := e2e.SimAgentBin
	trace := filepath.Join(s.Project, "trace.jsonl")
	cmd := exec.Command(self, "--settings", filepath.Join(s.Project, ".claude", "settings.local.json"), "-p", "go")
	cmd.Dir = s.Project
	cmd.Env = append(append([]string{}, s.Env...), e2e.EnvSimAgent+"=1", agentsim.EnvTrace+"="+trace)
	cmd.CombinedOutput()
	if _, err := os.Stat(evil); err == nil {
		t.Fatal("an untrusted config's command ran")
	}
	stops := e2e.StopTrace(e2e.ReadTrace(t, trace), "Stop")
	if len(stops) != 1 || !strings.Contains(stops[0].Results[0].Stdout, "not trusted") {
		t.Fatalf("%+v", stops)
	}
}

// Claude ends a hook past its timeout with SIGTERM: the installed hook's check ends with it,
// everything the check started included (here a sleep in the background).
func TestInstalledHookEndsItsCheckWhenTerminated(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	pidFile := filepath.Join(s.Project, "sleep.pid")
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte(fmt.Sprintf(
		"[[stop.checks]]\nname = \"slow\"\ncommand = \"sleep 60 & echo $! > %s; wait\"\n", pidFile)), 0o644)
	s.Hooksup(t, "trust", "--yes")
	s.Hooksup(t, "install")
	hook := exec.Command("/bin/sh", "-c", "exec "+installedStop(t, s))
	hook.Dir, hook.Env = s.Project, s.Env
	hook.Stdin = strings.NewReader(`{"session_id":"s1","cwd":"` + s.Project + `","prompt_id":"p1","hook_event_name":"Stop","stop_hook_active":false}`)
	if err := hook.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- hook.Wait() }()
	var pid int
	for i := 0; i < 500 && pid == 0; i++ {
		time.Sleep(20 * time.Millisecond)
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if pid == 0 {
		hook.Process.Kill()
		t.Fatal("the check never started its sleep")
	}
	defer syscall.Kill(pid, syscall.SIGKILL)
	time.Sleep(100 * time.Millisecond) // the hook has been running a while: claude's timeout
	if err := hook.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		hook.Process.Kill()
		t.Fatal("the hook did not end on SIGTERM")
	}
	for i := 0; syscall.Kill(pid, 0) == nil; i++ {
		if i == 250 {
			t.Fatalf("the check's sleep (pid %d) outlived the hook", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Under a supervisor, an installed hook steps aside: one verdict per stop, not two.
func TestInstalledHookStepsAsideUnderTheSupervisor(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte("mode = \"auto\"\n"), 0o644)
	s.Hooksup(t, "trust", "--yes")
	s.Hooksup(t, "install")
	r := s.RunSim(s.Config(`mode = "auto"`), agentsim.Scenario{}, "--settings", filepath.Join(s.Project, ".claude", "settings.local.json"), "-p", "x")
	if got := e2e.Decisions(r.Verdicts); got != "Stop:allow/nochecks" {
		t.Fatalf("verdicts %s", got)
	}
	stops := e2e.StopTrace(r.Trace, "Stop")
	if len(stops) != 1 || len(stops[0].Results) != 2 {
		t.Fatalf("%+v", stops)
	}
}

// hooksup log -f prints verdicts as they are appended.
func TestLogFollow(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	dir := filepath.Join(verdictlog.SessionsDir(s.StateDir()), "sess-1")
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, "verdicts.jsonl")
	line := func(decision hooks.Decision, source verdictlog.Source) string {
		b, _ := json.Marshal(verdictlog.Verdict{SessionID: "sess-1", Event: "Stop", Decision: decision, Source: source, MaxContinuations: 3})
		return string(b) + "\n"
	}
	os.WriteFile(path, []byte(line("block", "check:tests")), 0o600)
	waitOut := startLogFollow(t, s)
	waitOut("Stop → block: continued (check tests failed)")
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(line("allow", "limit"))
	f.Close()
	waitOut("Stop → allow: let stop (limit reached)")
}

// hooksup log -f, following the latest session, moves on to a newer one when it starts, with
// its heading; --session accepts the 8 characters of an id hooksup shows everywhere, and says
// when they name more than one session.
func TestLogFollowMovesOnAndTakesAShortID(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	sessions := verdictlog.SessionsDir(s.StateDir())
	write := func(id string, decision hooks.Decision, source verdictlog.Source) {
		dir := filepath.Join(sessions, id)
		os.MkdirAll(dir, 0o700)
		b, _ := json.Marshal(verdictlog.Verdict{SessionID: id, Event: "Stop", Decision: decision, Source: source, MaxContinuations: 3})
		f, _ := os.OpenFile(filepath.Join(dir, "verdicts.jsonl"), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o600)
		f.Write(append(b, '\n'))
		f.Close()
	}
	write("1a2b3c4d-0000-4000-8000-000000000001", "block", "check:tests")
	waitOut := startLogFollow(t, s)
	waitOut("Stop → block: continued (check tests failed)")
	write("9f8e7d6c-0000-4000-8000-000000000002", "allow", "checks")
	waitOut("session 9f8e7d6c-0000-4000-8000-000000000002")
	waitOut("Stop → allow: let stop (checks passed)")
	write("9f8e7d6c-0000-4000-8000-000000000002", "block", "manual")
	waitOut("Stop → block: continued by you")

	code, text := s.Hooksup(t, "log", "--session", "1a2b3c4d")
	if code != 0 || !strings.Contains(text, "session 1a2b3c4d-0000-4000-8000-000000000001") || !strings.Contains(text, "Stop → block: continued (check tests failed)") {
		t.Errorf("log --session with the short id: %d %s", code, text)
	}
	write("1a2b3c4d-ffff-4000-8000-000000000003", "allow", "checks")
	if code, text := s.Hooksup(t, "log", "--session", "1a2b3c4d"); code != 1 || !strings.Contains(text, "names 2 sessions") {
		t.Errorf("log --session with an ambiguous short id: %d %s", code, text)
	}
}

// startLogFollow runs hooksup log -f in s and returns a wait for text on its output (5 s at
// most).
func startLogFollow(t *testing.T, s *e2e.Sandbox) func(want string) {
	t.Helper()
	cmd := e2e.ExecHooksup(s, "log", "-f")
	out := &syncWriter{}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return func(want string) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if strings.Contains(out.String(), want) {
				return
			}
		}
		t.Fatalf("log -f printed %q, want %q", out.String(), want)
	}
}

type syncWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// A verdict log written by an earlier hooksup reads as it did then, in text and in JSON.
func TestLogReadsAnOldLog(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	old, err := os.ReadFile(filepath.Join("testdata", "oldlog", "verdicts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "oldlog", "log.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(verdictlog.SessionsDir(s.StateDir()), "4312ba3d-1111-2222-3333-444455556666")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "verdicts.jsonl"), old, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := e2e.ExecHooksup(s, "log", "--session", "4312ba3d") // of no project: an old log names none
	cmd.Env = append(cmd.Env, "TZ=UTC")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(want) {
		t.Fatalf("hooksup log of an old log:\n%s\nwant:\n%s", out, want)
	}
	out, err = e2e.ExecHooksup(s, "log", "--json").Output()
	if err != nil || string(out) != string(old) {
		t.Fatalf("hooksup log --json of an old log (err %v):\n%s\nwant:\n%s", err, out, old)
	}
}

// install --scope project writes the settings file the team shares (.claude/settings.json, in
// git): its hook names hooksup as every machine finds it on its PATH, never this machine's path
// to it, and runs the checks wherever hooksup is installed. Where this machine's PATH has no
// hooksup, install says so on stderr, with the way out.
func TestInstallProjectScopeRunsHooksupFromPath(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte("mode = \"auto\"\n[[stop.checks]]\nname = \"t\"\ncommand = \"echo FAIL: TestZ; exit 1\"\n"), 0o644)
	s.Hooksup(t, "trust", "--yes")
	settings := filepath.Join(s.Project, ".claude", "settings.json")
	// An earlier install from this machine named its own path: it is replaced.
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/old/bin/hooksup-hook --agent claude Stop --installed"}]}]}}`), 0o644)
	bin := t.TempDir()
	if err := os.Symlink(e2e.HooksupBin, filepath.Join(bin, "hooksup")); err != nil {
		t.Fatal(err)
	}
	env := append(append([]string{}, s.Env...), "PATH="+bin+":/usr/bin:/bin")
	cmd := e2e.ExecHooksup(s, "install", "--scope", "project")
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("install --scope project: %v\nstdout:\n%s\nstderr:\n%s", err, &stdout, &stderr)
	}
	b, _ := os.ReadFile(settings)
	want := map[string]string{"Stop": "hooksup hook --agent claude Stop --installed", "SubagentStop": "hooksup hook --agent claude SubagentStop --installed"}
	var got struct {
		Hooks map[string][]hooks.MatcherGroup `json:"hooks"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for ev, w := range want {
		if g := got.Hooks[ev]; len(g) != 1 || len(g[0].Hooks) != 1 || g[0].Hooks[0].Command != w {
			t.Errorf("%s hooks %+v, want the one command %q", ev, g, w)
		}
	}
	if strings.Contains(string(b), s.Project) || strings.Contains(string(b), filepath.Dir(e2e.HooksupBin)) || strings.Contains(string(b), "/old/") {
		t.Errorf("the shared settings name a path of this machine:\n%s", b)
	}
	if !strings.Contains(stdout.String(), "PATH") {
		t.Errorf("install does not say the hook runs hooksup from each machine's PATH:\n%s", &stdout)
	}
	// The hook runs the checks, through the hooksup on the PATH.
	hook := exec.Command("/bin/sh", "-c", want["Stop"])
	hook.Dir, hook.Env = s.Project, env
	hook.Stdin = strings.NewReader(`{"session_id":"s1","cwd":"` + s.Project + `","prompt_id":"p1","hook_event_name":"Stop","stop_hook_active":false}`)
	if out, err := hook.Output(); err != nil || !strings.Contains(string(out), `"decision":"block"`) || !strings.Contains(string(out), "FAIL: TestZ") {
		t.Fatalf("the installed hook: %v: %s", err, out)
	}

	// No hooksup on this machine's PATH: the same file, and a warning.
	cmd = e2e.ExecHooksup(s, "install", "--scope", "project")
	cmd.Env = append(append([]string{}, s.Env...), "PATH=/usr/bin:/bin")
	stdout.Reset()
	stderr.Reset()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("install --scope project without hooksup on the PATH: %v\n%s%s", err, &stdout, &stderr)
	}
	if w := "hooksup: warning: no hooksup on your PATH"; !strings.Contains(stderr.String(), w) || !strings.Contains(stderr.String(), "--scope local") {
		t.Errorf("stderr does not warn %q and name --scope local:\n%s", w, &stderr)
	}
	if again, _ := os.ReadFile(settings); !bytes.Equal(again, b) {
		t.Errorf("the second install changed the file:\n%s", again)
	}

	// uninstall removes it, and nothing else is left.
	if code, out := s.Hooksup(t, "uninstall", "--scope", "project"); code != 0 || !strings.Contains(out, "removed") {
		t.Fatalf("uninstall: %d %s", code, out)
	}
	if b, err := os.ReadFile(settings); err == nil && strings.Contains(string(b), "--installed") {
		t.Fatalf("uninstall left:\n%s", b)
	}
}
