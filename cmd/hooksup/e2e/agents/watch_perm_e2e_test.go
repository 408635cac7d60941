package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// watchCodexDialog has the real codex ask to run keyCommand (codexDialog) and starts
// `hooksup watch` in another terminal, showing the permission and the command it asks about.
func watchCodexDialog(t *testing.T, replies ...mockapi.ResponsesReply) (*e2e.RealCodex, *e2e.Tmux, *e2e.Tmux) {
	t.Helper()
	rc, tm, _ := codexDialog(t, replies...)
	home, env := e2e.OtherTerminal(t, rc.Run)
	w := e2e.StartTmux(t, 160, 40, append(env, "TERM=xterm-256color"), home, e2e.HooksupBin, "watch")
	w.WaitText(30*time.Second, "⚑ permission: Bash: "+keyCommand, "approve allows it")
	return rc, tm, w
}

// The person allows codex's command from `hooksup watch` with the approve key: codex runs it.
func TestWatchCodexPermissionApproved(t *testing.T) {
	t.Parallel()
	rc, tm, w := watchCodexDialog(t, mockapi.OutputText("MADE-IT"))
	// Codex's dialog has no field for a reason (deny is Escape): the edit key says so.
	w.Keys("e")
	w.WaitText(15*time.Second, "codex's dialog takes no reason: d denies Bash without one")
	w.Keys("a")
	w.WaitText(15*time.Second, "allowed Bash in ")
	tm.WaitText(45*time.Second, "MADE-IT")
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(rc.Env.CodexHome, "rules", "default.rules")); err == nil {
		t.Fatal("allowed once, yet codex wrote a rule")
	}
	keyVerdict(t, rc.Verdicts(), "allow", "manual (hooksup watch)", keyCommand)
}

// Always from `hooksup watch`: the always key shows the rule codex offers and asks to press it
// again; the second press allows the command and writes codex's rule.
func TestWatchCodexPermissionAlways(t *testing.T) {
	t.Parallel()
	rc, tm, w := watchCodexDialog(t, mockapi.OutputText("MADE-IT"))
	w.Keys("A")
	scr := w.WaitText(15*time.Second, "A again allows Bash from now on")
	if !strings.Contains(scr, "rm -rf ../build-cache") {
		t.Fatalf("the watch does not show what always allows:\n%s", scr)
	}
	w.Keys("A")
	w.WaitText(15*time.Second, "always allowed Bash in ")
	tm.WaitText(45*time.Second, "MADE-IT")
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	rules, err := os.ReadFile(filepath.Join(rc.Env.CodexHome, "rules", "default.rules"))
	if err != nil || !strings.Contains(string(rules), `"../build-cache"`) {
		t.Fatalf("codex's rules after always: %q %v", rules, err)
	}
	keyVerdict(t, rc.Verdicts(), "always", "manual (hooksup watch)", keyCommand)
}

// Where the dialog takes a reason (copilot's shell dialog, its field for feedback), the edit key
// of `hooksup watch` opens the editor for it: Enter refuses the command with what is typed, which
// hooksup types into the dialog's field, and the model reads it as the call's result.
func TestWatchCopilotDeniedWithReason(t *testing.T) {
	t.Parallel()
	rc, tm, s := copilotDialog(t, mockapi.ChatText("TOOK-THE-HINT"))
	if q := s.Pending[0]; q.Permission == nil || !q.Permission.DenyReason {
		t.Fatalf("hooksup ls --json does not say copilot's dialog takes a reason: %+v", q.Permission)
	}
	home, env := e2e.OtherTerminal(t, rc.Run)
	w := e2e.StartTmux(t, 160, 40, append(env, "TERM=xterm-256color"), home, e2e.HooksupBin, "watch")
	w.WaitText(30*time.Second, "⚑ permission: Shell: "+copilotCommand, "deny refuses it, edit says why")
	w.Keys("e")
	w.WaitText(15*time.Second, "why it is refused, as the agent will read it:")
	const reason = "use a temporary directory instead"
	w.Text(reason) // d and a among it are text, never deny or allow
	w.WaitText(15*time.Second, "› "+reason)
	w.Keys("Enter")
	w.WaitText(30*time.Second, "denied Shell with your reason in ")
	copilotReadTheReason(t, rc, tm, reason)
	if created(rc.Env.WorkDir) {
		t.Fatal("the denied command ran")
	}
	keyVerdict(t, rc.Verdicts(), "deny", "manual (hooksup watch)", copilotCommand)
}
