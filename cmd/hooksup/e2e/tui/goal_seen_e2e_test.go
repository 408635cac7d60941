package tui

import (
	"encoding/json"
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

// A goal under way is seen from another terminal: `hooksup status` counts it, and `hooksup
// watch` shows it on the session's card: the turn against its budget, the goal's text and what
// failed last.
func TestGoalSeenInStatusAndWatch(t *testing.T) {
	t.Parallel()
	e2e.RequireTmux(t)
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: e2e.Texts(6)})
	rc.Env.Setenv("HOOKSUP_CLAUDE_BIN", rc.Env.Claude)
	runs, gate := filepath.Join(rc.Env.Home, "runs"), filepath.Join(rc.Env.Home, "gate")
	// The done command fails at once at the first stop; at the second it waits for the gate.
	done := fmt.Sprintf(`echo x >> %[1]s; if [ $(wc -l < %[1]s) -ge 2 ]; then while [ ! -f %[2]s ]; do sleep 0.1; done; fi; echo 'release: 2 blockers left'; exit 1`, runs, gate)
	tm := e2e.StartTmux(t, 180, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--config", rc.Config("mode = \"auto\"\n"),
		"--goal", "ship the release", "--done", done, "--max-turns", "2", "claude", "--permission-mode", "manual")
	const wait = 60 * time.Second
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm, "go")
	tm.Keys("Enter")
	tm.WaitText(wait, `goal turn 1/2 "ship the release"`)

	if out, errText, code := e2e.HubShell(t, rc.Run, "status"); code != 0 || !strings.Contains(out, "1 goal under way") {
		t.Fatalf("status: exit %d %q %q", code, out, errText)
	}
	if out, _, code := e2e.HubShell(t, rc.Run, "status", "--format", "{goals}/{sessions}"); code != 0 || out != "1/1\n" {
		t.Fatalf("status --format: exit %d %q", code, out)
	}
	// hooksup ls --json (and the page's API) carries the goal's record.
	out, _, code := e2e.HubShell(t, rc.Run, "ls", "--json")
	var ls []struct {
		Goal *verdictlog.Goal `json:"goal"`
	}
	if err := json.Unmarshal([]byte(out), &ls); code != 0 || err != nil || len(ls) != 1 || ls[0].Goal == nil ||
		ls[0].Goal.Turn != 1 || ls[0].Goal.MaxTurns != 2 || ls[0].Goal.Text != "ship the release" {
		t.Fatalf("ls --json: exit %d %v %s", code, err, out)
	}
	home, env := e2e.OtherTerminal(t, rc.Run)
	w := e2e.StartTmux(t, 160, 30, append(env, "TERM=xterm-256color"), home, e2e.HooksupBin, "watch")
	w.WaitText(wait, `goal turn 1/2 "ship the release"`, "✗ done exit 1: release: 2 blockers left")

	// Once the goal has ended, the card says how, and status counts it no more.
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	w.WaitText(wait, `goal ended: its budget of turns (2) ran out "ship the release"`)
	if out, _, code := e2e.HubShell(t, rc.Run, "status", "--format", "{goals}/{sessions}"); code != 0 || out != "0/1\n" {
		t.Fatalf("status --format after the goal: exit %d %q", code, out)
	}
}
