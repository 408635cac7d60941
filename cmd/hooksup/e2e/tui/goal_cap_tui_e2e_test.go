package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// In the TUI, claude's own cap on blocked stops (here the person's CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=2)
// ends a goal's turn: hooksup types the goal's next turn into claude's prompt itself, and the
// model's next request carries the goal's text.
func TestGoalClaudeCapTUITypesNextTurn(t *testing.T) {
	t.Parallel()
	e2e.RequireTmux(t)
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: e2e.Texts(12)})
	rc.Env.Setenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "2")
	rc.Env.Setenv("HOOKSUP_CLAUDE_BIN", rc.Env.Claude)
	cfg := rc.Config("mode = \"auto\"\n")
	tm := e2e.StartTmux(t, 180, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--config", cfg,
		"--goal", "ship the release", "--done", e2e.ChangingFailure(rc), "--max-turns", "4", "claude", "--permission-mode", "manual")
	const wait = 60 * time.Second
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm, "go")
	tm.Keys("Enter")
	// claude: the first request and two continuations; the third block is its cap's end. Then
	// hooksup's typed turn is the fourth request.
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	rs, err := rc.Srv.Wait(ctx, func(rs []mockapi.Request) bool { return len(mockapi.Filter(rs, mockapi.KindMain)) >= 4 })
	if err != nil {
		t.Fatalf("%v; %d requests; screen:\n%s", err, len(mockapi.Filter(rs, mockapi.KindMain)), tm.Screen())
	}
	main := mockapi.Filter(rs, mockapi.KindMain)
	typed := main[3].LastUserText()
	for _, want := range []string{"Goal turn 3 of 4 (typed by hooksup", `"ship the release"`, "still undone: the done command still fails (exit 1)"} {
		if !strings.Contains(typed, want) {
			t.Errorf("the fourth request's prompt lacks %q:\n%s", want, typed)
		}
	}
	// (claude sends the capped stop's feedback with it.) The goal goes on to its budget: the
	// header says so.
	tm.WaitText(wait, `goal ended: its budget of turns (4) ran out "ship the release"`)
}
