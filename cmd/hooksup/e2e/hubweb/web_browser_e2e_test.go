package hubweb

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// Two sessions of the real claude wait on a question each, and a check printed markup into its
// reason. The page, in a 375-pixel wide Chromium, lists both, shows the markup as text and
// scrolls nothing sideways; clicking continue on one makes exactly that one continue with the
// check's reason; its next question, asked while the page is open, appears without a reload; the
// reason edited there reaches the model; let it stop lets the other stop.
func TestWebPageAnswersTwoSessions(t *testing.T) {
	t.Parallel()
	const xss1, xss2 = `<script>window.xssRan=1</script>`, `"><img src=x onerror="window.xssRan=2">`
	cfgText := `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = '''seq 1 40; echo 'FAIL: TestWeb'; echo '` + xss1 + `'; echo '` + xss2 + `'; printf 'BIDI \342\200\256 END\n'; exit 1'''
`
	rc1 := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-ONE"), mockapi.Text("ONE-CONTINUED"), mockapi.Text("ONE-EDITED"), mockapi.Text("ONE-AGAIN")}})
	rc2 := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-TWO"), mockapi.Text("WRONG: A CONTINUATION")}})
	rc2.Env.Setenv("XDG_RUNTIME_DIR", rc1.Run)
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
	tm1.WaitText(wait, "ANSWER-ONE", "⚑ claude wants to stop", "FAIL: TestWeb")
	tm2.WaitText(wait, "ANSWER-TWO", "⚑ claude wants to stop", "FAIL: TestWeb")

	home, env := e2e.OtherTerminal(t, rc1.Run)
	w := e2e.StartWebIn(t, home, env)
	ctx := e2e.Browser(t, 375, 800)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	project1, project2 := rc1.Env.WorkDir, rc2.Env.WorkDir
	e2e.EvalUntil(t, ctx, wait, "both sessions with their question", `document.querySelectorAll(".card pre.reason").length === 2`)
	href, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if strings.Contains(href, w.Code) || strings.Contains(href, w.Token) {
		t.Fatalf("the pairing code stayed in the address bar: %s", href)
	}

	// The check's markup is text: in the reason, and nothing of it ran or was built.
	reasons, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("pre.reason")].map(e => e.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	imgs, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("main img, main script").length`))
	ran, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.xssRan !== undefined`))
	for _, r := range reasons {
		if !strings.Contains(r, xss1) || !strings.Contains(r, xss2) {
			t.Fatalf("a reason lacks the check's markup as text: %q", r)
		}
		// A bidi override would reverse what follows it on the screen: shown, not acted on.
		if strings.Contains(r, "\u202e") || !strings.Contains(r, "BIDI <U+202E> END") {
			t.Fatalf("a reason's bidi override is not shown as text: %q", r)
		}
	}
	if imgs != 0 || ran {
		t.Fatalf("the check's markup became elements (%d) or ran (%v)", imgs, ran)
	}

	// A long reason shows its end first, where the failure is.
	atEnd, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`[...document.querySelectorAll("pre.reason")].every(p =>
		p.scrollHeight > p.clientHeight + 50 && p.scrollTop + p.clientHeight >= p.scrollHeight - 2)`))
	if err != nil || !atEnd {
		t.Errorf("a long reason does not show its end first (%v)", err)
	}

	// 375 pixels wide: nothing scrolls sideways.
	sideways, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > document.documentElement.clientWidth`))
	if err != nil {
		t.Fatal(err)
	}
	if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		shot := e2e.Artefact("hooksup-web-375.png")
		if os.WriteFile(shot, png, 0o644) == nil {
			t.Logf("the page at 375 px: %s", shot)
		}
	}
	if sideways {
		t.Fatal("the page scrolls sideways at 375 px")
	}
	// In the light and the dark scheme: text has a contrast of 4.5:1 with what is behind it,
	// a control's border 3:1, and every control is a tap target of 44×44 px at least.
	for _, scheme := range []string{"light", "dark"} {
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
			t.Fatal(err)
		}
		bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](accessibilityProblems))
		if err != nil {
			t.Fatal(err)
		}
		if len(bad) > 0 {
			t.Errorf("the page in the %s scheme: %q", scheme, bad)
		}
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
		t.Fatal(err)
	}

	card := func(project string) string {
		return fmt.Sprintf(`[...document.querySelectorAll(".card")].find(c => c.querySelector(".cwd").textContent === %q)`, project)
	}
	click := func(project, button string) {
		t.Helper()
		js := fmt.Sprintf(`(() => { const c = %s; const b = c && [...c.querySelectorAll("button")].find(b => b.textContent === %q);
			if (!b || b.disabled) return false; b.click(); return true })()`, card(project), button)
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err != nil || !ok {
			t.Fatalf("click %q on %s: %v %v", button, project, ok, err)
		}
	}

	// Continue on the first: it alone continues, with the check's reason.
	click(project1, "continue")
	tm1.WaitText(wait, "ONE-CONTINUED", "continued by you (hooksup web)")
	if main1 := rc1.Srv.Main(); len(main1) < 2 || !strings.Contains(main1[1].LastUserText(), "FAIL: TestWeb") {
		t.Fatalf("the first session's continuation: %q", e2e.LastUser(rc1.Srv.Main()))
	}
	if n := len(rc2.Srv.Main()); n != 1 {
		t.Fatalf("continuing the first session made the second make %d requests", n)
	}
	// Its next question, asked while the page is open, appears without a reload; its reason,
	// edited in the page, reaches the model.
	tm1.WaitText(wait, "⚑ claude wants to stop")
	e2e.EvalUntil(t, ctx, 10*time.Second, "the first session's new question", `(() => { const c = `+card(project1)+`;
		return !!c && [...c.querySelectorAll("button")].some(b => b.textContent === "edit reason" && !b.disabled) })()`)
	// The editor opens on the reason with the cursor on a line of its own below it; typed
	// keys, a return that is a new line (a phone's return key), and Ctrl+Enter that sends.
	click(project1, "edit reason")
	e2e.EvalUntil(t, ctx, 10*time.Second, "the editor's cursor on a line of its own", `(() => { const ta = document.activeElement;
		return !!ta && ta.tagName === "TEXTAREA" && ta.value.includes("FAIL: TestWeb") && ta.value.endsWith("\n") && ta.selectionStart === ta.value.length })()`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("EDITED IN THE PAGE"), chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent("run the linter too")); err != nil {
		t.Fatal(err)
	}
	if n := len(rc1.Srv.Main()); n != 2 {
		t.Fatalf("return in the reason editor sent it: claude made %d requests, want 2", n)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	tm1.WaitText(wait, "ONE-EDITED")
	if last := e2e.LastUser(rc1.Srv.Main()); !strings.Contains(last, "FAIL: TestWeb") || !strings.Contains(last, "\nEDITED IN THE PAGE\nrun the linter too") {
		t.Fatalf("the edited reason did not reach the model as typed, on lines of its own after the checks' reason: %q", last)
	}

	// Let the second stop from the keyboard, with the watch's keys: select it from the first
	// card (j or k), then d. No further request.
	key := "j"
	if before, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const cs = [...document.querySelectorAll(".card")];
		return cs.indexOf(`+card(project2)+`) < cs.indexOf(`+card(project1)+`) })()`)); err != nil {
		t.Fatal(err)
	} else if before {
		key = "k"
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](card(project1)+`.focus() || true`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(key), chromedp.KeyEvent("d")); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, 10*time.Second, "the page saying what deny did", `document.getElementById("notice").textContent.startsWith("deny: the agent may stop at")`)
	tm2.WaitText(wait, "let stop by you (hooksup web)")
	e2e.EvalUntil(t, ctx, 10*time.Second, "the second card without its question", `(() => { const c = `+card(project2)+`;
		return !!c && !c.querySelector("pre.reason") })()`)
	if n := len(rc2.Srv.Main()); n != 1 {
		t.Fatalf("claude made %d requests after the page let it stop, want 1", n)
	}

	// The server goes away: the page says so; it comes back on the same address: the page
	// reconnects by itself, on the device token it keeps.
	addr := strings.TrimSuffix(strings.TrimPrefix(w.Base, "http://"), "/")
	w.Cmd.Process.Kill()
	w.Cmd.Wait()
	e2e.EvalUntil(t, ctx, 10*time.Second, "the page saying it is disconnected", `document.getElementById("conn").textContent.startsWith("disconnected")`)
	w = e2e.StartWebIn(t, home, env, "--listen", addr)
	e2e.EvalUntil(t, ctx, 15*time.Second, "the page live again", `document.getElementById("conn").textContent === "live" && document.querySelectorAll(".card").length === 2`)

	// A page of another origin on the same site (127.0.0.1, another port: a browser would send
	// even a SameSite=Strict cookie along) posts an approve with whatever the browser sends by
	// itself: refused, nothing answered. The first session asks again after its edited continuation.
	tm1.WaitText(wait, "ONE-EDITED", "⚑ claude wants to stop")
	requests := len(rc1.Srv.Main())
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "<!doctype html><title>another page</title>")
	}))
	defer other.Close()
	if err := chromedp.Do(ctx, chromedp.Navigate(other.URL)); err != nil {
		t.Fatal(err)
	}
	for _, id := range webSessionIDs(t, w) {
		sent, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`fetch(%q + "api/sessions/" + %q + "/approve",
			{method: "POST", mode: "no-cors", credentials: "include", body: "{}"}).then(() => true, () => true)`, w.Base, id), chromedp.EvalAwaitPromise))
		if err != nil || !sent {
			t.Fatalf("the cross-origin fetch: %v %v", sent, err)
		}
	}
	for _, s := range e2e.WebSessions(t, w) {
		if s.Cwd == rc1.Env.WorkDir && len(s.Pending) != 1 {
			t.Fatalf("a cross-origin page answered the first session's question: %+v", s)
		}
	}
	if n := len(rc1.Srv.Main()); n != requests {
		t.Fatalf("a cross-origin page made the first session continue: %d requests, was %d", n, requests)
	}
}

// accessibilityProblems lists, on the page as shown, text of less than 4.5:1 contrast with the
// colour behind it, controls whose border has less than 3:1 with what is around them, and
// controls smaller than 44×44 px (WCAG's contrast and target size); disabled controls aside.
const accessibilityProblems = `(() => {
	const parse = (c) => { const m = /rgba?\(([^)]+)\)/.exec(c); if (!m) return null;
		const p = m[1].split(",").map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
	const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
		return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
	const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
	const behind = (e) => { for (; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0) return c; }
		return parse(getComputedStyle(document.documentElement).backgroundColor) || { r: 255, g: 255, b: 255, a: 1 }; };
	const bad = [];
	for (const e of document.querySelectorAll("header *, main *")) {
		const cs = getComputedStyle(e);
		if (!e.getClientRects().length || cs.visibility === "hidden" || e.disabled) continue;
		const name = e.tagName.toLowerCase() + (e.className ? "." + e.className : "") + " " + JSON.stringify((e.textContent || "").slice(0, 20));
		if ([...e.childNodes].some((n) => n.nodeType === 3 && n.data.trim())) {
			const r = ratio(parse(cs.color), behind(e));
			if (r < 4.5) bad.push("text " + name + ": " + r.toFixed(2) + ":1");
		}
		if (e.tagName === "BUTTON" || e.tagName === "TEXTAREA") {
			const r = ratio(parse(cs.borderTopColor), behind(e.parentElement));
			if (r < 3) bad.push("border of " + name + ": " + r.toFixed(2) + ":1");
			const b = e.getBoundingClientRect();
			if (b.width < 44 || b.height < 44) bad.push("target " + name + ": " + Math.round(b.width) + "x" + Math.round(b.height));
		}
	}
	return bad;
})()`

func webSessionIDs(t *testing.T, w *e2e.WebServer) []string {
	t.Helper()
	var ids []string
	for _, s := range e2e.WebSessions(t, w) {
		ids = append(ids, s.ID)
	}
	return ids
}
