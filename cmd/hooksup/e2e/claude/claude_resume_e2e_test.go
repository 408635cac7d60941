package claude

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// hooksup claude --resume ID and --continue bring a session back under supervision: the
// resumed run's stops are decided (a failing check makes claude continue) and logged in the
// same session, beside the first run's.
func TestClaudeResumeAndContinueAreSupervised(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{
		mockapi.Text("FIRST"), mockapi.Text("SECOND"), mockapi.Text("SECOND-FIXED"), mockapi.Text("THIRD"),
	}})
	res := rc.Hooksup("--config", rc.Config(`mode = "auto"`), "claude", "-p", "one")
	if res.ExitCode != 0 || res.Stdout != "FIRST\n" {
		t.Fatalf("first run: exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	vs := rc.Verdicts()
	if len(vs) != 1 || vs[0].SessionID == "" {
		t.Fatalf("first run's verdicts %+v", vs)
	}
	id := vs[0].SessionID

	// Resumed, with a check that fails once: claude continues, in the same session.
	marker := rc.Env.Home + "/once"
	cfg := rc.Config(`mode = "auto"
[[stop.checks]]
name = "tests"
command = "test -f ` + marker + ` || { touch ` + marker + `; echo 'FAIL: resumed'; exit 1; }"
`)
	res = rc.Hooksup("--config", cfg, "claude", "-p", "two", "--resume", id)
	if res.ExitCode != 0 || res.Stdout != "SECOND-FIXED\n" {
		t.Fatalf("resumed run: exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if fb := rc.Srv.Main()[2].LastUserText(); !strings.Contains(fb, "FAIL: resumed") {
		t.Fatalf("the resumed run's continuation did not carry the check's reason: %q", fb)
	}
	res = rc.Hooksup("--config", rc.Config(`mode = "auto"`), "claude", "-p", "three", "--continue")
	if res.ExitCode != 0 || res.Stdout != "THIRD\n" {
		t.Fatalf("continued run: exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}

	logged := rc.LogVerdicts(id)
	if got := e2e.Decisions(logged); got != "Stop:allow/nochecks Stop:block/check:tests Stop:allow/checks Stop:allow/nochecks" {
		t.Fatalf("hooksup log --session %s: %s", id, got)
	}
	for i, v := range logged {
		if v.SessionID != id {
			t.Fatalf("verdict %d is of session %s, want %s", i, v.SessionID, id)
		}
	}
	// The transcript is followed: the resumed runs' observations see claude's last messages.
	if o := logged[3].Observation; o == nil || o.LastMessage != "THIRD" {
		t.Fatalf("continued run's observation %+v", o)
	}
}

var resumeLineRE = regexp.MustCompile(`hooksup claude --resume ([0-9a-f-]{36})`)

// In the TUI, after /exit the person sees how to resume the session under hooksup — in the
// held pane and on the terminal once hooksup has gone — and never the path of hooksup's
// settings file; that command brings the session back under supervision.
func TestClaudeTUIResumeHint(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("FIRST-ANSWER"), mockapi.Text("RESUMED-ANSWER")}})
	rc.Env.Setenv("HOOKSUP_CLAUDE_BIN", rc.Env.Claude)
	cfg := rc.Config(`mode = "auto"`)
	const wait = 45 * time.Second
	tm := e2e.StartTmux(t, 160, 40, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--config", cfg, "claude")
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "❯") })
	e2e.TypeIntoClaude(t, tm, "hello")
	tm.Keys("Enter")
	tm.WaitText(wait, "FIRST-ANSWER", "let stop (no checks)")
	tm.Text("/exit")
	tm.WaitText(wait, "/exit")
	tm.Keys("Enter")
	held := tm.WaitText(wait, "claude exited with status 0", "hooksup claude --resume ")
	if strings.Contains(held, "settings") || regexp.MustCompile(`(^|[^p] )claude --resume`).MatchString(squashSpaces(held)) {
		t.Fatalf("the held pane still shows claude's own resume command:\n%s", held)
	}
	m := resumeLineRE.FindStringSubmatch(held)
	if m == nil {
		t.Fatalf("no session id in the held pane:\n%s", held)
	}
	id := m[1]
	tm.Keys("q")
	after := tm.WaitText(wait, "[exited 0]")
	if !strings.Contains(after, "Resume this session under hooksup with:\nhooksup claude --resume "+id) || strings.Contains(after, "settings") {
		t.Fatalf("after hooksup exited the terminal shows:\n%s", after)
	}

	// The command it shows brings the session back under hooksup.
	tm2 := e2e.StartTmux(t, 160, 40, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--config", cfg, "claude", "--resume", id)
	tm2.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "❯") && strings.Contains(s, "FIRST-ANSWER") })
	e2e.TypeIntoClaude(t, tm2, "again")
	tm2.Keys("Enter")
	tm2.WaitText(wait, "RESUMED-ANSWER", "let stop (no checks)")
	logged := rc.LogVerdicts(id)
	if got := e2e.Decisions(logged); got != "Stop:allow/nochecks Stop:allow/nochecks" {
		t.Fatalf("hooksup log --session %s: %s", id, got)
	}
}

// squashSpaces turns runs of blanks into one space.
func squashSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }
