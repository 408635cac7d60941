package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/web"
)

// Codex's PermissionRequest hook could answer its dialog, but codex runs it before it draws the
// dialog and hides the dialog while it waits: held for an answer from elsewhere, it would keep
// the person at the terminal from answering. So hooksup answers that hook at once and answers
// codex's dialog as it does gemini's, with keys, read on its screen.

// codexDialog starts the real codex under hooksup's TUI and has the model ask to run keyCommand
// outside codex's sandbox, which codex asks the person about on its defaults.
func codexDialog(t *testing.T, replies ...mockapi.ResponsesReply) (*e2e.RealCodex, *e2e.Tmux, web.Session) {
	t.Helper()
	call := mockapi.Call("exec_command", map[string]any{"cmd": keyCommand, "sandbox_permissions": "require_escalated", "justification": "Build it"})
	rc := newRealCodexTUI(t, &mockapi.ResponsesScript{Replies: append([]mockapi.ResponsesReply{call}, replies...)})
	tm := e2e.StartTmux(t, 160, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--debug", "--config", rc.Config(`mode = "auto"`), "codex")
	const wait = 45 * time.Second
	tm.WaitText(wait, "hooksup codex", "Ask Codex to do anything")
	typeIntoCodex(t, tm, "make a file")
	tm.Keys("Enter")
	tm.WaitText(wait, "Would you like to run the following command?")
	s := e2e.WaitPermission(t, rc.Run, wait)
	q := s.Pending[0]
	if q.Permission == nil || q.Permission.Tool != "Bash" || q.Permission.Command != keyCommand {
		t.Fatalf("the question does not say what codex asks to run: %+v", q.Permission)
	}
	tm.WaitText(10*time.Second, "⚑ Bash: "+keyCommand)
	return rc, tm, s
}

func TestKeysCodexApproved(t *testing.T) {
	t.Parallel()
	rc, tm, _ := codexDialog(t, mockapi.OutputText("MADE-IT"))
	answerAndTime(t, rc.Run, tm, "Would you like to run", "allowed Bash: "+keyCommand, "approve")
	tm.WaitText(45*time.Second, "MADE-IT")
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	reqs := rc.Srv.Model()
	if len(reqs) < 2 || len(reqs[1].FunctionOutputs()) == 0 || strings.Contains(reqs[1].FunctionOutputs()[0].Output, "rejected") {
		t.Fatalf("the model did not get the command's result: %d requests", len(reqs))
	}
	nothingPending(t, rc.Run)
	keyVerdict(t, rc.Verdicts(), "allow", "manual (hooksup approve)", keyCommand)
}

func TestKeysCodexDenied(t *testing.T) {
	t.Parallel()
	rc, tm, _ := codexDialog(t, mockapi.OutputText("WRONG: AFTER THE DENIAL"))
	answerAndTime(t, rc.Run, tm, "Would you like to run", "denied Bash: "+keyCommand, "deny")
	tm.WaitText(45*time.Second, "You canceled the request")
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	keyVerdict(t, rc.Verdicts(), "deny", "manual (hooksup deny)", keyCommand)
	if n := len(rc.Srv.Model()); n != 1 {
		t.Fatalf("%d model requests after the denial: Escape ends codex's turn", n)
	}
}

// Always: codex's own second option, which allows the commands that start with this one from
// now on (its rules file); the CLI shows what it says before it is pressed.
func TestKeysCodexAlways(t *testing.T) {
	t.Parallel()
	rc, tm, s := codexDialog(t, mockapi.OutputText("MADE-IT"))
	if q := s.Pending[0]; !strings.Contains(q.Permission.Always, "rm -rf ../build-cache") {
		t.Fatalf("the question offers no always: %+v", q.Permission)
	}
	answerAndTime(t, rc.Run, tm, "Would you like to run", "allowed Bash: "+keyCommand, "approve", "--always")
	tm.WaitText(45*time.Second, "MADE-IT")
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	rules, err := os.ReadFile(filepath.Join(rc.Env.CodexHome, "rules", "default.rules"))
	if err != nil || !strings.Contains(string(rules), `"../build-cache"`) {
		t.Fatalf("codex's rules after always: %q %v", rules, err)
	}
	keyVerdict(t, rc.Verdicts(), "always", "manual (hooksup approve)", keyCommand)
}
