package agents

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/verdictlog"
)

// Claude's auto-mode dialog, codex's, copilot's and qwen's, answered with keys, are the page's
// cards as gemini's and claude's hook-answered dialog are: Allow runs the command, Deny refuses it, and the verdict log names the
// paired browser that answered.

// answerFromThePage opens hooksup web's page for the sessions of runDir in a headless Chromium,
// waits for the card's permission question naming command, and clicks its button action
// (allow or deny); the question leaves the card.
func answerFromThePage(t *testing.T, runDir, command, action string) {
	t.Helper()
	const wait = 60 * time.Second
	ctx := e2e.PermissionPage(t, runDir, command, wait)
	e2e.Click(t, ctx, `.card button[data-action="`+action+`"]`)
	e2e.EvalUntil(t, ctx, wait, "the card without its question", `!document.querySelector(".question.permission")`)
}

// denyWithReasonFromThePage opens hooksup web's page for the sessions of runDir, waits for the
// card's permission question naming command, and refuses it with reason: Deny… opens the field
// for it, the reason is typed there, and Enter sends it; the question leaves the card.
func denyWithReasonFromThePage(t *testing.T, runDir, command, reason string) {
	t.Helper()
	const wait = 60 * time.Second
	ctx := e2e.PermissionPage(t, runDir, command, wait)
	e2e.Click(t, ctx, `.card button[data-action="reason"]`)
	e2e.EvalUntil(t, ctx, wait, "the field for why, focused", `document.activeElement === document.querySelector(".question.permission textarea")`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(reason)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, wait, "the card without its question", `!document.querySelector(".question.permission")`)
}

// pageVerdict checks the one permission answer of the session's verdict log: decision, by a
// paired browser. The answer is logged once the dialog has left the screen, which may be just
// after the agent showed what followed: it is waited for.
func pageVerdict(t *testing.T, verdicts func() []verdictlog.Verdict, decision string) {
	t.Helper()
	var ps []string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		ps = nil
		for _, v := range verdicts() {
			if v.Event == "PermissionRequest" {
				ps = append(ps, string(v.Decision)+" by "+string(v.Source))
			}
		}
		if len(ps) > 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(ps) != 1 || !regexp.MustCompile(`^`+decision+` by manual \(hooksup web device [0-9a-f]{8,}\)$`).MatchString(ps[0]) {
		t.Fatalf("the verdict log's permission answers: %q, want %s by the page", ps, decision)
	}
}

// created reports whether the command the agent was allowed made its file.
func created(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "created.txt"))
	return err == nil
}

// pageDialog is an agent whose dialog hooksup answers with keys, for the page's tests: dialog
// starts it at its dialog with next as the model's reply after the command's result; command is
// the dialog's command as the card shows it, denied what the agent's screen says once Escape
// refused it (any of them).
type pageDialog struct {
	name, command string
	denied        []string
	dialog        func(t *testing.T, next string) (run, workDir string, tm *e2e.Tmux, verdicts func() []verdictlog.Verdict)
}

var pageDialogs = []pageDialog{
	{name: "claude auto mode", command: keyCommand, denied: []string{"● interrupted"},
		dialog: func(t *testing.T, next string) (string, string, *e2e.Tmux, func() []verdictlog.Verdict) {
			rc, tm, _ := claudeAutoDialog(t, mockapi.Text(next))
			return rc.Run, rc.Env.WorkDir, tm, rc.Verdicts
		}},
	{name: "codex", command: keyCommand, denied: []string{"You canceled the request"},
		dialog: func(t *testing.T, next string) (string, string, *e2e.Tmux, func() []verdictlog.Verdict) {
			rc, tm, _ := codexDialog(t, mockapi.OutputText(next))
			return rc.Run, rc.Env.WorkDir, tm, rc.Verdicts
		}},
	{name: "copilot", command: copilotCommand, denied: copilotRefused,
		dialog: func(t *testing.T, next string) (string, string, *e2e.Tmux, func() []verdictlog.Verdict) {
			rc, tm, _ := copilotDialog(t, mockapi.ChatText(next))
			return rc.Run, rc.Env.WorkDir, tm, rc.Verdicts
		}},
	{name: "qwen", command: qwenKeyCommand, denied: []string{"- Shell " + qwenKeyCommand},
		dialog: func(t *testing.T, next string) (string, string, *e2e.Tmux, func() []verdictlog.Verdict) {
			rq, tm, _ := qwenDialog(t, mockapi.ChatText(next))
			return rq.Run, rq.env.WorkDir, tm, rq.Verdicts
		}},
}

func TestKeysFromThePage(t *testing.T) {
	t.Parallel()
	for _, a := range pageDialogs {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			t.Run("allow", func(t *testing.T) {
				t.Parallel()
				run, work, tm, verdicts := a.dialog(t, "MADE-BY-PAGE")
				answerFromThePage(t, run, a.command, "allow")
				tm.WaitText(60*time.Second, "MADE-BY-PAGE")
				if !created(work) {
					t.Fatal("the command allowed from the page did not run")
				}
				pageVerdict(t, verdicts, "allow")
			})
			t.Run("deny", func(t *testing.T) {
				t.Parallel()
				run, work, tm, verdicts := a.dialog(t, "WRONG: AFTER THE DENIAL")
				answerFromThePage(t, run, a.command, "deny")
				tm.WaitFor("the agent showing the call refused", 60*time.Second, func(scr string) bool {
					return slices.ContainsFunc(a.denied, func(s string) bool { return strings.Contains(scr, s) })
				})
				if created(work) {
					t.Fatal("the command denied from the page ran")
				}
				pageVerdict(t, verdicts, "deny")
			})
		})
	}
}

// Deny… on the card of claude's auto-mode dialog: hooksup selects No, presses Tab and types the
// reason into claude's own field for it; the command does not run, the turn goes on, and the
// model reads the reason as the call's result.
func TestKeysClaudeAutoModeDeniedWithReasonFromThePage(t *testing.T) {
	t.Parallel()
	rc, tm, s := claudeAutoDialog(t, mockapi.Text("TOOK-THE-HINT"))
	if q := s.Pending[0]; q.Permission == nil || !q.Permission.DenyReason {
		t.Fatalf("hooksup ls --json does not say claude's auto-mode dialog takes a reason: %+v", q.Permission)
	}
	const reason = "use a temporary directory instead"
	denyWithReasonFromThePage(t, rc.Run, keyCommand, reason)
	tm.WaitText(45*time.Second, "TOOK-THE-HINT")
	if created(rc.Env.WorkDir) {
		t.Fatal("the denied command ran")
	}
	main := rc.Srv.Main()
	if len(main) < 2 || !hasToolResult(main[1], "the user said:\n"+reason) {
		t.Fatalf("the model did not read the reason as the call's result: %d requests", len(main))
	}
	pageVerdict(t, rc.Verdicts, "deny")
}
