package agents

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// Gemini's dialog, answered with keys, is the page's card like claude's hook-answered one: what
// it asks to run, Allow, Always… (gemini's "Allow for this session") and Deny, and Allow runs it.
func TestKeysGeminiAllowedFromThePage(t *testing.T) {
	t.Parallel()
	rg, tm, _ := geminiDialog(t, mockapi.GeminiText("MADE-BY-PAGE"))
	const wait = 60 * time.Second
	ctx := e2e.PermissionPage(t, rg.Run, keyCommand, wait)
	labels, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".card .actions button")].map(b => b.textContent)`))
	if err != nil || strings.Join(labels, " · ") != "Allow · Always… · Deny · interrupt" {
		t.Fatalf("the card's buttons: %q (%v)", labels, err)
	}
	e2e.Click(t, ctx, `.card button[data-action="allow"]`)
	tm.WaitText(wait, "MADE-BY-PAGE")
	e2e.EvalUntil(t, ctx, wait, "the card without its question", `!document.querySelector(".question.permission")`)
	if _, err := os.Stat(filepath.Join(rg.Env.WorkDir, "created.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	if turns := rg.Srv.Turns(); len(turns) < 2 || !geminiHasResponse(turns[1], "") {
		t.Fatalf("the model did not get the command's result: %d turns", len(turns))
	}
	var ps []string
	for _, v := range rg.Verdicts() {
		if v.Event == "PermissionRequest" {
			ps = append(ps, string(v.Decision)+" by "+string(v.Source))
		}
	}
	if len(ps) != 1 || !regexp.MustCompile(`^allow by manual \(hooksup web device [0-9a-f]{8,}\)$`).MatchString(ps[0]) {
		t.Fatalf("the verdict log's permission answers: %q", ps)
	}
}
