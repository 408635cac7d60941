package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// No progress in the TUI is a question, whatever the mode: the banner says what came again and
// again; continue there sends the agent on with the request to try another way and the goal
// restated, and the goal goes on; the next time, let it stop ends the goal for no progress, in
// the header.
func TestGoalNoProgressAskedInTheTUI(t *testing.T) {
	t.Parallel()
	e2e.RequireTmux(t)
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: e2e.Texts(12)})
	rc.Env.Setenv("HOOKSUP_CLAUDE_BIN", rc.Env.Claude)
	cfg := rc.Config("mode = \"auto\"\ndecision_timeout = \"10m\"\n[[stop.checks]]\nname = \"tests\"\ncommand = 'echo \"--- FAIL: TestAdd ($(date +%N)s)\"; exit 1'\n")
	tm := e2e.StartTmux(t, 200, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--config", cfg,
		"--goal", "fix TestAdd", "claude", "--permission-mode", "manual")
	const wait = 60 * time.Second
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm, "go")
	tm.Keys("Enter")
	const asked = "no progress: the check tests failing with the same output, 3 stops in a row"
	tm.WaitText(wait, asked)
	before := len(rc.Srv.Main())
	if before > 3 {
		t.Fatalf("%d requests before the question, want at most 3", before)
	}
	tm.Keys("C-]", "a")
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	rs, err := rc.Srv.Wait(ctx, func(rs []mockapi.Request) bool { return len(mockapi.Filter(rs, mockapi.KindMain)) > before })
	if err != nil {
		t.Fatalf("%v; screen:\n%s", err, tm.Screen())
	}
	next := mockapi.Filter(rs, mockapi.KindMain)[before].LastUserText()
	for _, want := range []string{"The person supervising you asks you to continue, another way", "Goal turn", "> fix TestAdd"} {
		if !strings.Contains(next, want) {
			t.Errorf("the continuation after continue lacks %q:\n%s", want, next)
		}
	}
	// The goal goes on, its count of repeats started again, until it is asked again.
	tm.WaitFor("the question asked again", wait, func(s string) bool {
		return strings.Contains(s, asked) && len(rc.Srv.Main()) > before+1
	})
	asked2 := len(rc.Srv.Main())
	tm.Keys("C-]", "d")
	tm.WaitText(wait, `goal ended: no progress: the check tests failing with the same output, 3 stops in a row "fix TestAdd"`)
	if n := len(rc.Srv.Main()); n != asked2 {
		t.Errorf("%d requests after let it stop, want %d: the agent stopped", n, asked2)
	}
}
