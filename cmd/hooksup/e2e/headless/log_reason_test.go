package headless

import (
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/internal/agentsim"
)

// multiLineCheck fails printing three lines, the way a test runner does.
const multiLineCheck = `
[[stop.checks]]
name = "tests"
command = "printf 'FAIL: TestOne\\n    one_test.go:3: got 2, want 1\\nFAIL: TestTwo\\n'; exit 1"
[stop]
max_continuations = 1
`

// hooksup log shows the whole reason the agent read, every line of it indented under its
// verdict, not only its first line.
func TestLogShowsTheWholeReason(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	r := s.RunSim(s.Config("mode = \"auto\"\n"+multiLineCheck), agentsim.Scenario{}, "-p", "x")
	if r.Code != 0 || len(r.Verdicts) == 0 || !strings.Contains(r.Verdicts[0].Reason, "FAIL: TestTwo") {
		t.Fatalf("exit %d, verdicts %+v\n%s", r.Code, r.Verdicts, r.Stderr)
	}
	text := e2e.HooksupOut(t, s, "log")
	const indent = "\n                  "
	for _, want := range []string{
		"Stop → block: continued (check tests failed) 1/1\n          reason: The check \"tests\"",
		indent + "FAIL: TestOne" + indent + "    one_test.go:3: got 2, want 1" + indent + "FAIL: TestTwo\n          check tests: exit 1",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("hooksup log lacks %q:\n%s", want, text)
		}
	}
}

// A continuation whose reason the person edited in the TUI says so in hooksup log, with the
// whole of their reason and the first line of the checks' one.
func TestLogSaysWhoEditedTheReason(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config("mode = \"ask\"\n" + multiLineCheck)
	tm := e2e.SimTUI(t, s, agentsim.Scenario{Prompts: []string{"go"}}, "--config", cfg)
	const wait = 20 * time.Second
	tm.WaitText(wait, "⚑ claude wants to stop", "FAIL: TestTwo")
	tm.Keys("C-]", "e")
	tm.WaitText(wait, "ctrl+c cancel edit")
	tm.Keys("C-l") // another reason than the checks'
	tm.Text("Fix TestOne first.")
	tm.Keys("C-j")
	tm.Text("Then run gofmt.")
	tm.Keys("Enter")
	tm.WaitText(wait, "continued by you", "claude exited with status 0")

	text := e2e.HooksupOut(t, s, "log")
	want := "Stop → block: continued by you 1/1\n" +
		"          reason (edited by you in the TUI): Fix TestOne first.\n" +
		"                  Then run gofmt.\n" +
		"          proposed: block (check tests): The check \"tests\""
	if !strings.Contains(text, want) {
		t.Errorf("hooksup log lacks\n%s\n---\n%s", want, text)
	}
}
