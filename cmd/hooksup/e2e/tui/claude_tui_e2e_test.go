package tui

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

func TestClaudeTUIAskApproveDenyEscape(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{
		mockapi.Text("ANSWER-ONE"), mockapi.Text("ANSWER-ONE-FIXED"),
		mockapi.Text("ANSWER-TWO"), mockapi.Text("ANSWER-THREE"), mockapi.Text("ANSWER-FOUR"), mockapi.Text("WRONG: A CONTINUATION"),
	}})
	cfg := rc.Config(`
mode = "ask"
[[stop.checks]]
name = "tests"
command = "if [ \"$HOOKSUP_STOP_HOOK_ACTIVE\" = true ]; then echo ok; else echo 'FAIL: TestTUI'; exit 1; fi"
`)
	tm := rc.ClaudeTUI(cfg, 160, 45)
	const wait = 45 * time.Second
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })

	// Typing a prompt reaches claude; the failing check in ask mode shows the question. Claude
	// may drop keys typed while it is still starting up: type until the text shows in its box.
	e2e.TypeIntoClaude(t, tm, "first prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "❯ first prompt", "ANSWER-ONE", "⚑ claude wants to stop", "FAIL: TestTUI")

	// Approve: claude continues with the check's reason, then stops.
	tm.Keys("C-]", "a")
	scr := tm.WaitText(wait, "ANSWER-ONE-FIXED", "continued by you", "let stop (checks passed)")
	if strings.Contains(scr, "claude wants to stop") {
		t.Fatalf("question still shown after approval:\n%s", scr)
	}
	main := rc.Srv.Main()
	if len(main) != 2 || !strings.Contains(main[1].LastUserText(), "Stop hook feedback:") || !strings.Contains(main[1].LastUserText(), "FAIL: TestTUI") {
		t.Fatalf("%d requests; second's last user text %q", len(main), e2e.LastUser(main))
	}

	// Deny: claude stops; no continuation request. The next prompt's request follows the
	// denied question's: a continuation would have come before it.
	e2e.TypeIntoClaude(t, tm, "second prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-TWO", "⚑ claude wants to stop")
	tm.Keys("C-]", "d")
	scr = tm.WaitText(wait, "let stop by you")
	if strings.Contains(scr, "claude wants to stop") {
		t.Fatalf("question still shown after denial:\n%s", scr)
	}

	// Escape while the question is pending: claude is interrupted, the verdict is escape, and
	// there is no further continuation in that turn.
	e2e.TypeIntoClaude(t, tm, "third prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-THREE", "⚑ claude wants to stop")
	main = rc.Srv.Main()
	if len(main) != 4 || !strings.Contains(main[3].LastUserText(), "third prompt") {
		t.Fatalf("%d requests, the last's user text %q: want 4, the third prompt's after the denied question's", len(main), e2e.LastUser(main))
	}
	tm.Keys("Escape")
	scr = tm.WaitText(wait, "let stop (Escape)", "● interrupted")
	if strings.Contains(scr, "interrupted · turn interrupted") {
		t.Fatalf("the header repeats itself:\n%s", scr)
	}
	if strings.Contains(scr, "claude wants to stop") {
		t.Fatalf("question still shown after Escape:\n%s", scr)
	}
	// The next prompt's request follows the escaped question's: a continuation would have come
	// before it. Its question is let stop.
	e2e.TypeIntoClaude(t, tm, "fourth prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-FOUR", "⚑ claude wants to stop")
	main = rc.Srv.Main()
	if len(main) != 5 || !strings.Contains(main[4].LastUserText(), "fourth prompt") {
		t.Fatalf("%d requests, the last's user text %q: want 5, the fourth prompt's after the escaped question's", len(main), e2e.LastUser(main))
	}
	if got := e2e.Decisions(rc.Verdicts()); got != "Stop:block/manual Stop:allow/checks Stop:allow/manual Interrupted:allow/escape Stop:allow/escape" {
		t.Fatalf("verdicts %s", got)
	}
	tm.Keys("C-]", "d")
	tm.WaitFor("the fourth question answered", wait, func(s string) bool { return !strings.Contains(s, "claude wants to stop") })

	// Resizing keeps claude's screen intact: it repaints at the new size.
	tm.Resize(110, 40)
	tm.WaitFor("claude's screen at 110 columns", wait, func(s string) bool {
		return strings.Contains(s, "ANSWER-FOUR") && strings.Contains(s, "manual mode on") && strings.Contains(s, "╭─ verdicts")
	})
	tm.Resize(170, 48)
	tm.WaitFor("claude's screen at 170 columns", wait, func(s string) bool {
		return strings.Contains(s, "ANSWER-FOUR") && strings.Contains(s, "manual mode on")
	})

	// Claude's own keys reach it: /exit ends claude, and hooksup with its status.
	tm.Text("/exit")
	tm.Keys("Enter")
	tm.WaitText(wait, "claude exited with status 0")
	tm.Keys("q")
	tm.WaitText(wait, "[exited 0]")
}

// The reason editor: its hints are whole on a wide screen; cancelling an edit neither answers
// the question nor interrupts claude; a reason of several lines reaches claude with its line
// breaks.
func TestClaudeTUIEditReason(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-ONE"), mockapi.Text("ANSWER-EDITED")}})
	cfg := rc.Config(`
mode = "ask"
[[stop.checks]]
name = "tests"
command = "if [ \"$HOOKSUP_STOP_HOOK_ACTIVE\" = true ]; then echo ok; else echo 'FAIL: TestEdit'; echo '    edit_test.go:7: want 1'; exit 1; fi"
`)
	tm := rc.ClaudeTUI(cfg, 200, 45)
	const wait = 45 * time.Second
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm, "first prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-ONE", "⚑ claude wants to stop")

	// Open the editor, then cancel it: the question is still there and claude was not
	// interrupted.
	tm.Keys("C-]", "e")
	scr := tm.WaitText(wait, "enter send · ctrl+j/alt+enter/shift+enter new line · ctrl+l clear · ctrl+c cancel edit · esc interrupts claude · ")
	if !strings.Contains(scr, "› The check \"tests\"") || !strings.Contains(scr, "FAIL: TestEdit") {
		t.Fatalf("the editor does not show the checks' reason with its lines:\n%s", scr)
	}
	tm.Keys("C-c")
	scr = tm.WaitFor("the editor to close", wait, func(s string) bool { return !strings.Contains(s, "ctrl+c cancel edit") })
	if !strings.Contains(scr, "⚑ claude wants to stop") || strings.Contains(scr, "interrupted") {
		t.Fatalf("cancelling the edit answered the question or interrupted claude:\n%s", scr)
	}

	// Edit again: two lines more, then send. The editor starts on a line of its own below the
	// reason: what is typed there follows the reason's last line. That the same question is
	// answered by this edit, and claude's next request is the first after its prompt's and
	// carries the edited reason, proves the cancelled edit neither answered the question nor
	// interrupted claude: either would have dropped the question or sent another request.
	tm.Keys("C-]", "e")
	tm.WaitText(wait, "ctrl+c cancel edit")
	tm.Text("ALSO-LINE-ONE")
	tm.Keys("C-j")
	tm.Text("ALSO-LINE-TWO")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-EDITED", "continued by you", "let stop (checks passed)", "waiting for input")
	main := rc.Srv.Main()
	if len(main) != 2 {
		t.Fatalf("%d requests, want 2", len(main))
	}
	got := main[1].LastUserText()
	if !strings.Contains(got, "\nFAIL: TestEdit\n    edit_test.go:7: want 1\nALSO-LINE-ONE\nALSO-LINE-TWO") {
		t.Fatalf("claude read %q: the line breaks are lost", got)
	}
	tm.Keys("C-]", "q")
	tm.WaitText(wait, "[exited")
}

// /exit before any conversation: hooksup holds a summary, not a blank pane. After a
// conversation the summary counts the verdicts and tokens and gives the command that resumes
// the session under hooksup.
func TestClaudeTUIExitSummary(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-ONE")}})
	cfg := rc.Config("mode = \"ask\"\n[[stop.checks]]\nname = \"tests\"\ncommand = \"true\"\n")
	const wait = 45 * time.Second

	tm := rc.ClaudeTUI(cfg, 140, 40)
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm, "/exit")
	tm.Keys("Enter")
	scr := tm.WaitText(wait, "claude exited with status 0", "no verdicts", "no conversation to resume", "press any key to close")
	if strings.Contains(scr, "--resume") {
		t.Fatalf("a resume command for a session without a conversation:\n%s", scr)
	}
	tm.Keys("x")
	tm.WaitText(wait, "[exited 0]")

	tm = rc.ClaudeTUI(cfg, 140, 40)
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm, "first prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-ONE", "let stop (checks passed)")
	e2e.TypeIntoClaude(t, tm, "/exit")
	tm.Keys("Enter")
	vs := rc.Verdicts()
	if len(vs) == 0 || vs[0].SessionID == "" {
		t.Fatalf("verdicts %+v", vs)
	}
	scr = tm.WaitText(wait, "claude exited with status 0", "1 verdict: 1 let stop", "hooksup claude --resume "+vs[0].SessionID)
	if !regexp.MustCompile(`\d+(\.\d)?k? tokens`).MatchString(scr) {
		t.Fatalf("the summary does not count the tokens:\n%s", scr)
	}
	tm.Keys("x")
	tm.WaitText(wait, "[exited 0]")
}

// Quitting while claude works asks first: another key keeps claude, the quit key again ends
// it, and hooksup exits with claude's status.
func TestClaudeTUIQuitAsksWhileWorking(t *testing.T) {
	t.Parallel()
	// The first reply waits until the test lets it go; the second never comes in time.
	release := make(chan struct{})
	var mu sync.Mutex
	n := 0
	rc := e2e.NewRealClaudeTUI(t, mockapi.HandlerFunc(func(*mockapi.Request) mockapi.Reply {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if !first {
			return mockapi.Text("NEVER-SHOWN").WithDelay(2 * time.Minute)
		}
		select {
		case <-release:
		case <-t.Context().Done():
		}
		return mockapi.Text("SLOW-ANSWER")
	}))
	cfg := rc.Config("mode = \"ask\"\n")
	const wait = 45 * time.Second
	tm := rc.ClaudeTUI(cfg, 140, 40)
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm, "slow prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "● working")

	tm.Keys("C-]", "q")
	tm.WaitText(wait, "claude is working: q again ends it")
	tm.Keys("x") // keeps claude
	tm.WaitFor("the quit question gone", wait, func(s string) bool { return !strings.Contains(s, "q again ends it") })
	// Claude kept: its reply, let go only now, is shown and its turn ends, and it takes the next
	// prompt. Had the key ended it, claude would be gone before the reply came.
	close(release)
	tm.WaitText(wait, "SLOW-ANSWER", "waiting for input")
	e2e.TypeIntoClaude(t, tm, "another slow prompt")
	tm.Keys("Enter")
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	rs, err := rc.Srv.Wait(ctx, func(rs []mockapi.Request) bool { return len(mockapi.Filter(rs, mockapi.KindMain)) >= 2 })
	if main := mockapi.Filter(rs, mockapi.KindMain); err != nil || len(main) != 2 || !strings.Contains(main[1].LastUserText(), "another slow prompt") {
		t.Fatalf("%v: %d requests, the last's user text %q: want 2, the second the next prompt's\n%s", err, len(main), e2e.LastUser(main), tm.Screen())
	}
	tm.WaitText(wait, "● working")

	tm.Keys("C-]", "q")
	tm.WaitText(wait, "claude is working: q again ends it")
	tm.Keys("q")
	scr := tm.WaitText(wait, "[exited ")
	code := regexp.MustCompile(`\[exited (\d+)\]`).FindStringSubmatch(scr)[1]
	logged := regexp.MustCompile(`msg="agent exited" code=(\d+)`).FindAllStringSubmatch(rc.Log(), -1)
	if len(logged) == 0 || logged[len(logged)-1][1] != code {
		t.Fatalf("hooksup exited with %s; claude's status in hooksup.log: %v", code, logged)
	}
}
