package agents

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/verdictlog"
	"github.com/hooksup/hooksup/web"
)

// Copilot CLI asks before a shell command runs, on its default settings, with a dialog no hook
// can answer beside it (its permissionRequest hook runs before the dialog, which waits for it):
// hooksup reads the dialog on copilot's screen, lists it, and answers it with keys.

// copilotCommand is a command copilot asks about on its defaults (it writes a file).
const copilotCommand = "touch created.txt"

// copilotDialogQuestion is the question of copilot's dialog for a shell command.
const copilotDialogQuestion = "Do you want to run this command?"

// copilotInput is what copilot 1.0.102 shows before the text typed into its input: "┃ " in the
// tests' terminal, "❯ " when CI is set.
const copilotInput = "┃ " + e2e.PromptOr + "❯ "

// realCopilot is one test's copilot under hooksup's TUI: the mock it talks to, its
// environment, and hooksup's state and runtime directories.
type realCopilot struct {
	e2e.HooksupEnv
	Srv *mockapi.ChatServer
	Env *mockapi.CopilotEnv
}

// copilotDialog starts the real copilot, on its default settings, under hooksup's TUI and has
// it ask to run copilotCommand; the dialog is listed as a question.
func copilotDialog(t *testing.T, replies ...mockapi.ChatReply) (*realCopilot, *e2e.Tmux, web.Session) {
	t.Helper()
	e2e.RequireTmux(t)
	srv := mockapi.NewChatServer(t, &mockapi.ChatScript{Replies: append([]mockapi.ChatReply{mockapi.CopilotBash(copilotCommand, "Create the file")}, replies...)},
		mockapi.WithQuiet())
	env := mockapi.NewCopilotEnv(t, srv.URL, "")
	env.Setenv("TERM", "xterm-256color")
	env.Setenv("HOOKSUP_COPILOT_BIN", env.Copilot)
	rc := &realCopilot{HooksupEnv: e2e.NewHooksupEnv(t, "hp", env.Home, env.Setenv, srv.Run, env.Command), Srv: srv, Env: env}
	tm := e2e.StartTmux(t, 160, 45, env.Environ(), env.WorkDir, e2e.HooksupBin, "--debug", "--config", rc.Config(`mode = "auto"`), "copilot")
	const wait = 60 * time.Second
	// Copilot asks first whether to trust the folder (for this session, "1. Yes", is marked):
	// that is the person's to answer, and no question of hooksup's.
	tm.WaitText(wait, "Do you trust the files in this folder?", "❯ 1. Yes")
	if ls := e2e.HubLs(t, rc.Run); len(ls) == 1 && len(ls[0].Pending) != 0 {
		t.Fatalf("a question for copilot's folder trust: %+v", ls[0].Pending)
	}
	tm.Keys("Enter")
	tm.WaitText(wait, "hooksup copilot", "Manual Approval")
	promptCopilot(t, tm, rc, "make a file")
	tm.WaitText(wait, copilotDialogQuestion)
	s := e2e.WaitPermission(t, rc.Run, wait)
	q := s.Pending[0]
	if q.Permission == nil || q.Permission.Tool != "Shell" || q.Permission.Command != copilotCommand ||
		!strings.HasPrefix(q.Permission.Always, "allow `touch` in this directory (") {
		t.Fatalf("the question does not say what copilot asks to run: %+v", q.Permission)
	}
	tm.WaitText(10*time.Second, "⚑ Shell: "+copilotCommand)
	return rc, tm, s
}

// promptCopilot types text into copilot's input and sends it, until the mock has the turn
// request it makes.
func promptCopilot(t *testing.T, tm *e2e.Tmux, rc *realCopilot, text string) {
	t.Helper()
	n := len(rc.Srv.Turns())
	tm.TypeAfter(copilotInput, text)
	deadline := time.Now().Add(60 * time.Second)
	for len(rc.Srv.Turns()) == n {
		if time.Now().After(deadline) {
			t.Fatalf("copilot sent no request for the prompt; screen:\n%s", tm.Screen())
		}
		tm.Keys("Enter")
		for wait := time.Now().Add(5 * time.Second); len(rc.Srv.Turns()) == n && time.Now().Before(wait); {
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// copilotPromptClean waits for copilot's turn to end, types a prompt, and checks that the
// request it makes carries exactly that text: no key hooksup pressed landed in copilot's input.
func copilotPromptClean(t *testing.T, rc *realCopilot, tm *e2e.Tmux) mockapi.ChatRequest {
	t.Helper()
	tm.WaitText(60*time.Second, "Manual Approval")
	promptCopilot(t, tm, rc, "next please")
	turns := rc.Srv.Turns()
	r := turns[len(turns)-1]
	if got := strings.TrimSpace(r.UserPrompt()); got != "next please" {
		t.Fatalf("the prompt copilot sent is %q, not what was typed: a key landed in its input", got)
	}
	return r
}

func TestKeysCopilotApproved(t *testing.T) {
	t.Parallel()
	rc, tm, _ := copilotDialog(t, mockapi.ChatText("MADE-IT"), mockapi.ChatText("NEXT-TURN"))
	answerAndTime(t, rc.Run, tm, copilotDialogQuestion, "allowed Shell: "+copilotCommand, "approve")
	scr := tm.WaitText(60*time.Second, "MADE-IT")
	if strings.Contains(scr, "⚑ Shell") {
		t.Fatalf("the header still shows the answered permission:\n%s", scr)
	}
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	turns := rc.Srv.Turns()
	if len(turns) < 2 || len(turns[1].ToolResults()) != 1 {
		t.Fatalf("the model did not get the command's result: %d turns", len(turns))
	}
	nothingPending(t, rc.Run)
	keyVerdict(t, rc.Verdicts(), "allow", "manual (hooksup approve)", copilotCommand)
	copilotPromptClean(t, rc, tm)
}

// Always presses copilot's own "Yes, and don't ask again for `touch` in this directory": the
// command runs, copilot keeps the approval for the project's directory, and a second touch in
// the same turn runs with no dialog and no new question.
func TestKeysCopilotAlways(t *testing.T) {
	t.Parallel()
	rc, tm, _ := copilotDialog(t, mockapi.CopilotBash("touch again.txt", "Create another"), mockapi.ChatText("MADE-BOTH"))
	answerAndTime(t, rc.Run, tm, copilotDialogQuestion, "allowed Shell: "+copilotCommand, "approve", "--always")
	tm.WaitText(60*time.Second, "MADE-BOTH")
	for _, f := range []string{"created.txt", "again.txt"} {
		if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, f)); err != nil {
			t.Fatalf("a command allowed always did not run: %v", err)
		}
	}
	nothingPending(t, rc.Run)
	conf, err := os.ReadFile(filepath.Join(rc.Env.Home, ".copilot", "permissions-config.json"))
	if err != nil || !strings.Contains(string(conf), `"touch"`) || !strings.Contains(string(conf), strconv.Quote(rc.Env.WorkDir)) {
		t.Fatalf("copilot's permissions after always: %q %v", conf, err)
	}
	keyVerdict(t, rc.Verdicts(), "always", "manual (hooksup approve)", copilotCommand)
}

// copilotRefused is what copilot shows once Escape refused a call: "cancelled" as a rule;
// "aborted" when its turn's own interrupt is drawn first (a loaded machine).
var copilotRefused = []string{"Operation cancelled by user", "Operation aborted by user"}

func TestKeysCopilotDenied(t *testing.T) {
	t.Parallel()
	rc, tm, s := copilotDialog(t, mockapi.ChatText("NEXT-TURN"))
	answerAndTime(t, rc.Run, tm, copilotDialogQuestion, "denied Shell: "+copilotCommand, "deny", s.SessionID[:8])
	tm.WaitFor("copilot showing the call refused", 60*time.Second, func(scr string) bool {
		return slices.ContainsFunc(copilotRefused, func(s string) bool { return strings.Contains(scr, s) })
	})
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	keyVerdict(t, rc.Verdicts(), "deny", "manual (hooksup deny)", copilotCommand)
	// Escape ends copilot's turn: the next prompt's request carries the call as interrupted.
	r := copilotPromptClean(t, rc, tm)
	if res := r.ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text(), "interrupted") {
		t.Fatalf("the next request does not carry the refused call: %+v", res)
	}
}

// deny --reason types the reason into copilot's own field for the model's feedback (its third
// option) and sends it: the command does not run, the turn goes on, and the model reads the
// reason as the call's result.
func TestKeysCopilotDeniedWithReason(t *testing.T) {
	t.Parallel()
	rc, tm, _ := copilotDialog(t, mockapi.ChatText("TOOK-THE-HINT"))
	const reason = "use a temporary directory instead"
	answerAndTime(t, rc.Run, tm, copilotDialogQuestion, "denied Shell: "+copilotCommand, "deny", "--reason", reason)
	copilotReadTheReason(t, rc, tm, reason)
	if created(rc.Env.WorkDir) {
		t.Fatal("the denied command ran")
	}
	var ps []verdictlog.Verdict
	for _, v := range rc.Verdicts() {
		if v.Event == "PermissionRequest" {
			ps = append(ps, v)
		}
	}
	if len(ps) != 1 || ps[0].Decision != "deny" || ps[0].Reason != reason {
		t.Fatalf("the verdict log's permission answers: %+v", ps)
	}
}

// copilotReadTheReason waits for the turn to go on after copilot's call was denied with reason
// (the model's next reply is "TOOK-THE-HINT"), and checks that the model read the reason as the
// call's result.
func copilotReadTheReason(t *testing.T, rc *realCopilot, tm *e2e.Tmux, reason string) {
	t.Helper()
	tm.WaitText(60*time.Second, "TOOK-THE-HINT")
	turns := rc.Srv.Turns()
	if len(turns) < 2 {
		t.Fatalf("copilot made %d requests: the turn did not go on", len(turns))
	}
	if res := turns[1].ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text(), "User feedback: "+reason) {
		t.Fatalf("the model did not read the reason as the call's result: %+v", res)
	}
}

// The person answers at copilot's own dialog: the question leaves the header within a second of
// the dialog leaving the screen, and a late answer from another shell finds it answered.
func TestKeysCopilotAnsweredAtTerminalIsWithdrawn(t *testing.T) {
	t.Parallel()
	rc, tm, _ := copilotDialog(t, mockapi.ChatText("MADE-HERE"))
	tm.PressUntil("Enter", "the dialog closes", 30*time.Second, func(scr string) bool { return !strings.Contains(scr, copilotDialogQuestion) })
	gone := time.Now()
	tm.WaitFor("the header to drop the question", 10*time.Second, func(scr string) bool { return !strings.Contains(scr, "⚑ Shell") })
	took := time.Since(gone)
	t.Logf("the question was withdrawn %v after the dialog left the screen", took.Round(time.Millisecond))
	if took > time.Second {
		t.Fatalf("the question answered at the terminal was withdrawn only %v later", took)
	}
	tm.WaitText(60*time.Second, "MADE-HERE")
	if _, _, code := e2e.HubShell(t, rc.Run, "approve"); code == 0 {
		t.Fatal("a late approve succeeded")
	}
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the command allowed at the terminal did not run: %v", err)
	}
	for _, v := range rc.Verdicts() {
		if v.Event == "PermissionRequest" {
			t.Fatalf("an answer at copilot's own dialog was recorded as hooksup's: %+v", v)
		}
	}
}
