package claude

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// These tests run `hooksup claude` with the real Claude Code 2.1.330, offline, against the
// mock Messages API (in a loopback-only network namespace when the tests run as root).

// f: a failing claude's status reaches the caller.
func TestClaudeExitStatusPassesThrough(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Error(529, "overloaded_error", "Overloaded")}})
	res := rc.Hooksup("--config", rc.Config(`mode = "auto"`), "claude", "-p", "hi")
	if res.ExitCode != 1 {
		t.Fatalf("exit %d, want claude's 1; stderr %q", res.ExitCode, res.Stderr)
	}
}

// d: a failing subagent check makes the subagent (not the main agent) continue; steers are
// counted per agent.
func TestClaudeSubagentStop(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{
		Main:     []mockapi.Reply{mockapi.ForegroundAgent("Look around", "List the files", "general-purpose"), mockapi.Text("All done.")},
		Subagent: []mockapi.Reply{mockapi.Text("Subagent: first try."), mockapi.Text("Subagent: fixed.")},
	})
	marker := filepath.Join(rc.Env.Home, "sub-once")
	cfg := rc.Config(fmt.Sprintf(`
mode = "auto"
[subagent_stop]
max_steers = 2
[[subagent_stop.checks]]
name = "sub-review"
command = "test -f %[1]s || { touch %[1]s; echo 'subagent: cite the file names'; exit 1; }"
`, marker))
	res := rc.Hooksup("--config", cfg, "claude", "-p", "explore")
	if res.ExitCode != 0 || res.Stdout != "All done.\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	sub := rc.Srv.Subagent()
	if len(sub) != 2 || !strings.Contains(sub[1].LastUserText(), "subagent: cite the file names") {
		t.Fatalf("subagent requests %d; last: %q", len(sub), e2e.LastUser(sub))
	}
	if n := len(rc.Srv.Main()); n != 2 {
		t.Fatalf("the main agent made %d requests, want 2 (it must not be steered)", n)
	}
	vs := rc.Verdicts()
	if got := e2e.Decisions(vs); got != "SubagentStop:block/check:sub-review SubagentStop:allow/checks Stop:allow/nochecks" {
		t.Fatalf("verdicts %s", got)
	}
	if vs[0].AgentID == "" || vs[0].AgentID != vs[1].AgentID || vs[0].Steers != 1 || vs[0].AgentType != "general-purpose" {
		t.Fatalf("subagent verdicts %+v / %+v", vs[0], vs[1])
	}
}
