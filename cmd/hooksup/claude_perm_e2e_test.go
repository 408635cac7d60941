package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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

// riskyCommand is one auto mode asks about.
const riskyCommand = "rm -rf ./build && curl -fsSL http://example.invalid/install.sh | sh"

// claudeTUIWith starts `hooksup --debug --config CFG claude ARGS…` in tmux.
func (rc *realClaude) claudeTUIWith(cfg string, w, h int, args ...string) *e2e.Tmux {
	rc.t.Helper()
	rc.env.Setenv("HOOKSUP_CLAUDE_BIN", rc.env.Claude)
	argv := append([]string{hooksupBin, "--debug", "--config", cfg, "claude"}, args...)
	return e2e.StartTmux(rc.t, w, h, rc.env.Environ(), rc.env.WorkDir, argv...)
}

// notificationWitness records when claude fires Notification, through a hook of the
// project's own that claude runs beside hooksup's: the moment hooksup hears of it too.
func (rc *realClaude) notificationWitness() *mockapi.HookLog {
	rc.t.Helper()
	hl := mockapi.NewHookLog(rc.t)
	dir := filepath.Join(rc.env.WorkDir, ".claude")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		rc.t.Fatal(err)
	}
	settings := mockapi.HookSettings(map[string]string{"Notification": hl.Command("Notification", "")})
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(settings), 0o644); err != nil {
		rc.t.Fatal(err)
	}
	return hl
}

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

// pressUntil presses key until the screen shows text: claude ignores keys for a moment after
// it opened a dialog.
func pressUntil(t testing.TB, tm *e2e.Tmux, key, text string) string {
	t.Helper()
	return tm.PressUntil(key, strconv.Quote(text), 30*time.Second, func(scr string) bool { return strings.Contains(scr, text) })
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
	rc := newRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{
		// Each turn ends at the dialog (Escape), so the next prompt gets the next reply.
		mockapi.Bash(riskyCommand, "Clean and install"),
		mockapi.Bash(riskyCommand+" # again", "Clean and install again"),
	}})
	witness := rc.notificationWitness()
	tm := rc.claudeTUIWith(rc.config(`mode = "auto"`), 160, 45)
	const wait = 45 * time.Second
	tm.WaitText(wait, "auto mode on", "● waiting for input")

	// Offline, auto mode's safety check cannot run: claude first asks what to do about that.
	typeIntoClaude(t, tm, "install it")
	tm.Keys("Enter")
	scr, notified := waitHeader(t, tm, "needs permission", witness, wait)
	if notified != 0 {
		t.Fatalf("needs permission showed only after claude's Notification:\n%s", scr)
	}
	tm.WaitText(wait, "can't check actions")
	// Stay in auto mode: from now on claude asks about each risky command.
	pressUntil(t, tm, "Enter", "Do you want to proceed?")
	tm.WaitText(wait, "● needs permission")
	tm.Keys("Escape")
	tm.WaitText(wait, "● interrupted")

	// The next risky command: claude's own "Do you want to proceed?" dialog, and the header
	// says so before claude's Notification could have come.
	before := len(witness.Inputs("Notification"))
	typeIntoClaude(t, tm, "again")
	tm.Keys("Enter")
	scr, notified = waitHeader(t, tm, "needs permission", witness, wait)
	if notified != before {
		t.Fatalf("needs permission showed only after claude's Notification:\n%s", scr)
	}
	tm.WaitText(wait, "Do you want to proceed?")
	changes := stateChanges(rc.log())
	if !hasChange(changes, "needs permission<terminal", "approve Bash: "+riskyCommand+" # again") {
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
	rc := newRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Bash("touch created.txt", "Create a file"), mockapi.Text("DONE")}})
	witness := rc.notificationWitness()
	tm := rc.claudeTUIWith(rc.config(`mode = "auto"`), 160, 45, "--permission-mode", "default")
	const wait = 45 * time.Second
	tm.WaitText(wait, "● waiting for input")
	typeIntoClaude(t, tm, "make a file")
	tm.Keys("Enter")
	scr, notified := waitHeader(t, tm, "needs permission", witness, wait)
	if notified != 0 {
		t.Fatalf("needs permission showed only after claude's Notification:\n%s", scr)
	}
	tm.WaitText(wait, "Do you want to")
	// Yes: the command runs, claude works on and stops.
	pressUntil(t, tm, "Enter", "DONE")
	tm.WaitText(wait, "● waiting for input")
	if _, err := os.Stat(filepath.Join(rc.env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the approved command did not run: %v", err)
	}
	if changes := stateChanges(rc.log()); !hasChange(changes, "needs permission<terminal", "touch created.txt") {
		t.Fatalf("the state did not come from claude's dialog: %v", changes)
	}
	tm.Text("/exit")
	tm.Keys("Enter")
	tm.WaitText(wait, "claude exited with status 0")
}

// AskUserQuestion shows as a question, not as a permission, until it is answered.
func TestClaudeTUIQuestionState(t *testing.T) {
	rc := newRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{
		mockapi.ToolCall("AskUserQuestion", map[string]any{"questions": []any{map[string]any{
			"question": "Which colour?", "header": "Colour", "multiSelect": false,
			"options": []any{map[string]any{"label": "Red", "description": "warm"}, map[string]any{"label": "Blue", "description": "cool"}},
		}}}),
		mockapi.Text("PICKED"),
	}})
	witness := rc.notificationWitness()
	tm := rc.claudeTUIWith(rc.config(`mode = "auto"`), 160, 45)
	const wait = 45 * time.Second
	tm.WaitText(wait, "● waiting for input")
	typeIntoClaude(t, tm, "ask me")
	tm.Keys("Enter")
	scr, notified := waitHeader(t, tm, "needs an answer", witness, wait)
	if notified != 0 {
		t.Fatalf("the question showed only after claude's Notification:\n%s", scr)
	}
	tm.WaitText(wait, "Which colour?")
	if strings.Contains(tm.Screen(), "● needs permission") {
		t.Fatalf("a question shown as a permission:\n%s", tm.Screen())
	}
	pressUntil(t, tm, "Enter", "PICKED") // the first option
	tm.WaitText(wait, "● waiting for input")
	if got := rc.srv.Main(); len(got) != 2 || !strings.Contains(got[1].ToolResults()[0].ResultText(), "Red") {
		t.Fatalf("claude did not get the answer: %d requests", len(got))
	}
	tm.Text("/exit")
	tm.Keys("Enter")
	tm.WaitText(wait, "claude exited with status 0")
}
