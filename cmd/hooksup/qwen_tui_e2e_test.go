package main

import (
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// newRealQwenTUI is a real-qwen environment for tests in tmux: the tmux server cannot join the
// tests' network namespace, so the mock listens on the host's loopback.
func newRealQwenTUI(t *testing.T, replies ...mockapi.ChatReply) *realQwen {
	t.Helper()
	requireTmux(t)
	srv := mockapi.NewChatServer(t, &mockapi.ChatScript{Replies: replies}, mockapi.WithQuiet())
	env := mockapi.NewQwenEnv(t, srv.URL, "")
	env.Setenv("TERM", "xterm-256color")
	env.Setenv("HOOKSUP_QWEN_BIN", env.Qwen)
	return &realQwen{hooksupEnv: newHooksupEnv(t, "hq", env.Home, env.Setenv, srv.Run, env.Command), srv: srv, env: env}
}

// qwenPrompt is what qwen 0.24.4 shows before the text typed into its input line.
const qwenPrompt = "> "

// (c, h) The TUI in ask mode: the check's proposal waits as a question, the session is listed by
// hooksup ls, and hooksup halt ends the turn: qwen sends no further request (its own
// {"continue":false} would have made it continue) and shows hooksup's message.
func TestQwenTUIHaltEndsTheTurn(t *testing.T) {
	rq := newRealQwenTUI(t, mockapi.ChatText("ANSWER-ONE"), mockapi.ChatText("WRONG: A CONTINUATION"))
	cfg := rq.config(`
mode = "ask"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestQwenTUI'; exit 1"
retry_on_failure = true
`)
	tm := startTmux(t, 160, 45, rq.env.Environ(), rq.env.WorkDir, hooksupBin, "--config", cfg, "qwen")
	const wait = 90 * time.Second
	tm.waitText(wait, "hooksup qwen", "Type your message")
	typeAfter(t, tm, qwenPrompt, "first prompt")
	tm.keys("Enter")
	scr := tm.waitText(wait, "ANSWER-ONE", "⚑ qwen wants to stop", "FAIL: TestQwenTUI")
	t.Logf("the question:\n%s", scr)

	ls := rq.hooksup("ls")
	if ls.ExitCode != 0 || !strings.Contains(ls.Stdout, "qwen") {
		t.Fatalf("hooksup ls does not list the qwen session: exit %d\n%s%s", ls.ExitCode, ls.Stdout, ls.Stderr)
	}
	t.Logf("hooksup ls:\n%s", ls.Stdout)
	if h := rq.hooksup("halt", "--reason", "wrong branch"); h.ExitCode != 0 || !strings.Contains(h.Stdout, "halted the turn") {
		t.Fatalf("halt: exit %d\n%s%s", h.ExitCode, h.Stdout, h.Stderr)
	}
	scr = tm.waitText(wait, "hooksup: halted: wrong branch")
	tm.waitFor("the verdict", wait, func(string) bool { return len(rq.verdicts()) == 1 })
	if got := decisions(rq.verdicts()); got != "Stop:halt/manual (hooksup halt)" {
		t.Fatalf("verdicts %s\nscreen:\n%s", got, scr)
	}
	// qwen is back at its prompt, and asked nothing more.
	typeAfter(t, tm, qwenPrompt, "still here")
	if n := len(rq.srv.Turns()); n != 1 {
		t.Fatalf("qwen made %d turn requests after the halt, want 1\nscreen:\n%s", n, tm.screen())
	}
}
