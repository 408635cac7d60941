package main

import (
	"strings"
	"testing"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/verdictlog"
)

// A headless run whose checks never passed — the continuation limit let the agent stop — exits
// 0 as the agent did; --strict, or [stop] strict = true, makes it exit 3, for a script or CI to
// tell. The agent's own failure comes first: it keeps its status.
func TestHeadlessStrictExitStatus(t *testing.T) {
	t.Parallel()
	failing := `
mode = "auto"
[stop]
max_continuations = 1%s
[[stop.checks]]
name = "lint"
command = "echo 'lint: 4 problems'; exit 1"
`
	for _, tc := range []struct {
		name   string
		flags  []string
		strict string // the [stop] table's line
		sc     agentsim.Scenario
		checks string // "" for the failing check
		want   int
	}{
		{name: "limit, not strict", want: 0},
		{name: "limit, --strict", flags: []string{"--strict"}, want: 3},
		{name: "limit, [stop] strict", strict: "\nstrict = true", want: 3},
		{name: "limit, --strict, the agent failed", flags: []string{"--strict"}, sc: agentsim.Scenario{ExitCode: 5}, want: 5},
		{name: "passing, --strict", flags: []string{"--strict"}, checks: "mode = \"auto\"\n[[stop.checks]]\nname = \"ok\"\ncommand = \"true\"\n", want: 0},
		{name: "no checks, --strict", flags: []string{"--strict"}, checks: "mode = \"auto\"\n", want: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := e2e.NewSandbox(t)
			cfg := tc.checks
			if cfg == "" {
				cfg = strings.Replace(failing, "%s", tc.strict, 1)
			}
			r := s.RunSimFlags(tc.flags, s.Config(cfg), tc.sc, "-p", "x")
			if r.Code != tc.want {
				t.Fatalf("exit %d, want %d; verdicts %s; stderr:\n%s", r.Code, tc.want, e2e.Decisions(r.Verdicts), r.Stderr)
			}
			if tc.want == 3 && !strings.Contains(r.Stderr, "hooksup: the agent stopped with the check lint still failing (strict: exit 3)") {
				t.Errorf("stderr does not say why the exit status is 3:\n%s", r.Stderr)
			}
		})
	}
}

// What a strict run counts as stopping with a check failing, whoever let the agent stop.
func TestHeadlessStrictFailingChecks(t *testing.T) {
	t.Parallel()
	block := verdictlog.Verdict{Event: hooks.Stop, Decision: hooks.Block, Source: verdictlog.CheckSource("tests"),
		Checks: []verdictlog.CheckRecord{{Name: "tests", ExitCode: 1}}}
	for _, tc := range []struct {
		name     string
		verdicts []verdictlog.Verdict
		want     string
	}{
		{"the checks passed", []verdictlog.Verdict{{Event: hooks.Stop, Decision: hooks.Allow, Source: verdictlog.SourceChecks,
			Checks: []verdictlog.CheckRecord{{Name: "tests"}}}}, ""},
		{"the limit let it stop", []verdictlog.Verdict{block, {Event: hooks.Stop, Decision: hooks.Allow, Source: verdictlog.SourceLimit}},
			"the agent stopped with the check tests still failing (strict: exit 3)"},
		{"blocked, then passed", []verdictlog.Verdict{block, {Event: hooks.Stop, Decision: hooks.Allow, Source: verdictlog.SourceChecks}}, ""},
		{"the person let it stop", []verdictlog.Verdict{{Event: hooks.Stop, Decision: hooks.Allow, Source: verdictlog.SourceManual,
			Proposal: &verdictlog.Proposal{Decision: hooks.Block, Source: verdictlog.CheckSource("tests")}}}, "the agent stopped with the check tests still failing (strict: exit 3)"},
		{"the person ended the turn", []verdictlog.Verdict{{Event: hooks.Stop, Decision: hooks.Halt, Source: verdictlog.SourceManual,
			Proposal: &verdictlog.Proposal{Decision: hooks.Block, Source: verdictlog.CheckSource("tests")}}}, "the agent stopped with the check tests still failing (strict: exit 3)"},
		{"a check that only warns", []verdictlog.Verdict{{Event: hooks.Stop, Decision: hooks.Allow, Source: verdictlog.SourceChecks,
			Checks: []verdictlog.CheckRecord{{Name: "tests"}, {Name: "lint", ExitCode: 1}, {Name: "vet", TimedOut: true, ExitCode: -1}}}},
			"the agent stopped with the checks lint and vet still failing (strict: exit 3)"},
		{"Escape stopped the checks", []verdictlog.Verdict{{Event: hooks.Stop, Decision: hooks.Allow, Source: verdictlog.SourceEscape,
			Checks: []verdictlog.CheckRecord{{Name: "tests", ExitCode: -1, Error: checks.Interrupted}}}}, ""},
		{"Escape after a check failed", []verdictlog.Verdict{block, {Event: hooks.Stop, Decision: hooks.Allow, Source: verdictlog.SourceEscape,
			Checks: []verdictlog.CheckRecord{{Name: "tests", ExitCode: -1, Error: checks.Interrupted}}}},
			"the agent stopped with the check tests still failing (strict: exit 3)"},
		{"Escape in the next turn", []verdictlog.Verdict{block, {Event: hooks.Stop, Turn: 1, Decision: hooks.Allow, Source: verdictlog.SourceEscape}}, ""},
		{"a subagent's stop is not the agent's", []verdictlog.Verdict{{Event: hooks.Stop, Decision: hooks.Allow, Source: verdictlog.SourceChecks},
			{Event: hooks.SubagentStop, AgentID: "a1", Decision: hooks.Allow, Source: verdictlog.SourceLimit,
				Checks: []verdictlog.CheckRecord{{Name: "sub", ExitCode: 1}}}}, ""},
		{"a hostile name", []verdictlog.Verdict{{Event: hooks.Stop, Decision: hooks.Allow, Source: verdictlog.SourceTimeout,
			Proposal: &verdictlog.Proposal{Decision: hooks.Block, Source: verdictlog.CheckSource("t\x1b[2Jx")}}},
			`the agent stopped with the check t\e[2Jx still failing (strict: exit 3)`},
	} {
		var l lastStop
		for _, v := range tc.verdicts {
			l.add(v)
		}
		if got := l.strictNote(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
