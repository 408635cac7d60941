package ssh

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// A goal out of budget in a TUI session on another machine is resumed from this one over a real
// OpenSSH, HOST:PREFIX as for approve: the remote hooksup types the goal's next turn into
// claude's prompt, and the model gets it.
func TestGoalResumeOverSSH(t *testing.T) {
	t.Parallel()
	e2e.RequireTmux(t)
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: e2e.Texts(8)})
	srv := e2e.StartSSHD(t, rc.Run)
	short, err := os.MkdirTemp("", "gl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	localRun := filepath.Join(short, "run")
	if err := os.MkdirAll(localRun, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := srv.HubConfigFile(t, "")
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
	// This machine alone has no such session.
	if _, errText, code := sshShell(t, localRun, cfg, "goal", "resume", "--local", "work", "--max-turns", "3"); code != 1 || !strings.Contains(errText, `no session matches "work"`) {
		t.Fatalf("goal resume --local: exit %d %q", code, errText)
	}
	out, errText, code := sshShell(t, localRun, cfg, "goal", "resume", "remote:work", "--max-turns", "3")
	if code != 0 || !strings.Contains(out, "resumed the goal of session remote:") {
		t.Fatalf("goal resume remote:work: exit %d %q %q", code, out, errText)
	}
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	rs, err := rc.Srv.Wait(ctx, func(rs []mockapi.Request) bool { return len(mockapi.Filter(rs, mockapi.KindMain)) >= 3 })
	if err != nil {
		t.Fatalf("%v; screen:\n%s", err, tm.Screen())
	}
	if typed := mockapi.Filter(rs, mockapi.KindMain)[2].LastUserText(); !strings.Contains(typed, "Goal turn 2 of 3 (typed by hooksup: the person resumed the goal with a larger budget)") {
		t.Errorf("the resumed turn's prompt:\n%s", typed)
	}
}
