package hubweb

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// The page's card shows claude's permission dialog with what it asks to run and the buttons
// Allow · Always… · Deny; Always… shows the rule before anything is written, and cancelling it
// answers nothing; Deny refuses the tool, and the card's question goes.
func TestPermissionDeniedFromThePage(t *testing.T) {
	t.Parallel()
	rc, tm, _ := e2e.PermissionSession(t, mockapi.Text("NOT-MADE-PAGE"))
	const wait = 45 * time.Second
	ctx := e2e.PermissionPage(t, rc.Run, "touch created.txt", wait)
	labels, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".card .actions button")].map(b => b.textContent)`))
	if err != nil || strings.Join(labels, " · ") != "Allow · Always… · Deny · Deny… · interrupt" {
		t.Fatalf("the card's buttons: %q (%v)", labels, err)
	}
	e2e.Click(t, ctx, `.card button[data-action="always"]`)
	e2e.EvalUntil(t, ctx, wait, "the rule always writes, shown first",
		`(document.querySelector(".question.permission .rule") || {}).textContent === "Always: allow Bash(touch created.txt) in .claude/settings.local.json"`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`[...document.querySelectorAll(".card .actions button")].find(b => b.textContent === "cancel").click(), true`)); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, wait, "the question again, unanswered", `!!document.querySelector('.card button[data-action="deny"]') && !document.querySelector(".rule")`)
	if ls := e2e.HubLs(t, rc.Run); len(ls) != 1 || len(ls[0].Pending) != 1 {
		t.Fatalf("cancelling Always… answered the question: %+v", ls)
	}
	e2e.Click(t, ctx, `.card button[data-action="deny"]`)
	tm.WaitText(wait, "NOT-MADE-PAGE")
	e2e.EvalUntil(t, ctx, wait, "the card without its question", `!document.querySelector(".question.permission")`)
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	main := rc.Srv.Main()
	if len(main) < 2 || len(main[1].ToolResults()) != 1 || !main[1].ToolResults()[0].IsError {
		t.Fatalf("the model did not get the refusal: %d requests", len(main))
	}
	// The paired browser that answered is named: its device id, as hooksup web devices lists it.
	if vs := e2e.PermissionVerdicts(rc); len(vs) != 1 || vs[0].Decision != "deny" ||
		!regexp.MustCompile(`^manual \(hooksup web device [0-9a-f]{8,}\)$`).MatchString(string(vs[0].Source)) {
		t.Fatalf("the verdict log's permission answers: %+v", vs)
	}
}

// Deny… opens a field for why, where the agent's answer carries it (claude's PermissionRequest
// hook): e on the focused card opens it too, its e is not typed there, Enter refuses the tool
// with what is typed, and the model reads it as the call's result.
func TestPermissionDeniedWithAReasonFromThePage(t *testing.T) {
	t.Parallel()
	rc, tm, s := e2e.PermissionSession(t, mockapi.Text("TOOK-THE-HINT"))
	if q := s.Pending[0]; q.Permission == nil || !q.Permission.DenyReason {
		t.Fatalf("hooksup ls --json does not say a deny's reason reaches claude: %+v", q.Permission)
	}
	const wait = 45 * time.Second
	ctx := e2e.PermissionPage(t, rc.Run, "touch created.txt", wait)
	e2e.EvalUntil(t, ctx, wait, "the card's Deny…", `!!document.querySelector('.card button[data-action="reason"]')`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector(".card").focus() || true`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent("e")); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, wait, "the field for why, focused and empty", `(() => { const ta = document.querySelector(".question.permission textarea");
		return !!ta && document.activeElement === ta && ta.value === "" })()`)
	labels, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".card .actions button")].map(b => b.textContent)`))
	if err != nil || strings.Join(labels, " · ") != "send · cancel · interrupt" {
		t.Fatalf("the card's buttons while the reason is typed: %q (%v)", labels, err)
	}
	const reason = "use a temporary directory instead"
	// d and a are text here, never deny or allow.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(reason)); err != nil {
		t.Fatal(err)
	}
	if ls := e2e.HubLs(t, rc.Run); len(ls) != 1 || len(ls[0].Pending) != 1 {
		t.Fatalf("typing the reason answered the question: %+v", ls)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	tm.WaitText(wait, "TOOK-THE-HINT")
	e2e.EvalUntil(t, ctx, wait, "the card without its question", `!document.querySelector(".question.permission")`)
	if _, err := os.Stat(filepath.Join(rc.Env.WorkDir, "created.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
	main := rc.Srv.Main()
	if len(main) < 2 || len(main[1].ToolResults()) != 1 || !main[1].ToolResults()[0].IsError ||
		main[1].ToolResults()[0].ResultText() != reason {
		t.Fatalf("the model did not read the reason as the call's result: %d requests, %+v", len(main), main[len(main)-1].ToolResults())
	}
	if vs := e2e.PermissionVerdicts(rc); len(vs) != 1 || vs[0].Decision != "deny" || vs[0].Reason != reason {
		t.Fatalf("the verdict log's permission answers: %+v", vs)
	}
}
