package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// Two sessions of the real claude wait on a question each; `hooksup watch` in a third terminal
// (sharing only the runtime directory) shows both with their question, and approving the
// selected first one makes it alone continue, its verdict saying it was answered in watch.
func TestHubWatch(t *testing.T) {
	const cfgText = `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestWatch'; exit 1"
`
	rc1 := newRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-ONE"), mockapi.Text("ONE-CONTINUED"), mockapi.Text("ONE-AGAIN")}})
	rc2 := newRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-TWO"), mockapi.Text("WRONG: A CONTINUATION")}})
	rc2.env.Setenv("XDG_RUNTIME_DIR", rc1.run)
	runDir := rc1.run
	tm1 := rc1.claudeTUI(rc1.config(cfgText), 160, 45)
	const wait = 45 * time.Second
	tm1.waitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	typeIntoClaude(t, tm1, "first prompt")
	tm1.keys("Enter")
	tm1.waitText(wait, "ANSWER-ONE", "⚑ claude wants to stop", "FAIL: TestWatch")
	// The second starts after the first is waiting: watch lists sessions oldest first.
	tm2 := rc2.claudeTUI(rc2.config(cfgText), 160, 45)
	tm2.waitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	typeIntoClaude(t, tm2, "second prompt")
	tm2.keys("Enter")
	tm2.waitText(wait, "ANSWER-TWO", "⚑ claude wants to stop", "FAIL: TestWatch")

	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + runDir, "TERM=xterm-256color",
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config")}
	w := startTmux(t, 140, 40, env, home, hooksupBin, "watch")
	var p1, p2 string // the sessions' short ids
	for _, s := range hubLs(t, runDir) {
		switch s.Cwd {
		case rc1.env.WorkDir:
			p1 = s.SessionID[:8]
		case rc2.env.WorkDir:
			p2 = s.SessionID[:8]
		}
	}
	if p1 == "" || p2 == "" {
		t.Fatalf("ls does not list both sessions: %+v", hubLs(t, runDir))
	}
	scr := w.waitFor("both sessions, each with its question", wait, func(s string) bool {
		return strings.Contains(s, p1) && strings.Contains(s, p2) && strings.Contains(s, "work") && strings.Count(s, "FAIL: TestWatch") == 2 &&
			strings.Count(s, "⚑ Stop") == 2
	})
	if !strings.Contains(scr, "2 sessions") || !strings.Contains(scr, "left") {
		t.Fatalf("watch's screen:\n%s", scr)
	}
	// The first (oldest) session is selected: the approve key answers its question.
	w.keys("a")
	tm1.waitText(wait, "ONE-CONTINUED", "block manual (hooksup watch)")
	w.waitText(wait, "block manual (hooksup watch)")
	main1 := rc1.srv.Main()
	if len(main1) < 2 || !strings.Contains(main1[1].LastUserText(), "FAIL: TestWatch") {
		t.Fatalf("%d requests; the second's last user text %q", len(main1), lastUser(main1))
	}
	time.Sleep(time.Second)
	if n := len(rc2.srv.Main()); n != 1 {
		t.Fatalf("approving the first session made the second make %d requests", n)
	}
	for _, s := range hubLs(t, runDir) {
		if s.Cwd == rc2.env.WorkDir && len(s.Pending) != 1 {
			t.Fatalf("the second session's question is no longer pending: %+v", s)
		}
	}
	if !strings.Contains(tm2.screen(), "⚑ claude wants to stop") {
		t.Fatalf("the second session's question left its banner:\n%s", tm2.screen())
	}
}
