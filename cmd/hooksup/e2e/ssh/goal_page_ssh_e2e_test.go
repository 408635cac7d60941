package ssh

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// A goal out of budget in a TUI session on another machine, seen on the page of this machine's
// hooksup web --host remote over a real OpenSSH, is resumed from its card: the remote hooksup
// types the goal's next turn into claude's prompt, and the card follows the goal to its new end.
func TestGoalResumedFromThePageOverSSH(t *testing.T) {
	t.Parallel()
	e2e.RequireTmux(t)
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: e2e.Texts(8)})
	srv := e2e.StartSSHD(t, rc.Run)
	rc.Env.Setenv("HOOKSUP_CLAUDE_BIN", rc.Env.Claude)
	tm := e2e.StartTmux(t, 180, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--config", rc.Config("mode = \"auto\"\n"),
		"--goal", "ship the release", "--done", e2e.ChangingFailure(rc), "--max-turns", "1", "claude", "--permission-mode", "manual")
	const wait = 60 * time.Second
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm, "go")
	tm.Keys("Enter")
	tm.WaitText(wait, `goal ended: its budget of turns (1) ran out "ship the release"`)
	if n := len(rc.Srv.Main()); n != 2 {
		t.Fatalf("%d requests before the resume, want 2", n)
	}

	// The person's other machine: no session of its own, [hub] ssh in its user config.
	home, env := e2e.OtherTerminal(t, t.TempDir())
	userCfg := filepath.Join(home, "config", "hooksup")
	if err := os.MkdirAll(userCfg, 0o700); err != nil {
		t.Fatal(err)
	}
	hubCfg, err := os.ReadFile(srv.HubConfigFile(t, "timeout = \"30s\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(userCfg, "config.toml"), hubCfg, 0o600); err != nil {
		t.Fatal(err)
	}
	w := e2e.StartWebIn(t, home, env, "--host", "remote")
	ctx := e2e.Browser(t, 800, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	const goalEnd = `(document.querySelector(".card .goal .goal-end") || {}).textContent`
	e2e.EvalUntil(t, ctx, wait, "the remote goal's end on the card", goalEnd+` === "goal ended: its budget of turns (1) ran out"`)
	if host, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".card").textContent`)); err != nil || !strings.Contains(host, "remote") {
		t.Fatalf("the card does not name the remote host: %q %v", host, err)
	}
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
	if typed := mockapi.Filter(rs, mockapi.KindMain)[2].LastUserText(); !strings.Contains(typed, "Goal turn 2 of 3 (typed by hooksup: the person resumed the goal with a larger budget)") {
		t.Errorf("the resumed turn's prompt:\n%s", typed)
	}
	e2e.EvalUntil(t, ctx, wait, "the resume said on the page", `document.getElementById("notice").textContent.startsWith("resumed the goal of session remote:")`)
	e2e.EvalUntil(t, ctx, wait, "the goal's new end on the card", goalEnd+` === "goal ended: its budget of turns (3) ran out"`)
}
