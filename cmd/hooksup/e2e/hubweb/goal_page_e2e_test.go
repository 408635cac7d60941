package hubweb

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// The page's card shows a goal out of budget as the TUI's header does: its text (markup and a
// terminal's controls shown as text, never obeyed), how it ended, time and tokens against their
// budgets, what failed last; and resumes it with a larger budget: hooksup types the goal's next
// turn into claude's prompt, the model reads it, and the card follows the goal to its new end.
func TestGoalSeenAndResumedFromThePage(t *testing.T) {
	t.Parallel()
	const goal = "ship <img src=x onerror=\"window.xssRan=1\"> \x1b]0;pwned\x07 now"
	const shown = `ship <img src=x onerror="window.xssRan=1"> \e]0;pwned\a now`
	e2e.RequireTmux(t)
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: e2e.Texts(8)})
	rc.Env.Setenv("HOOKSUP_CLAUDE_BIN", rc.Env.Claude)
	tm := e2e.StartTmux(t, 180, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--config", rc.Config("mode = \"auto\"\n"),
		"--goal", goal, "--done", e2e.ChangingFailure(rc), "--max-turns", "1", "--max-time", "1h", "--max-tokens", "10000000",
		"claude", "--permission-mode", "manual")
	const wait = 60 * time.Second
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm, "go")
	tm.Keys("Enter")
	tm.WaitText(wait, `goal ended: its budget of turns (1) ran out`)
	if n := len(rc.Srv.Main()); n != 2 {
		t.Fatalf("%d requests before the resume, want 2", n)
	}

	home, env := e2e.OtherTerminal(t, rc.Run)
	w := e2e.StartWebIn(t, home, env)
	ctx := e2e.Browser(t, 375, 800)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	const goalOf = `(cls) => (document.querySelector(".card .goal " + cls) || {}).textContent`
	e2e.EvalUntil(t, ctx, wait, "the goal's end on the card",
		`(`+goalOf+`)(".goal-end") === "goal ended: its budget of turns (1) ran out"`)
	type seen struct {
		Text, Time, Tokens, Failed string
		XSS, Img                   bool
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[seen](`(() => { const g = `+goalOf+`; return {Text: g(".goal-text"), Time: g(".goal-time"),
		Tokens: g(".goal-tokens"), Failed: g(".goal-failed"), XSS: window.xssRan !== undefined, Img: !!document.querySelector(".card img")}; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Text != shown || got.XSS || got.Img {
		t.Errorf("the goal's text on the card: %q (ran markup: %v, an img: %v), want %q", got.Text, got.XSS, got.Img, shown)
	}
	if !strings.HasSuffix(got.Time, "/1h") || !strings.HasSuffix(got.Tokens, "/10.0M tokens") {
		t.Errorf("time %q and tokens %q against their budgets", got.Time, got.Tokens)
	}
	if !strings.HasPrefix(got.Failed, "✗ done exit 1: check ") || !strings.HasSuffix(got.Failed, " fails") {
		t.Errorf("what failed last: %q", got.Failed)
	}

	if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		shot := e2e.Artefact("hooksup-web-goal-375.png")
		if os.WriteFile(shot, png, 0o644) == nil {
			t.Logf("the goal's card at 375 px: %s", shot)
		}
	}
	if sideways, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > document.documentElement.clientWidth`)); err != nil || sideways {
		t.Errorf("the page with a goal scrolls sideways at 375 px (%v)", err)
	}

	// Resume with a budget of 3 turns.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		const i = document.querySelector('.card .goal input[name="max_turns"]');
		i.value = "3"; i.dispatchEvent(new Event("input", {bubbles: true}));
		document.querySelector('.card .goal button.resume').click(); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	rs, err := rc.Srv.Wait(rctx, func(rs []mockapi.Request) bool { return len(mockapi.Filter(rs, mockapi.KindMain)) >= 3 })
	if err != nil {
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf("%v; the page says:\n%s\nscreen:\n%s", err, body, tm.Screen())
	}
	typed := mockapi.Filter(rs, mockapi.KindMain)[2].LastUserText()
	if !strings.Contains(typed, "Goal turn 2 of 3 (typed by hooksup: the person resumed the goal with a larger budget)") {
		t.Errorf("the resumed turn's prompt:\n%s", typed)
	}
	e2e.EvalUntil(t, ctx, wait, "the resume said on the page", `document.getElementById("notice").textContent.startsWith("resumed the goal of session ")`)
	e2e.EvalUntil(t, ctx, wait, "the goal's new end on the card",
		`(`+goalOf+`)(".goal-end") === "goal ended: its budget of turns (3) ran out"`)
	if n := len(rc.Srv.Main()); n != 4 {
		t.Errorf("%d requests, want 4: the resumed turn and one more continuation", n)
	}
}
