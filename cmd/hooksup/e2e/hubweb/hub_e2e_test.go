package hubweb

import (
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/web"
)

// Two sessions of the real claude wait on a question each; a third shell lists them, approves
// the first (it alone continues, with the check's reason) and denies the second (it stops, no
// further request: its next request is the person's next prompt); each session's TUI drops the
// question and says where it was answered.
func TestHubApproveAndDenyFromAnotherShell(t *testing.T) {
	t.Parallel()
	const cfgText = `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestHub'; exit 1"
`
	rc1 := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-ONE"), mockapi.Text("ONE-CONTINUED"), mockapi.Text("ONE-AGAIN")}})
	rc2 := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-TWO"), mockapi.Text("TWO-AGAIN"), mockapi.Text("WRONG: A CONTINUATION")}})
	rc2.Env.Setenv("XDG_RUNTIME_DIR", rc1.Run)
	runDir := rc1.Run
	tm1 := rc1.ClaudeTUI(rc1.Config(cfgText), 160, 45)
	tm2 := rc2.ClaudeTUI(rc2.Config(cfgText), 160, 45)
	const wait = 45 * time.Second
	for _, tm := range []*e2e.Tmux{tm1, tm2} {
		tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	}
	e2e.TypeIntoClaude(t, tm1, "first prompt")
	tm1.Keys("Enter")
	e2e.TypeIntoClaude(t, tm2, "second prompt")
	tm2.Keys("Enter")
	tm1.WaitText(wait, "ANSWER-ONE", "⚑ claude wants to stop", "FAIL: TestHub")
	tm2.WaitText(wait, "ANSWER-TWO", "⚑ claude wants to stop", "FAIL: TestHub")

	ls := e2e.HubLs(t, runDir)
	if len(ls) != 2 {
		t.Fatalf("ls lists %d sessions, want 2: %+v", len(ls), ls)
	}
	byCwd := map[string]web.Session{}
	for _, s := range ls {
		byCwd[s.Cwd] = s
		if len(s.Pending) != 1 || s.Pending[0].Event != "Stop" || !strings.Contains(s.Pending[0].Reason, "FAIL: TestHub") ||
			s.SessionID == "" || s.Agent != "claude" || s.PID == 0 || s.Pending[0].Deadline.IsZero() {
			t.Fatalf("session %+v: want one pending Stop with the check's reason", s)
		}
	}
	first, second := byCwd[rc1.Env.WorkDir], byCwd[rc2.Env.WorkDir]
	if first.SessionID == "" || second.SessionID == "" {
		t.Fatalf("sessions by cwd: %+v, want %s and %s", ls, rc1.Env.WorkDir, rc2.Env.WorkDir)
	}

	if out, _, code := e2e.HubShell(t, runDir, "status"); code != 0 || out != "2 waiting on you\n" {
		t.Fatalf("status: exit %d, %q", code, out)
	}

	// Without SESSION, two questions pending is ambiguous.
	if _, errText, code := e2e.HubShell(t, runDir, "approve"); code != 1 || !strings.Contains(errText, "2 questions are pending") {
		t.Fatalf("approve without SESSION: exit %d, %q", code, errText)
	}

	out, errText, code := e2e.HubShell(t, runDir, "approve", first.SessionID[:8])
	if code != 0 || !strings.Contains(out, "the agent continues after") {
		t.Fatalf("approve: exit %d\n%s%s", code, out, errText)
	}
	// The check always fails: after its continuation the first session asks again, a new question.
	tm1.WaitText(wait, "ONE-CONTINUED", "continued by you (hooksup approve)")
	main1 := rc1.Srv.Main()
	if len(main1) < 2 || !strings.Contains(main1[1].LastUserText(), "FAIL: TestHub") {
		t.Fatalf("%d requests; the second's last user text %q", len(main1), e2e.LastUser(main1))
	}
	if n := len(rc2.Srv.Main()); n != 1 {
		t.Fatalf("approving the first session made the second make %d requests", n)
	}

	if _, errText, code := e2e.HubShell(t, runDir, "deny", second.SessionID[:8]+"x"); code != 1 || !strings.Contains(errText, "no session matches") {
		t.Fatalf("deny of an unknown session: exit %d, %q", code, errText)
	}
	out, errText, code = e2e.HubShell(t, runDir, "deny", second.SessionID[:8])
	if code != 0 || !strings.Contains(out, "the agent may stop at") {
		t.Fatalf("deny: exit %d\n%s%s", code, out, errText)
	}
	scr := tm2.WaitText(wait, "let stop by you (hooksup deny)")
	if strings.Contains(scr, "claude wants to stop") {
		t.Fatalf("question still shown after hooksup deny:\n%s", scr)
	}
	for _, s := range e2e.HubLs(t, runDir) {
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
	if _, errText, code := e2e.HubShell(t, runDir, "deny", second.SessionID[:8]); code != 1 || !strings.Contains(errText, "has no pending question") {
		t.Fatalf("deny with nothing pending: exit %d, %q", code, errText)
	}

	// The second session's next request is the person's next prompt: a continuation, after the
	// first session's approval or after its own denial, would have come before it.
	e2e.TypeIntoClaude(t, tm2, "second prompt again")
	tm2.Keys("Enter")
	tm2.WaitText(wait, "TWO-AGAIN", "⚑ claude wants to stop")
	if main2 := rc2.Srv.Main(); len(main2) != 2 || !strings.Contains(main2[1].LastUserText(), "second prompt again") {
		t.Fatalf("the second session made %d requests, the last's user text %q: want 2, the second its next prompt's", len(main2), e2e.LastUser(main2))
	}
}
