package headless

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/internal/agentsim"
)

func TestSimNoChecksOneAllowVerdict(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	r := s.RunSim(s.Config(`mode = "auto"`), agentsim.Scenario{}, "-p", "hello")
	if r.Code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	if r.Stdout != "Answer to turn 1.\n" {
		t.Fatalf("claude's stdout did not reach the caller unchanged: %q", r.Stdout)
	}
	if got := e2e.Decisions(r.Verdicts); got != "Stop:allow/nochecks" {
		t.Fatalf("verdicts: %s", got)
	}
	if !strings.Contains(r.Stderr, "hooksup: Stop → allow: let stop (no checks) 0/3") {
		t.Fatalf("headless verdict line missing from stderr:\n%s", r.Stderr)
	}
	// In print mode no SessionStart hook is injected: claude would report it on stdout.
	if tr := e2e.StopTrace(r.Trace, "SessionStart"); len(tr) != 1 || len(tr[0].Results) != 0 {
		t.Errorf("SessionStart: %+v", tr)
	}
	// Every injected hook reached the supervisor and answered nothing for observation events.
	for _, ev := range []string{"UserPromptSubmit", "Stop", "SessionEnd"} {
		tr := e2e.StopTrace(r.Trace, ev)
		if len(tr) != 1 || len(tr[0].Results) != 1 || tr[0].Results[0].Exit != 0 || tr[0].Results[0].Stdout != "" {
			t.Errorf("%s: %+v", ev, tr)
			continue
		}
		// The dedicated client beside hooksup runs the hooks: short command, fast start.
		if c := tr[0].Results[0].Command; c != e2e.HookClientBin+" "+ev {
			t.Errorf("%s hook command %q, want %q", ev, c, e2e.HookClientBin+" "+ev)
		}
	}
}

func TestSimCheckFailingOnceThenPassing(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "tests"
command = "test -f %[1]s || { touch %[1]s; echo 'FAIL TestParse: want 2, got 3'; exit 1; }"
`, filepath.Join(s.Project, "marker")))
	r := s.RunSim(cfg, agentsim.Scenario{}, "-p", "fix it")
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r.Stderr)
	}
	if got := e2e.Decisions(r.Verdicts); got != "Stop:block/check:tests Stop:allow/checks" {
		t.Fatalf("verdicts: %s", got)
	}
	stops := e2e.StopTrace(r.Trace, "Stop")
	if len(stops) != 2 || !stops[0].Block || stops[1].Block {
		t.Fatalf("claude saw %+v", stops)
	}
	if !strings.Contains(stops[0].Reasons[0], "FAIL TestParse: want 2, got 3") || !strings.Contains(stops[0].Reasons[0], `"tests" failed`) {
		t.Fatalf("reason %q", stops[0].Reasons[0])
	}
	if stops[1].Input["stop_hook_active"] != true {
		t.Fatal("second Stop not marked stop_hook_active")
	}
	// Each verdict carries what the session looked like: the last message from the hook, and
	// the transcript's model and tokens (the first answer was written long before this stop).
	o := r.Verdicts[1].Observation
	if o == nil || o.LastMessage != "Answer to turn 1, attempt 2." || o.Model != "claude-sim" || o.OutputTokens < 5 || o.InputTokens < 10 {
		t.Fatalf("observation %+v", o)
	}
}

func TestSimAlwaysFailingCheckHitsTheLimit(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config(`
mode = "auto"
[stop]
max_continuations = 3
[[stop.checks]]
name = "lint"
command = "echo 'lint: 4 problems'; exit 1"
`)
	r := s.RunSim(cfg, agentsim.Scenario{}, "-p", "x")
	want := "Stop:block/check:lint Stop:block/check:lint Stop:block/check:lint Stop:allow/limit"
	if got := e2e.Decisions(r.Verdicts); got != want {
		t.Fatalf("verdicts: %s", got)
	}
	if len(e2e.StopTrace(r.Trace, "Stop")) != 4 {
		t.Fatalf("claude stopped %d times", len(e2e.StopTrace(r.Trace, "Stop")))
	}
	if !strings.Contains(r.Stderr, "Stop → block: continued (check lint failed) 1/3") || !strings.Contains(r.Stderr, "Stop → allow: let stop (limit reached) 3/3") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
}

func TestSimSubagentSteersPerAgent(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config(`
mode = "auto"
[subagent_stop]
max_steers = 2
[[subagent_stop.checks]]
name = "sub"
command = "echo 'subagent: not done'; exit 1"
`)
	r := s.RunSim(cfg, agentsim.Scenario{Subagents: 2}, "-p", "x")
	subs := e2e.StopTrace(r.Trace, "SubagentStop")
	if len(subs) != 6 { // two agents × (2 blocks + 1 allow)
		t.Fatalf("%d SubagentStops", len(subs))
	}
	perAgent := map[string][]int{}
	for _, v := range r.Verdicts {
		if v.Event == "SubagentStop" {
			perAgent[v.AgentID] = append(perAgent[v.AgentID], v.Steers)
		}
	}
	if len(perAgent) != 2 {
		t.Fatalf("agents: %v", perAgent)
	}
	for id, steers := range perAgent {
		if fmt.Sprint(steers) != "[1 2 2]" {
			t.Errorf("agent %s steers %v", id, steers)
		}
	}
}

func TestSimExitStatusPassesThrough(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	r := s.RunSim(s.Config(`mode = "auto"`), agentsim.Scenario{ExitCode: 7}, "-p", "x")
	if r.Code != 7 {
		t.Fatalf("exit %d, want 7", r.Code)
	}
}

func TestSimObserveNeverBlocks(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config("mode = \"observe\"\n[[stop.checks]]\nname = \"t\"\ncommand = \"exit 1\"\n")
	r := s.RunSim(cfg, agentsim.Scenario{}, "-p", "x")
	if got := e2e.Decisions(r.Verdicts); got != "Stop:allow/observe" {
		t.Fatalf("verdicts: %s", got)
	}
}

func TestSimLeavesNoSocketOrSettingsBehind(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	s.RunSim(s.Config(`mode = "auto"`), agentsim.Scenario{}, "-p", "x")
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(s.Home), "run", "hooksup", "*"))
	if len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

func TestBrokenConfigIsAClearError(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	r := s.RunSim(s.Config("mode = \"auto\"\n[stop]\nmax_continuation = 3\n"), agentsim.Scenario{}, "-p", "x")
	if r.Code == 0 || !strings.Contains(r.Stderr, "test.toml:3: stop.max_continuation: unknown key") {
		t.Fatalf("exit %d stderr %q", r.Code, r.Stderr)
	}
	if len(r.Trace) != 0 {
		t.Fatal("claude ran with a broken config")
	}
}

func TestMissingClaudeIsAClearError(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cmd := e2e.ExecHooksup(s, "--claude-bin", "/nonexistent/claude", "claude", "-p", "x")
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() == 0 || !strings.Contains(string(out), "claude not found") || !strings.Contains(string(out), "--claude-bin") {
		t.Fatalf("exit %d: %s", cmd.ProcessState.ExitCode(), out)
	}
}

func TestLogShowsTheLatestSession(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config("mode = \"auto\"\n[[stop.checks]]\nname = \"lint\"\ncommand = \"echo nope; exit 1\"\n[stop]\nmax_continuations = 1\n")
	r := s.RunSim(cfg, agentsim.Scenario{}, "-p", "x")
	cmd := e2e.ExecHooksup(s, "log")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	if !strings.Contains(text, "session "+r.Verdicts[0].SessionID) || !strings.Contains(text, "Stop → block: continued (check lint failed) 1/1") ||
		!strings.Contains(text, "Stop → allow: let stop (limit reached) 1/1") || !strings.Contains(text, "reason: The check \"lint\" (`echo nope; exit 1`) failed (exit 1)") {
		t.Fatalf("hooksup log:\n%s", text)
	}
	cmd = e2e.ExecHooksup(s, "log", "--json", "--session", r.Verdicts[0].SessionID)
	out, _ = cmd.Output()
	if lines := strings.Count(string(out), "\n"); lines != 2 || !strings.HasPrefix(string(out), `{"time":`) {
		t.Fatalf("--json:\n%s", out)
	}
}

func TestHookWithoutSupervisorAllows(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cmd := e2e.ExecHooksup(s, "hook", "Stop")
	cmd.Stdin = strings.NewReader(`{"session_id":"x","hook_event_name":"Stop"}`)
	out, err := cmd.Output()
	if err != nil || len(out) != 0 {
		t.Fatalf("err %v out %q", err, out)
	}
}
