package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/verdictlog"
)

// Escape ends a goal at once: pressed in the TUI while the done command runs, the command is
// killed, the agent may stop, the goal ends halted, and no further request is made.
func TestGoalEscapeEndsGoal(t *testing.T) {
	t.Parallel()
	e2e.RequireTmux(t)
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: e2e.Texts(4)})
	rc.Env.Setenv("HOOKSUP_CLAUDE_BIN", rc.Env.Claude)
	started := filepath.Join(rc.Env.Home, "started")
	tm := e2e.StartTmux(t, 180, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--config", rc.Config("mode = \"auto\"\n"),
		"--goal", "ship the release", "--done", fmt.Sprintf("touch %s; sleep 120; exit 1", started), "claude", "--permission-mode", "manual")
	const wait = 60 * time.Second
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm, "go")
	tm.Keys("Enter")
	deadline := time.Now().Add(wait)
	for {
		if _, err := os.Stat(started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the done command never ran; screen:\n%s", tm.Screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	pressed := time.Now()
	tm.Keys("Escape")
	tm.WaitText(wait, `goal ended: halted "ship the release"`)
	t.Logf("Escape to the goal's end in the header: %s", time.Since(pressed).Round(time.Millisecond))
	vs := rc.Verdicts()
	var last verdictlog.Verdict
	for _, v := range vs {
		if v.Goal != nil {
			last = v
		}
	}
	if last.Goal == nil || last.Goal.End != verdictlog.GoalHalted || last.Source != verdictlog.SourceEscape {
		t.Fatalf("the goal's last verdict %+v goal %+v", last, last.Goal)
	}
	if n := len(rc.Srv.Main()); n != 1 {
		t.Errorf("%d requests, want 1: none after Escape", n)
	}
}
