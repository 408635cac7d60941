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

// Qwen Code on its defaults (auto mode, whose classifier cannot judge a call offline) asks
// before a shell command with a dialog that no hook can answer beside it: hooksup reads it on
// qwen's screen, lists it, and answers it with keys.

// qwenKeyCommand is the command the mock model asks qwen to run.
const qwenKeyCommand = "touch created.txt"

// qwenDialogMark is what qwen's permission dialog shows while it is on screen.
const qwenDialogMark = "Allow execution of"

// newRealQwenTUI is a qwen for hooksup's TUI in tmux, against a mock on the host's network.
func newRealQwenTUI(t *testing.T, replies ...mockapi.ChatReply) *realQwen {
	t.Helper()
	e2e.RequireTmux(t)
	srv := mockapi.NewChatServer(t, &mockapi.ChatScript{Replies: replies}, mockapi.WithQuiet())
	env := mockapi.NewQwenEnv(t, srv.URL, "")
	env.Setenv("TERM", "xterm-256color")
	env.Setenv("HOOKSUP_QWEN_BIN", env.Qwen)
	return &realQwen{HooksupEnv: e2e.NewHooksupEnv(t, "hq", env.Home, env.Setenv, srv.Run, env.Command), srv: srv, env: env}
}

// promptQwen types text into qwen's input and sends it, until the mock has the turn request it
// makes: a busy qwen can lose an Enter.
func promptQwen(t *testing.T, tm *e2e.Tmux, rq *realQwen, text string) {
	t.Helper()
	n := len(rq.srv.Turns())
	tm.TypeAfter("> ", text)
	deadline := time.Now().Add(60 * time.Second)
	for len(rq.srv.Turns()) == n {
		if time.Now().After(deadline) {
			t.Fatalf("qwen sent no request for the prompt; screen:\n%s", tm.Screen())
		}
		tm.Keys("Enter")
		for wait := time.Now().Add(5 * time.Second); len(rq.srv.Turns()) == n && time.Now().Before(wait); {
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// qwenDialog starts the real qwen on its defaults under hooksup's TUI and has it ask to run
// qwenKeyCommand; auto mode's dialog offers no always.
func qwenDialog(t *testing.T, replies ...mockapi.ChatReply) (*realQwen, *e2e.Tmux, web.Session) {
	t.Helper()
	rq, tm, s := qwenDialogArgs(t, nil, replies...)
	if a := s.Pending[0].Permission.Always; a != "" {
		t.Fatalf("auto mode's dialog offers always: %q", a)
	}
	return rq, tm, s
}

// qwenDialogArgs is qwenDialog with qwen's own arguments.
func qwenDialogArgs(t *testing.T, args []string, replies ...mockapi.ChatReply) (*realQwen, *e2e.Tmux, web.Session) {
	t.Helper()
	rq := newRealQwenTUI(t, append([]mockapi.ChatReply{mockapi.QwenShell(qwenKeyCommand, "create a file")}, replies...)...)
	tm := e2e.StartTmux(t, 160, 45, rq.env.Environ(), rq.env.WorkDir,
		append([]string{e2e.HooksupBin, "--debug", "--config", rq.Config(`mode = "auto"`), "qwen"}, args...)...)
	const wait = 90 * time.Second
	tm.WaitText(wait, "hooksup qwen", "Type your message")
	promptQwen(t, tm, rq, "make a file")
	tm.WaitText(wait, qwenDialogMark)
	s := e2e.WaitPermission(t, rq.Run, wait)
	q := s.Pending[0]
	if q.Permission == nil || q.Permission.Tool != "Shell" || q.Permission.Command != qwenKeyCommand {
		t.Fatalf("the question does not say what qwen asks to run: %+v", q.Permission)
	}
	tm.WaitText(10*time.Second, "⚑ Shell: "+qwenKeyCommand)
	return rq, tm, s
}

func TestKeysQwenApproved(t *testing.T) {
	t.Parallel()
	rq, tm, _ := qwenDialog(t, mockapi.ChatText("MADE-IT"), mockapi.ChatText("NEXT-TURN"))
	answerAndTime(t, rq.Run, tm, qwenDialogMark, "allowed Shell: "+qwenKeyCommand, "approve")
	tm.WaitText(60*time.Second, "MADE-IT")
	if _, err := os.Stat(filepath.Join(rq.env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	turns := rq.srv.Turns()
	if len(turns) < 2 || len(turns[1].ToolResults()) != 1 || !strings.Contains(turns[1].ToolResults()[0].Text(), qwenKeyCommand) {
		t.Fatalf("the model did not get the command's result: %d turns", len(turns))
	}
	nothingPending(t, rq.Run)
	for _, l := range strings.Split(rq.Log(), "\n") {
		if strings.Contains(l, "with keys") || strings.Contains(l, "the key again") {
			t.Log(l)
		}
	}
	keyVerdict(t, rq.Verdicts(), "allow", "manual (hooksup approve)", qwenKeyCommand)
	qwenPromptClean(t, rq, tm)
	if n := len(rq.srv.Turns()); n != 3 {
		t.Fatalf("%d turn requests: a key of hooksup's sent qwen's prompt", n)
	}
}

// On --approval-mode default, always presses qwen's own "Always allow run 'touch *' commands in
// this project": the command runs, qwen writes the rule to the project's settings, and a second
// touch in the same turn runs with no dialog and no new question.
func TestKeysQwenAlways(t *testing.T) {
	t.Parallel()
	rq, tm, s := qwenDialogArgs(t, []string{"--approval-mode", "default"},
		mockapi.QwenShell("touch again.txt", "create another"), mockapi.ChatText("MADE-BOTH"))
	if a := s.Pending[0].Permission.Always; !strings.Contains(a, "'touch *' commands in this project") {
		t.Fatalf("the question offers no always: %q", a)
	}
	answerAndTime(t, rq.Run, tm, qwenDialogMark, "allowed Shell: "+qwenKeyCommand, "approve", "--always")
	tm.WaitText(90*time.Second, "MADE-BOTH")
	for _, f := range []string{"created.txt", "again.txt"} {
		if _, err := os.Stat(filepath.Join(rq.env.WorkDir, f)); err != nil {
			t.Fatalf("a command allowed always did not run: %v", err)
		}
	}
	settings, err := os.ReadFile(filepath.Join(rq.env.WorkDir, ".qwen", "settings.json"))
	if err != nil || !strings.Contains(string(settings), "touch") {
		t.Fatalf("qwen's project settings after always: %q %v", settings, err)
	}
	nothingPending(t, rq.Run)
	keyVerdict(t, rq.Verdicts(), "always", "manual (hooksup approve)", qwenKeyCommand)
}

func TestKeysQwenDenied(t *testing.T) {
	t.Parallel()
	rq, tm, _ := qwenDialog(t, mockapi.ChatText("NEXT-TURN"))
	answerAndTime(t, rq.Run, tm, qwenDialogMark, "denied Shell: "+qwenKeyCommand, "deny")
	// Escape cancels the call and ends qwen's turn.
	tm.WaitText(60*time.Second, "- Shell "+qwenKeyCommand)
	if _, err := os.Stat(filepath.Join(rq.env.WorkDir, "created.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	keyVerdict(t, rq.Verdicts(), "deny", "manual (hooksup deny)", qwenKeyCommand)
	// The model hears of the refusal with the next prompt, as the call's result.
	r := qwenPromptClean(t, rq, tm)
	if len(rq.srv.Turns()) != 2 {
		t.Fatalf("%d turn requests: the denied call went on to the model before the next prompt", len(rq.srv.Turns()))
	}
	if res := r.ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text(), "User did not allow tool call") {
		t.Fatalf("the next request does not carry the refusal: %+v", res)
	}
}

// qwenPromptClean types a prompt and checks that the request it makes ends with exactly that
// text: no key hooksup pressed landed in qwen's input.
func qwenPromptClean(t *testing.T, rq *realQwen, tm *e2e.Tmux) mockapi.ChatRequest {
	t.Helper()
	tm.WaitText(60*time.Second, "Type your message")
	promptQwen(t, tm, rq, "next please")
	turns := rq.srv.Turns()
	r := turns[len(turns)-1]
	if got := strings.TrimSpace(r.UserPrompt()); got != "next please" {
		t.Fatalf("the prompt qwen sent is %q, not what was typed: a key landed in its input", got)
	}
	return r
}

// The person answers at qwen's own dialog: the question leaves the header within a second of
// the dialog leaving the screen, and a late answer from another shell finds it answered.
func TestKeysQwenAnsweredAtTerminalIsWithdrawn(t *testing.T) {
	t.Parallel()
	rq, tm, _ := qwenDialog(t, mockapi.ChatText("MADE-HERE"))
	tm.PressUntil("Enter", "the dialog closes", 30*time.Second, func(scr string) bool { return !strings.Contains(scr, qwenDialogMark) })
	gone := time.Now()
	tm.WaitFor("the header to drop the question", 10*time.Second, func(scr string) bool { return !strings.Contains(scr, "⚑ Shell") })
	took := time.Since(gone)
	t.Logf("the question was withdrawn %v after the dialog left the screen", took.Round(time.Millisecond))
	if took > time.Second {
		t.Fatalf("the question answered at the terminal was withdrawn only %v later", took)
	}
	tm.WaitText(60*time.Second, "MADE-HERE")
	if _, _, code := e2e.HubShell(t, rq.Run, "approve"); code == 0 {
		t.Fatal("a late approve succeeded")
	}
	if _, err := os.Stat(filepath.Join(rq.env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the command allowed at the terminal did not run: %v", err)
	}
	for _, v := range rq.Verdicts() {
		if v.Event == "PermissionRequest" {
			t.Fatalf("an answer at qwen's own dialog was recorded as hooksup's: %+v", v)
		}
	}
}
