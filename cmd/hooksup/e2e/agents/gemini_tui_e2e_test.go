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

// newRealGeminiTUI is a real-gemini environment for tests in tmux: the tmux server cannot join
// the tests' network namespace, so the mock listens on the host's loopback.
func newRealGeminiTUI(t *testing.T, replies ...mockapi.GeminiReply) *e2e.RealGemini {
	t.Helper()
	e2e.RequireTmux(t)
	srv := mockapi.NewGeminiServer(t, &mockapi.GeminiScript{Replies: replies}, mockapi.WithQuiet())
	env := mockapi.NewGeminiEnv(t, srv.URL, "")
	env.Setenv("TERM", "xterm-256color")
	env.Setenv("HOOKSUP_GEMINI_BIN", env.Gemini)
	return &e2e.RealGemini{HooksupEnv: e2e.NewHooksupEnv(t, "hg", env.Home, env.Setenv, srv.Run, env.Command), Srv: srv, Env: env}
}

// geminiPrompt is what gemini 0.61.0 shows before the text typed into its input line.
const geminiPrompt = "> "

// promptGemini types text into gemini's input and sends it, until the mock has the turn request
// it makes: a busy gemini can lose an Enter (the text then stays in its input), and an Enter
// more on an empty input sends nothing.
func promptGemini(t *testing.T, tm *e2e.Tmux, rg *e2e.RealGemini, text string) {
	t.Helper()
	n := len(rg.Srv.Turns())
	tm.TypeAfter(geminiPrompt, text)
	deadline := time.Now().Add(60 * time.Second)
	for len(rg.Srv.Turns()) == n {
		if time.Now().After(deadline) {
			t.Fatalf("gemini sent no request for the prompt; screen:\n%s", tm.Screen())
		}
		tm.Keys("Enter")
		for wait := time.Now().Add(5 * time.Second); len(rg.Srv.Turns()) == n && time.Now().Before(wait); {
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// (d) The TUI in ask mode: the check's proposal waits as a question on screen; Escape reaches
// gemini, and the verdict is allow by Escape with no further request.
func TestGeminiTUIAskEscape(t *testing.T) {
	t.Parallel()
	rg := newRealGeminiTUI(t, mockapi.GeminiText("ANSWER-ONE"), mockapi.GeminiText("WRONG: A CONTINUATION"))
	cfg := rg.Config(`
mode = "ask"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestGeminiTUI'; exit 1"
retry_on_failure = true
`)
	tm := e2e.StartTmux(t, 160, 45, rg.Env.Environ(), rg.Env.WorkDir, e2e.HooksupBin, "--config", cfg, "gemini")
	const wait = 60 * time.Second
	tm.WaitText(wait, "hooksup gemini", "Type your message")

	promptGemini(t, tm, rg, "first prompt")
	scr := tm.WaitText(wait, "ANSWER-ONE", "⚑ gemini wants to stop", "FAIL: TestGeminiTUI", "esc")
	t.Logf("the question:\n%s", scr)

	tm.Keys("Escape")
	tm.WaitText(wait, "let stop (Escape)")
	tm.WaitFor("the verdicts", wait, func(string) bool { return len(rg.Verdicts()) == 2 })
	if got := e2e.Decisions(rg.Verdicts()); got != "Interrupted:allow/escape Stop:allow/escape" {
		t.Fatalf("verdicts %s\nscreen:\n%s", got, tm.Screen())
	}
	// gemini is back at its prompt, and asked nothing more.
	tm.TypeAfter(geminiPrompt, "still here")
	if n := len(rg.Srv.Turns()); n != 1 {
		t.Fatalf("gemini made %d turn requests after Escape, want 1\nscreen:\n%s\nlog:\n%s", n, tm.Screen(), rg.Log())
	}
	if scr = tm.Screen(); strings.Contains(scr, "gemini wants to stop") {
		t.Fatalf("question still shown after Escape:\n%s", scr)
	}
	// gemini's own keys reach it: /quit ends it, its parting hint resumes under hooksup, and so
	// does the line hooksup prints as it ends.
	tm.Keys("C-u")
	typeQuit(t, tm)
	tm.Keys("Enter")
	tm.WaitText(wait, "gemini exited with status 0", "To resume this session: hooksup gemini --resume ")
	tm.Keys("q")
	scr = tm.WaitText(wait, "[exited 0]")
	id := rg.Verdicts()[1].SessionID
	if !strings.Contains(scr, "Resume this session under hooksup with:\nhooksup gemini --resume "+id) {
		t.Fatalf("no hooksup gemini --resume %s at the end:\n%s", id, scr)
	}
}

// (g) An untrusted folder in the TUI: gemini asks whether to trust it; answered "Don't trust",
// it runs without hooks of its settings, and hooksup says that gemini is not running its hooks.
func TestGeminiTUIUntrustedFolder(t *testing.T) {
	t.Parallel()
	rg := newRealGeminiTUI(t, mockapi.GeminiText("UNGATED-ANSWER"))
	if err := rg.Env.Untrust(); err != nil {
		t.Fatal(err)
	}
	cfg := rg.Config(`mode = "auto"`)
	tm := e2e.StartTmux(t, 160, 45, rg.Env.Environ(), rg.Env.WorkDir, e2e.HooksupBin, "--config", cfg, "gemini")
	const wait = 60 * time.Second
	scr := tm.WaitText(wait, "hooksup gemini", "Don't trust")
	t.Logf("the trust dialog:\n%s", scr)
	// Down to "Don't trust", then Enter: gemini drops a key that comes while it redraws (it
	// draws the dialog before its banner, then again), and a lost Enter would leave the dialog
	// open; a key is pressed again while the screen does not show what it does.
	if marked := func(s string) bool { return strings.Contains(s, "● 3. Don't trust") }; !marked(tm.Screen()) {
		tm.PressUntil("Down", "the mark on Don't trust", wait, marked)
	}
	tm.PressUntil("Enter", "gemini's input", wait, func(s string) bool {
		return strings.Contains(s, "Type your message") && !strings.Contains(s, "Do you trust the files")
	})
	promptGemini(t, tm, rg, "hello")
	scr = tm.WaitText(wait, "UNGATED-ANSWER", "gemini is not running hooksup's hooks")
	t.Logf("the notice:\n%s", scr)
	if vs := rg.Verdicts(); len(vs) != 0 {
		t.Fatalf("verdicts in an untrusted folder: %s", e2e.Decisions(vs))
	}
	// The answer is the person's, kept in their own trusted folders.
	if b, _ := os.ReadFile(filepath.Join(rg.Env.GeminiDir, "trustedFolders.json")); !strings.Contains(string(b), "DO_NOT_TRUST") {
		t.Fatalf("their trustedFolders.json does not keep the answer: %s", b)
	}
	tm.Keys("C-u")
	typeQuit(t, tm)
	tm.Keys("Enter")
	tm.WaitText(wait, "gemini exited with status 0")
}

// The state comes from gemini's window title too, where no hook tells it: once the person allows
// a shell command at gemini's permission dialog, the header says working while the command still
// runs (before the chat has its result, which would also say it).
func TestGeminiTUIStateFromTitle(t *testing.T) {
	t.Parallel()
	rg := newRealGeminiTUI(t, mockapi.GeminiShell("sleep 6"), mockapi.GeminiText("SLEPT-WELL"))
	tm := e2e.StartTmux(t, 160, 45, rg.Env.Environ(), rg.Env.WorkDir, e2e.HooksupBin, "--config", rg.Config(`mode = "auto"`), "gemini")
	const wait = 60 * time.Second
	tm.WaitText(wait, "hooksup gemini", "Type your message")
	promptGemini(t, tm, rg, "take a nap")
	tm.WaitText(wait, "Allow once", "● needs permission")
	tm.Keys("Enter")
	scr := tm.WaitText(wait, "● working")
	chats, _ := filepath.Glob(rg.Env.ChatsGlob())
	for _, c := range chats {
		if b, _ := os.ReadFile(c); strings.Contains(string(b), "functionResponse") {
			t.Fatalf("the chat already has the command's result: the state may have come from there\n%s", scr)
		}
	}
	tm.WaitText(wait, "SLEPT-WELL", "● waiting")
	tm.Keys("C-u")
	typeQuit(t, tm)
	tm.Keys("Enter")
	tm.WaitText(wait, "gemini exited with status 0")
}

// typeQuit types /quit at gemini's prompt and waits for gemini's list of commands to offer
// quit alone ("Exit the cli") before Enter: typed fast, an Enter that comes while the list still
// shows the commands of "/" takes its first one (/clear) instead.
func typeQuit(t *testing.T, tm *e2e.Tmux) {
	t.Helper()
	tm.TypeAfter(geminiPrompt, "/quit")
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if scr := tm.Screen(); strings.Contains(scr, "Exit the cli") && !strings.Contains(scr, "Clear the screen") {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("gemini's list never offered quit alone:\n%s", tm.Screen())
}
