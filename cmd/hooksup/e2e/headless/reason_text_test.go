package headless

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/internal/agentsim"
)

// A backspace in a check's output is shown, never obeyed: the agent reads "got 2 expected 1\b",
// not "got 2 expected ", and so do the verdict log, hooksup log and hooksup check.
func TestReasonShowsABackspace(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config("mode = \"auto\"\n[stop]\nmax_continuations = 1\n[[stop.checks]]\nname = \"tests\"\n" +
		"command = \"printf 'FAIL: TestParse\\\\n    parse_test.go:3: got 2 expected 1\\\\b\\\\n'; exit 1\"\n")
	const shown = `got 2 expected 1\b`
	r := s.RunSim(cfg, agentsim.Scenario{}, "-p", "x")
	if len(r.Verdicts) == 0 || !strings.Contains(r.Verdicts[0].Reason, shown+"\n") && !strings.HasSuffix(r.Verdicts[0].Reason, shown) {
		t.Fatalf("the verdict's reason: %+v\n%s", r.Verdicts, r.Stderr)
	}
	stops := e2e.StopTrace(r.Trace, "Stop")
	if len(stops) == 0 || len(stops[0].Reasons) == 0 || !strings.Contains(stops[0].Reasons[0], shown) {
		t.Fatalf("the agent read %+v, want %q in it", stops, shown)
	}
	if out := e2e.HooksupOut(t, s, "log"); !strings.Contains(out, shown) || strings.Contains(out, "\b") {
		t.Errorf("hooksup log:\n%s", out)
	}
	cmd := e2e.ExecHooksup(s, "--config", cfg, "check")
	out, _ := cmd.Output()
	if !strings.Contains(string(out), shown) || strings.Contains(string(out), "\b") {
		t.Errorf("hooksup check:\n%s", out)
	}
}

// pytest -v with many failures, more output than hooksup keeps: the reason the agent reads leads
// with the failing tests' names, never with "file:line: AssertionError" lines that name none.
func TestPytestReasonLeadsWithTheTestsNames(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	var b strings.Builder
	b.WriteString("============================= test session starts ==============================\n" +
		"platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0 -- /usr/bin/python3\ncollecting ... collected 55 items\n\n")
	for i := range 55 {
		fmt.Fprintf(&b, "tests/test_uuid.py::test_case_%d FAILED [%3d%%]\n", i, i*100/55)
	}
	b.WriteString("\n=================================== FAILURES ===================================\n")
	big := strings.Repeat("'abcdef0123456789', ", 1200) // pytest -v prints whole values: 24 kB a failure
	for i := range 55 {
		fmt.Fprintf(&b, "_________________________________ test_case_%d _________________________________\n\n"+
			"    def test_case_%d():\n>       assert parse(%d) == [%s]\nE       AssertionError\n\ntests/test_uuid.py:%d: AssertionError\n", i, i, i, big, 10+i)
	}
	b.WriteString("=========================== short test summary info ============================\n")
	for i := range 55 {
		fmt.Fprintf(&b, "FAILED tests/test_uuid.py::test_case_%d - AssertionError\n", i)
	}
	b.WriteString("============================== 55 failed in 0.12s ===============================\n")
	if b.Len() < 1<<20+100<<10 {
		t.Fatalf("the output is %d bytes: not more than hooksup keeps", b.Len())
	}
	out := filepath.Join(s.Project, "pytest.out")
	os.WriteFile(out, []byte(b.String()), 0o600)
	cfg := s.Config("mode = \"auto\"\n[stop]\nmax_continuations = 1\n[[stop.checks]]\nname = \"tests\"\ncommand = \"cat pytest.out; exit 1\"\n")
	r := s.RunSim(cfg, agentsim.Scenario{}, "-p", "x")
	stops := e2e.StopTrace(r.Trace, "Stop")
	if len(stops) == 0 || len(stops[0].Reasons) == 0 {
		t.Fatalf("the agent read no reason: %+v\n%s", stops, r.Stderr)
	}
	reason := stops[0].Reasons[0]
	lines := strings.Split(reason, "\n")
	if len(lines) < 3 || !strings.Contains(lines[1], "test_case_") {
		t.Fatalf("the reason's quote does not lead with a failing test's name:\n%s", reason)
	}
	if n := strings.Count(reason, "test_case_"); n < 15 {
		t.Errorf("%d mentions of a failing test:\n%s", n, reason)
	}
}

// A check's command of two lines is named in the reason as hooksup trust shows it, its line
// break as \n: never joined with " ; " into another command ("… && ; exit 1" is not shell).
func TestReasonShowsAMultiLineCommandAsTrustDoes(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config("mode = \"auto\"\n[stop]\nmax_continuations = 1\n[[stop.checks]]\nname = \"lint\"\n" +
		"command = \"\"\"echo 2 problems &&\nexit 1\"\"\"\n")
	var shown string
	for _, l := range strings.Split(e2e.HooksupOut(t, s, "trust", "--show", cfg), "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(l), "command:"); ok {
			shown = strings.TrimSpace(c)
		}
	}
	if shown != `echo 2 problems &&\nexit 1` {
		t.Fatalf("hooksup trust shows the command as %q", shown)
	}
	r := s.RunSim(cfg, agentsim.Scenario{}, "-p", "x")
	stops := e2e.StopTrace(r.Trace, "Stop")
	if len(stops) == 0 || len(stops[0].Reasons) == 0 {
		t.Fatalf("the agent read no reason: %+v\n%s", stops, r.Stderr)
	}
	reason := stops[0].Reasons[0]
	if heading, _, _ := strings.Cut(reason, "\n"); !strings.Contains(heading, "(`"+shown+"`)") || strings.Contains(heading, " ; ") {
		t.Errorf("the reason's heading %q does not name the command as trust shows it, %q", heading, shown)
	}
	if len(r.Verdicts) == 0 || r.Verdicts[0].Reason != reason {
		t.Errorf("the verdict log keeps another reason: %+v", r.Verdicts)
	}
}
