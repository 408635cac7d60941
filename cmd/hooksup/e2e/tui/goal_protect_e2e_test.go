package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/verdictlog"
)

// writeFiles writes each file (path relative to dir: content), making its directories.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A stop that deletes a test is not done: the test check passes, but runs fewer tests than at
// the goal's start, and the agent continues, told which count fell; once the test is back, the
// goal is reached.
func TestGoalFewerTestsIsNotDone(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{
		mockapi.Bash("rm t/b.t", "Remove the failing test"), mockapi.Text("all tests pass"),
		mockapi.Bash("touch t/b.t", "Bring the test back"), mockapi.Text("restored"),
	}})
	writeFiles(t, rc.Env.WorkDir, map[string]string{"t/a.t": "a\n", "t/b.t": "b\n"})
	// A runner's summary as unittest prints it: one test per file in t/.
	cfg := rc.Config("mode = \"auto\"\n[[stop.checks]]\nname = \"tests\"\ncommand = 'echo \"Ran $(ls t | wc -l | tr -d \" \") tests in 0.001s\"'\n")
	res := rc.Hooksup("--config", cfg, "--goal", "make the tests pass", "claude", "-p", "go", "--allowedTools", "Bash")
	if res.ExitCode != 0 || res.Stdout != "restored\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	main := rc.Srv.Main()
	if len(main) != 4 {
		t.Fatalf("%d model requests, want 4; stderr %q", len(main), res.Stderr)
	}
	fb := e2e.StopFeedback(t, main[2])
	for _, want := range []string{"the check tests ran 1 test, 2 tests at the goal's start", "> make the tests pass", "Goal turn 1 of 20"} {
		if !strings.Contains(fb, want) {
			t.Errorf("the continuation lacks %q:\n%s", want, fb)
		}
	}
	vs := rc.VerdictsJSON()
	if got := e2e.Decisions(vs); got != "Stop:block/goal Stop:allow/checks" {
		t.Fatalf("verdicts %s", got)
	}
	if g := vs[0].Goal; g == nil || g.Turn != 1 {
		t.Fatalf("first stop's goal %+v", g)
	}
	if g := vs[1].Goal; g == nil || g.End != verdictlog.GoalReached {
		t.Fatalf("last stop's goal %+v", g)
	}
}

// An edit to a protected file pauses the goal; headless, nobody can let it go on, so it ends
// paused, naming the file: exit 3, and the stop is no pass.
func TestGoalProtectedEditPauses(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{
		mockapi.Bash("echo 't.Skip()' >> pkg/add_test.go", "Skip the test"), mockapi.Text("done"), mockapi.Text("more"),
	}})
	writeFiles(t, rc.Env.WorkDir, map[string]string{"pkg/add_test.go": "package pkg\n", "pkg/add.go": "package pkg\n"})
	res := rc.Hooksup("--goal", "fix the adder", "--protect", "*_test.go", "claude", "-p", "go", "--allowedTools", "Bash")
	if res.ExitCode != 3 {
		t.Fatalf("exit %d, want 3; stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if n := len(rc.Srv.Main()); n != 2 {
		t.Fatalf("%d model requests, want 2", n)
	}
	if !strings.Contains(res.Stderr, "hooksup: the goal was not reached: paused: the agent changed what the goal protects: pkg/add_test.go\n") {
		t.Errorf("stderr %q", res.Stderr)
	}
	vs := rc.VerdictsJSON()
	last := vs[len(vs)-1]
	if last.Goal == nil || last.Goal.End != verdictlog.GoalPaused || last.Goal.Paused != "pkg/add_test.go" {
		t.Fatalf("last %+v goal %+v", last, last.Goal)
	}
}

// A change to the project's configuration pauses the goal as a protected file's does, with no
// --protect: the agent cannot loosen the checks that judge it.
func TestGoalConfigEditPauses(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{
		mockapi.Bash("echo 'mode = \"observe\"' > .hooksup.toml", "Loosen the checks"), mockapi.Text("done"), mockapi.Text("more"),
	}})
	writeFiles(t, rc.Env.WorkDir, map[string]string{".hooksup.toml": "[[stop.checks]]\nname = \"tests\"\ncommand = \"true\"\n"})
	res := rc.Hooksup("--goal", "fix the adder", "claude", "-p", "go", "--allowedTools", "Bash")
	if res.ExitCode != 3 || !strings.Contains(res.Stderr, "hooksup: the goal was not reached: paused: the agent changed what the goal protects: the configuration .hooksup.toml\n") {
		t.Fatalf("exit %d, want 3; stderr %q", res.ExitCode, res.Stderr)
	}
	if n := len(rc.Srv.Main()); n != 2 {
		t.Fatalf("%d model requests, want 2", n)
	}
}
