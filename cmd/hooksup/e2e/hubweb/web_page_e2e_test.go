package hubweb

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/internal/agentsim"
)

// simSessions starts a session of the simulated agent in a TUI for each scenario, one after the
// other, each in a project of its own with cfg, all in one runtime directory, and returns the
// projects and hooksup web's server over them, in another terminal's environment.
func simSessions(t *testing.T, cfg []string, scs []agentsim.Scenario, ready []string) ([]string, *e2e.WebServer) {
	t.Helper()
	ss, w := e2e.SimTUIs(t, cfg, scs, ready)
	var projects []string
	for _, s := range ss {
		projects = append(projects, s.Project)
	}
	return projects, w
}

// A session that needs permission says which tool it asks to run and its command; one that
// waits on a question shows what the agent said last; the one waiting longest comes first.
func TestWebPageShowsWhatTheAgentSaidAndAsks(t *testing.T) {
	t.Parallel()
	projects, w := simSessions(t, []string{`mode = "auto"`, e2e.AskCfg},
		[]agentsim.Scenario{{Prompts: []string{"go"}, Permission: true, PermissionWait: agentsim.Duration{Duration: 10 * time.Minute}}, {Prompts: []string{"go"}}},
		[]string{"needs permission", "⚑ claude wants to stop"})
	asking, waiting := projects[0], projects[1]
	ctx := e2e.Browser(t, 375, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	const wait = 20 * time.Second
	e2e.EvalUntil(t, ctx, wait, "the permission's tool and command", `(() => { const c = `+e2e.CardJS(asking)+`; const p = c && c.querySelector(".permission");
		return !!p && p.querySelector("strong").textContent === "⚠ asks to run Bash" && p.querySelector("pre.command").textContent === "touch demo.txt" })()`)
	e2e.EvalUntil(t, ctx, wait, "the waiting session's last message", `(() => { const c = `+e2e.CardJS(waiting)+`; const m = c && c.querySelector(".said pre.message");
		return !!m && m.textContent === "Answer to turn 1, attempt 1." })()`)
	// Both wait on the person (a permission dialog is a question too): the longest waiting first.
	e2e.EvalUntil(t, ctx, wait, "the longest waiting first", `(() => { const a = [...document.querySelectorAll(".card")].map(c =>
		Date.parse((c.querySelector(".question") || { dataset: {} }).dataset.asked)); return a.length === 2 && a[0] <= a[1] })()`)
	// The proposal in the TUI banner's words.
	e2e.EvalUntil(t, ctx, wait, "the proposal in the banner's words", `(() => { const c = `+e2e.CardJS(waiting)+`;
		return !!c && c.querySelector(".question .proposal").textContent === "the checks say continue (check tests)" })()`)
}

// Escape interrupts the session whose card has the focus, and nothing when no card has it; an
// answer to a question answered meanwhile shows the question pending now instead of an error;
// verdicts are worded as hooksup log words them.
func TestWebPageEscapeAndAStaleAnswer(t *testing.T) {
	t.Parallel()
	_, w := simSessions(t, []string{e2e.AskCfg, e2e.AskCfg},
		[]agentsim.Scenario{{Prompts: []string{"go"}}, {Prompts: []string{"go"}}},
		[]string{"⚑ claude wants to stop", "⚑ claude wants to stop"})
	ctx := e2e.Browser(t, 375, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	const wait = 20 * time.Second
	e2e.EvalUntil(t, ctx, wait, "both questions", `document.querySelectorAll(".card .question").length === 2`)
	// Every POST the page makes is noted; GET /api/sessions can be held at what it last said,
	// as when the page had not heard yet of an answer given elsewhere.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		const real = window.fetch; window.posts = []; window.held = null; window.hold = false;
		window.fetch = async (path, init) => {
			if (init && init.method === "POST") { window.posts.push(String(path)); window.hold = false; }
			if (String(path) === "/api/sessions" && window.hold && window.held) return window.held.clone();
			const r = await real(path, init);
			if (String(path) === "/api/sessions" && r.ok) window.held = r.clone();
			return r;
		};
		return true })()`)); err != nil {
		t.Fatal(err)
	}
	pending := func() map[string]int {
		out := map[string]int{}
		for _, s := range e2e.WebSessions(t, w) {
			if len(s.Pending) > 0 {
				out[s.Cwd] = s.Pending[0].ID
			}
		}
		return out
	}
	before := pending()
	if len(before) != 2 {
		t.Fatalf("pending: %v", before)
	}
	cards, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".card .cwd")].map(e => e.textContent)`))
	if err != nil || len(cards) != 2 {
		t.Fatalf("cards %q %v", cards, err)
	}
	first, second := cards[0], cards[1]

	// No card has the focus: Escape interrupts nothing.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.activeElement && document.activeElement.blur(), true)`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	if posts, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.posts`)); len(posts) != 0 {
		t.Fatalf("Escape with no card focused sent %q", posts)
	}
	// The second card has the focus: Escape interrupts its session alone.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](e2e.CardJS(second)+`.focus() || true`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(wait)
	for {
		now := pending()
		if _, ok := now[second]; !ok {
			if now[first] != before[first] {
				t.Fatalf("Escape on the second card touched the first session: %v, was %v", now, before)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Escape on the second card did not interrupt its session: %v", now)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if posts, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.posts`)); len(posts) != 1 || !strings.HasSuffix(posts[0], "/interrupt") {
		t.Fatalf("the page sent %q, want one interrupt", posts)
	}
	e2e.EvalUntil(t, ctx, wait, "the interrupted session's verdict in the log's words", `(() => { const c = `+e2e.CardJS(second)+`;
		return !!c && [...c.querySelectorAll("ul.verdicts li")].some(li => li.textContent.includes(" let stop (Escape)")) })()`)

	// The first card's question is answered elsewhere while the page holds what it showed; the
	// session asks again; continue on the card: the page shows the new question, not an error.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.hold = true`)); err != nil {
		t.Fatal(err)
	}
	id := ""
	for _, s := range e2e.WebSessions(t, w) {
		if s.Cwd == first {
			id = s.ID
		}
	}
	if resp, body := w.Do(t, "POST", "/api/sessions/"+id+"/approve", fmt.Sprintf(`{"question": %d}`, before[first]),
		map[string]string{"Authorization": "Bearer " + w.Token}); resp.StatusCode != 200 {
		t.Fatalf("approve elsewhere: %d %s", resp.StatusCode, body)
	}
	for deadline := time.Now().Add(wait); pending()[first] == 0 || pending()[first] == before[first]; {
		if time.Now().After(deadline) {
			t.Fatal("the first session never asked again")
		}
		time.Sleep(100 * time.Millisecond)
	}
	again := pending()[first]
	if shows, _ := chromedp.Run(ctx, chromedp.Evaluate[string](e2e.CardJS(first)+`.querySelector(".question").dataset.question`)); shows != fmt.Sprint(before[first]) {
		t.Fatalf("the card shows question %s before the click, want the held %d", shows, before[first])
	}
	if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const b = [...`+e2e.CardJS(first)+`.querySelectorAll("button")].find(b => b.textContent === "continue");
		if (!b || b.disabled) return false; b.click(); return true })()`)); err != nil || !ok {
		t.Fatalf("click continue: %v %v", ok, err)
	}
	e2e.EvalUntil(t, ctx, wait, "the new question on the card and what happened", fmt.Sprintf(`(() => { const c = %s; const q = c && c.querySelector(".question");
		return !!q && q.dataset.question === "%d" && document.getElementById("notice").textContent.endsWith("the card shows it now") })()`, e2e.CardJS(first), again))
	if now := pending(); now[first] != again {
		t.Fatalf("the stale answer answered the new question: %v, want %d pending", now, again)
	}
	e2e.EvalUntil(t, ctx, wait, "the verdict given elsewhere in the log's words", `(() => { const c = `+e2e.CardJS(first)+`;
		return !!c && [...c.querySelectorAll("ul.verdicts li")].some(li => li.textContent.includes(" continued by you (hooksup web)")) })()`)
}
