package tui

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/verdictlog"
)

// Denying a forced continuation: the verdict log keeps what the checks proposed and was
// denied, and both when the stop was asked and when it was decided.
func TestDenyRecordsTheProposal(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config("mode = \"ask\"\n[[stop.checks]]\nname = \"gate\"\ncommand = \"echo 'FAIL: TestGate'; exit 1\"\n")
	tm := e2e.SimTUI(t, s, agentsim.Scenario{Prompts: []string{"go"}}, "--config", cfg)
	const wait = 20 * time.Second
	tm.WaitText(wait, "⚑ claude wants to stop", "FAIL: TestGate")
	time.Sleep(time.Second) // the person takes a moment
	tm.Keys("C-]", "d")
	tm.WaitText(wait, "let stop by you", "claude exited with status 0")

	vs, errs := verdictlog.Read(strings.NewReader(e2e.HooksupOut(t, s, "log", "--json")))
	if len(errs) > 0 || len(vs) != 1 {
		t.Fatalf("verdicts %+v %v", vs, errs)
	}
	v := vs[0]
	if v.Decision != "allow" || v.Source != verdictlog.SourceManual || v.Proposal == nil {
		t.Fatalf("verdict %+v", v)
	}
	if p := v.Proposal; p.Decision != "block" || p.Source != "check:gate" || !strings.Contains(p.Reason, "FAIL: TestGate") {
		t.Fatalf("proposal %+v", p)
	}
	if v.Asked.IsZero() || v.Time.Sub(v.Asked) < time.Second {
		t.Fatalf("asked %v, decided %v: the time is not when the person decided", v.Asked, v.Time)
	}
	text := e2e.HooksupOut(t, s, "log")
	if !strings.Contains(text, "Stop → allow: let stop by you") || !strings.Contains(text, "proposed: block (check gate): The check \"gate\"") {
		t.Fatalf("hooksup log:\n%s", text)
	}
}

// Manual mode with no checks configured says so instead of "the checks say"; the verdict's
// source reads "no checks".
func TestManualWithoutChecksSaysNoChecks(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	tm := e2e.SimTUI(t, s, agentsim.Scenario{Prompts: []string{"go"}}, "--config", s.Config(`mode = "manual"`))
	const wait = 20 * time.Second
	scr := tm.WaitText(wait, "⚑ claude wants to stop")
	if !strings.Contains(scr, "⚑ claude wants to stop — no checks: it may stop") || strings.Contains(scr, "the checks say") {
		t.Fatalf("banner:\n%s", scr)
	}
	tm.Keys("C-]", "d")
	tm.WaitText(wait, "let stop by you", "claude exited with status 0")

	s2 := e2e.NewSandbox(t)
	tm2 := e2e.SimTUI(t, s2, agentsim.Scenario{Prompts: []string{"go"}}, "--config", s2.Config(`mode = "auto"`))
	scr = tm2.WaitText(wait, "claude exited with status 0", "let stop (no checks)")
	if strings.Contains(scr, "let stop (checks passed)") {
		t.Fatalf("verdicts pane:\n%s", scr)
	}
	if out := e2e.HooksupOut(t, s2, "log"); !strings.Contains(out, "Stop → allow: let stop (no checks)") {
		t.Fatalf("hooksup log:\n%s", out)
	}
}

// The checks pane lists the configured checks before any has run.
func TestChecksPaneListsTheChecksBeforeTheyRun(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config(`mode = "auto"
[[stop.checks]]
name = "unit"
command = "echo unit-ok"
[[stop.checks]]
name = "vet"
command = "echo vet-ok"
[[subagent_stop.checks]]
name = "review"
command = "echo review-ok"
`)
	tm := e2e.SimTUI(t, s, agentsim.Scenario{Prompts: []string{"go"}, WorkDelay: agentsim.Duration{Duration: 3 * time.Second}}, "--config", cfg)
	scr := tm.WaitText(20*time.Second, "unit", "echo unit-ok", "vet", "echo vet-ok", "review", "echo review-ok")
	if strings.Contains(scr, "allow") {
		t.Fatalf("the checks had run already:\n%s", scr)
	}
}

// After the person declines to trust the project's config, the TUI keeps saying that its
// checks are ignored.
func TestTrustDeclinedNoticeStays(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.WriteFile(s.Project+"/.hooksup.toml", []byte("[[stop.checks]]\nname = \"x\"\ncommand = \"true\"\n"), 0o644)
	tm := e2e.SimTUI(t, s, agentsim.Scenario{Prompts: []string{"go"}, WorkDelay: agentsim.Duration{Duration: 2 * time.Second}})
	const wait = 20 * time.Second
	tm.WaitText(wait, "Trust this exact content? [y/N]")
	tm.Keys("Enter")
	// While claude works: in the header and in the checks pane.
	tm.WaitText(wait, "project checks ignored: not trusted", ".hooksup.toml is not trusted: its checks are")
	scr := tm.WaitText(wait, "claude exited with status 0", "let stop (no checks)")
	if !strings.Contains(scr, ".hooksup.toml is not trusted: its checks are") {
		t.Fatalf("the notice is gone once claude stopped:\n%s", scr)
	}
}
