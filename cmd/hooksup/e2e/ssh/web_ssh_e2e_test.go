package ssh

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/chromedp/chromedp"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// The real claude waits on a question on another machine, reached over a real OpenSSH.
// hooksup web --host remote lists it with its host, in the API and on its card in a headless
// Chromium; clicking continue there makes it continue with the check's reason, and the verdict
// reaches the card through the page's event stream. When sshd dies the host's card says it is
// disconnected and that it is tried again; once sshd is back the session is shown again.
func TestWebOverSSH(t *testing.T) {
	t.Parallel()
	const cfgText = `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestWebSSH'; exit 1"
`
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-ONE"), mockapi.Text("ONE-CONTINUED"), mockapi.Text("ONE-AGAIN")}})
	srv := e2e.StartSSHD(t, rc.Run)
	tm := rc.ClaudeTUI(rc.Config(cfgText), 160, 45)
	const wait = 45 * time.Second
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm, "first prompt")
	tm.Keys("Enter")
	tm.WaitText(wait, "ANSWER-ONE", "⚑ claude wants to stop", "FAIL: TestWebSSH")

	// The person's other machine: its own runtime directory (no session), [hub] ssh in its
	// user config.
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
	project := rc.Env.WorkDir
	deadline := time.Now().Add(wait)
	for {
		ss := e2e.WebSessions(t, w)
		if len(ss) == 1 && ss[0].Host == "remote" && ss[0].Cwd == project && len(ss[0].Pending) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /api/sessions does not list the remote session with its host: %+v", ss)
		}
		time.Sleep(100 * time.Millisecond)
	}

	ctx := e2e.Browser(t, 375, 800)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	card := fmt.Sprintf(`[...document.querySelectorAll(".card")].find(c => c.querySelector(".cwd") && c.querySelector(".cwd").textContent === %q)`, project)
	e2e.EvalUntil(t, ctx, wait, "the remote session's card with its host and question", `(() => { const c = `+card+`;
		return !!c && !!c.querySelector("pre.reason") && !!c.querySelector(".host") && c.querySelector(".host").textContent === "remote" })()`)
	clicked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const c = `+card+`;
		const b = [...c.querySelectorAll("button")].find(b => b.textContent === "continue");
		if (!b || b.disabled) return false; b.click(); return true })()`))
	if err != nil || !clicked {
		t.Fatalf("click continue on the remote card: %v %v", clicked, err)
	}
	tm.WaitText(wait, "ONE-CONTINUED", "continued by you (hooksup web)")
	main := rc.Srv.Main()
	if len(main) < 2 || !strings.Contains(main[1].LastUserText(), "FAIL: TestWebSSH") {
		t.Fatalf("%d requests; the second's last user text %q", len(main), e2e.LastUser(main))
	}
	// The verdict came over ssh on the event stream: only the stream fills a card's verdicts.
	e2e.EvalUntil(t, ctx, wait, "the remote card's verdict from the event stream", `(() => { const c = `+card+`;
		return !!c && !!c.querySelector("ul.verdicts") && c.querySelector("ul.verdicts").textContent.includes("continued by you (hooksup web)") })()`)

	srv.Stop()
	e2e.EvalUntil(t, ctx, wait, "the host's card saying it is disconnected", `(() => {
		const cs = [...document.querySelectorAll(".card")];
		return !(`+card+`) && cs.some(c => c.querySelector(".host") && c.querySelector(".host").textContent === "remote" &&
			c.textContent.includes("disconnected") && c.textContent.includes("trying again")) })()`)
	if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		shot := e2e.Artefact("hooksup-web-host-down.png")
		if os.WriteFile(shot, png, 0o644) == nil {
			t.Logf("the page with the host down: %s", shot)
		}
	}
	srv.Run(t)
	e2e.EvalUntil(t, ctx, wait, "the remote session back", `(() => { const c = `+card+`;
		return !!c && c.querySelector(".host").textContent === "remote" && !document.querySelector("main").textContent.includes("disconnected") })()`)
}
