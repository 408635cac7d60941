package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// otherTerminal is the environment of a person's other terminal: a HOME of its own, and only the
// runtime directory shared with the sessions.
func otherTerminal(t *testing.T, runDir string) (home string, env []string) {
	t.Helper()
	home = t.TempDir()
	return home, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + runDir,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config")}
}

// hubShell runs hooksup in a third shell, a person's other terminal (otherTerminal).
func hubShell(t *testing.T, runDir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(hooksupBin, args...)
	_, cmd.Env = otherTerminal(t, runDir)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func hubLs(t *testing.T, runDir string) []lsJSON {
	t.Helper()
	out, errText, code := hubShell(t, runDir, "ls", "--json")
	if code != 0 {
		t.Fatalf("hooksup ls --json: exit %d: %s", code, errText)
	}
	var ls []lsJSON
	if err := json.Unmarshal([]byte(out), &ls); err != nil {
		t.Fatalf("hooksup ls --json: %v\n%s", err, out)
	}
	return ls
}

// Two sessions of the real claude wait on a question each; a third shell lists them, approves
// the first (it alone continues, with the check's reason) and denies the second (it stops, no
// further request: its next request is the person's next prompt); each session's TUI drops the
// question and says where it was answered.
func TestHubApproveAndDenyFromAnotherShell(t *testing.T) {
	const cfgText = `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestHub'; exit 1"
`
	rc1 := newRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-ONE"), mockapi.Text("ONE-CONTINUED"), mockapi.Text("ONE-AGAIN")}})
	rc2 := newRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-TWO"), mockapi.Text("TWO-AGAIN"), mockapi.Text("WRONG: A CONTINUATION")}})
	rc2.env.Setenv("XDG_RUNTIME_DIR", rc1.run)
	runDir := rc1.run
	tm1 := rc1.claudeTUI(rc1.config(cfgText), 160, 45)
	tm2 := rc2.claudeTUI(rc2.config(cfgText), 160, 45)
	const wait = 45 * time.Second
	for _, tm := range []*e2e.Tmux{tm1, tm2} {
		tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	}
	typeIntoClaude(t, tm1, "first prompt")
	tm1.Keys("Enter")
	typeIntoClaude(t, tm2, "second prompt")
	tm2.Keys("Enter")
	tm1.WaitText(wait, "ANSWER-ONE", "⚑ claude wants to stop", "FAIL: TestHub")
	tm2.WaitText(wait, "ANSWER-TWO", "⚑ claude wants to stop", "FAIL: TestHub")

	ls := hubLs(t, runDir)
	if len(ls) != 2 {
		t.Fatalf("ls lists %d sessions, want 2: %+v", len(ls), ls)
	}
	byCwd := map[string]lsJSON{}
	for _, s := range ls {
		byCwd[s.Cwd] = s
		if len(s.Pending) != 1 || s.Pending[0].Event != "Stop" || !strings.Contains(s.Pending[0].Reason, "FAIL: TestHub") ||
			s.SessionID == "" || s.Agent != "claude" || s.PID == 0 || s.Pending[0].Deadline.IsZero() {
			t.Fatalf("session %+v: want one pending Stop with the check's reason", s)
		}
	}
	first, second := byCwd[rc1.env.WorkDir], byCwd[rc2.env.WorkDir]
	if first.SessionID == "" || second.SessionID == "" {
		t.Fatalf("sessions by cwd: %+v, want %s and %s", ls, rc1.env.WorkDir, rc2.env.WorkDir)
	}

	if out, _, code := hubShell(t, runDir, "status"); code != 0 || out != "2 waiting on you\n" {
		t.Fatalf("status: exit %d, %q", code, out)
	}

	// Without SESSION, two questions pending is ambiguous.
	if _, errText, code := hubShell(t, runDir, "approve"); code != 1 || !strings.Contains(errText, "2 questions are pending") {
		t.Fatalf("approve without SESSION: exit %d, %q", code, errText)
	}

	out, errText, code := hubShell(t, runDir, "approve", first.SessionID[:8])
	if code != 0 || !strings.Contains(out, "the agent continues after") {
		t.Fatalf("approve: exit %d\n%s%s", code, out, errText)
	}
	// The check always fails: after its continuation the first session asks again, a new question.
	tm1.WaitText(wait, "ONE-CONTINUED", "continued by you (hooksup approve)")
	main1 := rc1.srv.Main()
	if len(main1) < 2 || !strings.Contains(main1[1].LastUserText(), "FAIL: TestHub") {
		t.Fatalf("%d requests; the second's last user text %q", len(main1), lastUser(main1))
	}
	if n := len(rc2.srv.Main()); n != 1 {
		t.Fatalf("approving the first session made the second make %d requests", n)
	}

	if _, errText, code := hubShell(t, runDir, "deny", second.SessionID[:8]+"x"); code != 1 || !strings.Contains(errText, "no session matches") {
		t.Fatalf("deny of an unknown session: exit %d, %q", code, errText)
	}
	out, errText, code = hubShell(t, runDir, "deny", second.SessionID[:8])
	if code != 0 || !strings.Contains(out, "the agent may stop at") {
		t.Fatalf("deny: exit %d\n%s%s", code, out, errText)
	}
	scr := tm2.WaitText(wait, "let stop by you (hooksup deny)")
	if strings.Contains(scr, "claude wants to stop") {
		t.Fatalf("question still shown after hooksup deny:\n%s", scr)
	}
	for _, s := range hubLs(t, runDir) {
		switch s.SessionID {
		case second.SessionID:
			if len(s.Pending) != 0 {
				t.Fatalf("the second session still has a pending question: %+v", s)
			}
		case first.SessionID:
			if len(s.Pending) > 0 && s.Pending[0].ID == first.Pending[0].ID {
				t.Fatalf("the first session's approved question is still pending: %+v", s)
			}
		}
	}
	// The same question again: already answered.
	if _, errText, code := hubShell(t, runDir, "deny", second.SessionID[:8]); code != 1 || !strings.Contains(errText, "has no pending question") {
		t.Fatalf("deny with nothing pending: exit %d, %q", code, errText)
	}

	// The second session's next request is the person's next prompt: a continuation, after the
	// first session's approval or after its own denial, would have come before it.
	typeIntoClaude(t, tm2, "second prompt again")
	tm2.Keys("Enter")
	tm2.WaitText(wait, "TWO-AGAIN", "⚑ claude wants to stop")
	if main2 := rc2.srv.Main(); len(main2) != 2 || !strings.Contains(main2[1].LastUserText(), "second prompt again") {
		t.Fatalf("the second session made %d requests, the last's user text %q: want 2, the second its next prompt's", len(main2), lastUser(main2))
	}
}
