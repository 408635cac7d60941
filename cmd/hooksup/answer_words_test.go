package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/web"
)

// hooksup approve and deny say what they did in the words the TUI's keys use, and hooksup log
// says of each verdict both the decision it records and what it did to the agent.
func TestApproveAndDenyReadInTheLog(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config("mode = \"ask\"\n[stop]\nmax_continuations = 2\n[[stop.checks]]\nname = \"tests\"\ncommand = \"exit 1\"\n")
	tm := e2e.SimTUI(t, s, agentsim.Scenario{Prompts: []string{"go"}}, "--config", cfg)
	const wait = 20 * time.Second
	tm.WaitText(wait, "⚑ claude wants to stop")
	first := pendingQuestion(t, s, 0, wait)
	if code, out := s.Hooksup(t, "approve"); code != 0 || !strings.Contains(out, "approve: the agent continues after Stop in session") {
		t.Fatalf("hooksup approve: exit %d\n%s", code, out)
	}
	pendingQuestion(t, s, first, wait) // the second stop's
	if code, out := s.Hooksup(t, "deny"); code != 0 || !strings.Contains(out, "deny: the agent may stop at Stop in session") {
		t.Fatalf("hooksup deny: exit %d\n%s", code, out)
	}
	tm.WaitText(wait, "claude exited with status 0")
	text := e2e.HooksupOut(t, s, "log")
	for _, want := range []string{
		"Stop → block: continued by you (hooksup approve) 1/2",
		"Stop → allow: let stop by you (hooksup deny) 1/2",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("hooksup log lacks %q:\n%s", want, text)
		}
	}
}

// approve's and deny's help say what each does to the agent, in the TUI's words, both as
// hooksup help CMD and as CMD --help.
func TestApproveAndDenySayWhatTheyDo(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	for cmd, want := range map[string]string{
		"approve": `approve the forced continuation: the agent continues (the TUI's "continue"; hooksup log says "block: continued")`,
		"deny":    `deny the forced continuation: the agent may stop (the TUI's "let it stop"; hooksup log says "allow: let stop")`,
	} {
		for _, args := range [][]string{{"help", cmd}, {cmd, "--help"}} {
			code, out := s.Hooksup(t, args...)
			if code != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
				t.Errorf("hooksup %s: exit %d, want %q:\n%s", strings.Join(args, " "), code, want, out)
			}
		}
	}
}

// pendingQuestion waits until the one session in the sandbox has a question pending other than
// question not, and returns its id.
func pendingQuestion(t *testing.T, s *e2e.Sandbox, not int, timeout time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		out, err := e2e.ExecHooksup(s, "ls", "--json", "--local").Output()
		var ls []web.Session
		if err == nil && json.Unmarshal(out, &ls) == nil && len(ls) == 1 && len(ls[0].Pending) > 0 && ls[0].Pending[0].ID != not {
			return ls[0].Pending[0].ID
		}
		if time.Now().After(deadline) {
			t.Fatalf("no question pending but %d: %v\n%s", not, err, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
