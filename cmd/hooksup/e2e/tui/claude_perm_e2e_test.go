package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// These tests run claude on its own defaults (no --permission-mode: auto mode in 2.1.330)
// unless they say otherwise. In auto mode claude fires no PermissionRequest hook for a risky
// command, and its Notification comes ~6 s after the dialog showed; the header must show that
// claude waits for the person as soon as its dialog does.

// waitHeader waits until hooksup's header shows the agent state, and returns the screen and
// how many Notifications claude had fired by then (counted after the screen was read).
func waitHeader(t testing.TB, tm *e2e.Tmux, state string, witness *mockapi.HookLog, timeout time.Duration) (string, int) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		scr := tm.Screen()
		if strings.Contains(scr, "● "+state) {
			return scr, len(witness.Inputs("Notification"))
		}
		if time.Now().After(deadline) {
			t.Fatalf("the header never showed %q; screen:\n%s", state, scr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stateLog is what hooksup's debug log says about the state changes it made.
var stateLogLine = regexp.MustCompile(`msg=state state="([^"]*)" source=(\w+) reason=("[^"]*"|\S+)`)

func stateChanges(log string) []string {
	var out []string
	for _, m := range stateLogLine.FindAllStringSubmatch(log, -1) {
		out = append(out, m[1]+"<"+m[2]+" "+strings.Trim(m[3], `"`))
	}
	return out
}

func hasChange(changes []string, prefix, reasonPart string) bool {
	for _, c := range changes {
		if strings.HasPrefix(c, prefix) && strings.Contains(c, reasonPart) {
			return true
		}
	}
	return false
}

func TestClaudeTUIPermissionOnDefaultMode(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{
		// Each turn ends at the dialog (Escape), so the next prompt gets the next reply.
		mockapi.Bash(e2e.RiskyCommand, "Clean and install"),
		mockapi.Bash(e2e.RiskyCommand+" # again", "Clean and install again"),
	}})
	witness := rc.NotificationWitness()
	tm := rc.ClaudeTUIWith(rc.Config(`mode = "auto"`), 160, 45)
	const wait = 45 * time.Second
	tm.WaitText(wait, "auto mode on", "● waiting for input")

	// Offline, auto mode's safety check cannot run: claude first asks what to do about that.
	e2e.TypeIntoClaude(t, tm, "install it")
	tm.Keys("Enter")
	scr, notified := waitHeader(t, tm, "needs permission", witness, wait)
	if notified != 0 {
		t.Fatalf("needs permission showed only after claude's Notification:\n%s", scr)
	}
	tm.WaitText(wait, "can't check actions")
	// Stay in auto mode: from now on claude asks about each risky command.
	e2e.PressUntil(t, tm, "Enter", "Do you want to proceed?")
	tm.WaitText(wait, "● needs permission")
	tm.Keys("Escape")
	tm.WaitText(wait, "● interrupted")

	// The next risky command: claude's own "Do you want to proceed?" dialog, and the header
	// says so before claude's Notification could have come.
	before := len(witness.Inputs("Notification"))
	e2e.TypeIntoClaude(t, tm, "again")
	tm.Keys("Enter")
	scr, notified = waitHeader(t, tm, "needs permission", witness, wait)
	if notified != before {
		t.Fatalf("needs permission showed only after claude's Notification:\n%s", scr)
	}
	tm.WaitText(wait, "Do you want to proceed?")
	changes := stateChanges(rc.Log())
	if !hasChange(changes, "needs permission<terminal", "approve Bash: "+e2e.RiskyCommand+" # again") {
		t.Fatalf("the state did not come from claude's dialog: %v", changes)
	}
	tm.Keys("Escape")
	tm.WaitText(wait, "● interrupted")
	tm.Text("/exit")
	tm.Keys("Enter")
	tm.WaitText(wait, "claude exited with status 0")
}

// With an explicit --permission-mode default claude fires PermissionRequest at once; the
// header shows the dialog as soon, and from claude's own report.
func TestClaudeTUIPermissionOnDefaultPermissionMode(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Bash("touch created.txt", "Create a file"), mockapi.Text("DONE")}})
	witness := rc.NotificationWitness()
	tm := rc.ClaudeTUIWith(rc.Config(`mode = "auto"`), 160, 45, "--permission-mode", "default")
	const wait = 45 * time.Second
	tm.WaitText(wait, "● waiting for input")
	e2e.TypeIntoClaude(t, tm, "make a file")
	tm.Keys("Enter")
	scr, notified := waitHeader(t, tm, "needs permission", witness, wait)
	if notified != 0 {
		t.Fatalf("needs permission showed only after claude's Notification:\n%s", scr)
	}
	tm.WaitText(wait, "Do you want to")
	// Yes: the command runs, claude works on and stops.
	e2e.PressUntil(t, tm, "Enter", "DONE")
	tm.WaitText(wait, "● waiting for input")
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the approved command did not run: %v", err)
	}
	if changes := stateChanges(rc.Log()); !hasChange(changes, "needs permission<terminal", "touch created.txt") {
		t.Fatalf("the state did not come from claude's dialog: %v", changes)
	}
	tm.Text("/exit")
	tm.Keys("Enter")
	tm.WaitText(wait, "claude exited with status 0")
}

// AskUserQuestion shows as a question, not as a permission, until it is answered.
func TestClaudeTUIQuestionState(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{
		mockapi.ToolCall("AskUserQuestion", map[string]any{"questions": []any{map[string]any{
			"question": "Which colour?", "header": "Colour", "multiSelect": false,
			"options": []any{map[string]any{"label": "Red", "description": "warm"}, map[string]any{"label": "Blue", "description": "cool"}},
		}}}),
		mockapi.Text("PICKED"),
	}})
	witness := rc.NotificationWitness()
	tm := rc.ClaudeTUIWith(rc.Config(`mode = "auto"`), 160, 45)
	const wait = 45 * time.Second
	tm.WaitText(wait, "● waiting for input")
	e2e.TypeIntoClaude(t, tm, "ask me")
	tm.Keys("Enter")
	scr, notified := waitHeader(t, tm, "needs an answer", witness, wait)
	if notified != 0 {
		t.Fatalf("the question showed only after claude's Notification:\n%s", scr)
	}
	tm.WaitText(wait, "Which colour?")
	if strings.Contains(tm.Screen(), "● needs permission") {
		t.Fatalf("a question shown as a permission:\n%s", tm.Screen())
	}
	e2e.PressUntil(t, tm, "Enter", "PICKED") // the first option
	tm.WaitText(wait, "● waiting for input")
	if got := rc.Srv.Main(); len(got) != 2 || !strings.Contains(got[1].ToolResults()[0].ResultText(), "Red") {
		t.Fatalf("claude did not get the answer: %d requests", len(got))
	}
	tm.Text("/exit")
	tm.Keys("Enter")
	tm.WaitText(wait, "claude exited with status 0")
}
