package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// A goal out of budget in a live TUI session is resumed from another terminal with a larger
// budget: hooksup types its next turn into claude's prompt, the model reads the goal's text, and
// the goal goes on to its new budget.
func TestGoalResumeWithLargerBudget(t *testing.T) {
	t.Parallel()
	e2e.RequireTmux(t)
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: e2e.Texts(8)})
	rc.Env.Setenv("HOOKSUP_CLAUDE_BIN", rc.Env.Claude)
	tm := e2e.StartTmux(t, 180, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--config", rc.Config("mode = \"auto\"\n"),
		"--goal", "ship the release", "--done", e2e.ChangingFailure(rc), "--max-turns", "1", "claude", "--permission-mode", "manual")
	const wait = 60 * time.Second
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm, "go")
	tm.Keys("Enter")
	tm.WaitText(wait, `goal ended: its budget of turns (1) ran out "ship the release"`)
	if n := len(rc.Srv.Main()); n != 2 {
		t.Fatalf("%d requests before the resume, want 2", n)
	}
	// A budget no larger than the turns had is refused, saying so.
	if _, errText, code := e2e.HubShell(t, rc.Run, "goal", "resume", "work", "--max-turns", "1"); code != 1 || !strings.Contains(errText, "--max-turns 1: the goal has had 1 turns: give more") {
		t.Fatalf("goal resume --max-turns 1: exit %d %q", code, errText)
	}
	out, errText, code := e2e.HubShell(t, rc.Run, "goal", "resume", "work", "--max-turns", "3")
	if code != 0 || !strings.Contains(out, "resumed the goal of session") {
		t.Fatalf("goal resume: exit %d %q %q", code, out, errText)
	}
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	rs, err := rc.Srv.Wait(ctx, func(rs []mockapi.Request) bool { return len(mockapi.Filter(rs, mockapi.KindMain)) >= 3 })
	if err != nil {
		t.Fatalf("%v; screen:\n%s", err, tm.Screen())
	}
	typed := mockapi.Filter(rs, mockapi.KindMain)[2].LastUserText()
	for _, want := range []string{"Goal turn 2 of 3 (typed by hooksup: the person resumed the goal with a larger budget)", `"ship the release"`} {
		if !strings.Contains(typed, want) {
			t.Errorf("the resumed turn's prompt lacks %q:\n%s", want, typed)
		}
	}
	tm.WaitText(wait, `goal ended: its budget of turns (3) ran out "ship the release"`)
	if n := len(rc.Srv.Main()); n != 4 {
		t.Errorf("%d requests, want 4: the resumed turn and one more continuation", n)
	}
}
