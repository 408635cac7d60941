package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/internal/agentsim"
)

// simSession is a session of the simulated agent in a TUI: its sandbox (its project, its
// state directory: its verdict log) and its terminal.
type simSession struct {
	project string
	sb      *sandbox
	tm      *e2e.Tmux
}

// simSessions starts a session of the simulated agent in a TUI for each scenario, one after the
// other, each in a project of its own with cfg, all in one runtime directory, and returns the
// projects and hooksup web's server over them, in another terminal's environment.
func simSessions(t *testing.T, cfg []string, scs []agentsim.Scenario, ready []string) ([]string, *webServer) {
	t.Helper()
	ss, w := simTUIs(t, cfg, scs, ready)
	var projects []string
	for _, s := range ss {
		projects = append(projects, s.project)
	}
	return projects, w
}

// simTUIs is simSessions, giving each session's sandbox and terminal too.
func simTUIs(t *testing.T, cfg []string, scs []agentsim.Scenario, ready []string) ([]simSession, *webServer) {
	t.Helper()
	self, _ := os.Executable()
	runDir := ""
	var sessions []simSession
	for i, sc := range scs {
		s := newSandbox(t)
		if runDir == "" {
			for _, kv := range s.env {
				if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
					runDir = v
				}
			}
		}
		s.env = append(s.env, "XDG_RUNTIME_DIR="+runDir) // the later one counts
		b, _ := json.Marshal(sc)
		env := append(append([]string{}, s.env...), "TERM=xterm-256color", envSimAgent+"=1", agentsim.EnvScenario+"="+string(b))
		tm := e2e.StartTmux(t, 120, 40, env, s.project, hooksupBin, "--config", s.config(cfg[i]), "--claude-bin", self, "claude")
		tm.WaitText(30*time.Second, ready[i])
		sessions = append(sessions, simSession{project: s.project, sb: s, tm: tm})
	}
	home, env := otherTerminal(t, runDir)
	return sessions, startWebIn(t, home, env)
}

// cardJS is the page's card of the session in project.
func cardJS(project string) string {
	return fmt.Sprintf(`[...document.querySelectorAll(".card")].find(c => c.querySelector(".cwd") && c.querySelector(".cwd").textContent === %q)`, project)
}

const askCfg = `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestPage'; exit 1"
`

// A session that needs permission says which tool it asks to run and its command; one that
// waits on a question shows what the agent said last; the one waiting longest comes first.
func TestWebPageShowsWhatTheAgentSaidAndAsks(t *testing.T) {
	projects, w := simSessions(t, []string{`mode = "auto"`, askCfg},
		[]agentsim.Scenario{{Prompts: []string{"go"}, Permission: true, PermissionWait: agentsim.Duration{Duration: 10 * time.Minute}}, {Prompts: []string{"go"}}},
		[]string{"needs permission", "⚑ claude wants to stop"})
	asking, waiting := projects[0], projects[1]
	ctx := browser(t, 375, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.link)); err != nil {
		t.Fatal(err)
	}
	const wait = 20 * time.Second
	evalUntil(t, ctx, wait, "the permission's tool and command", `(() => { const c = `+cardJS(asking)+`; const p = c && c.querySelector(".permission");
		return !!p && p.querySelector("strong").textContent === "⚠ asks to run Bash" && p.querySelector("pre.command").textContent === "touch demo.txt" })()`)
	evalUntil(t, ctx, wait, "the waiting session's last message", `(() => { const c = `+cardJS(waiting)+`; const m = c && c.querySelector(".said pre.message");
		return !!m && m.textContent === "Answer to turn 1, attempt 1." })()`)
	// Both wait on the person (a permission dialog is a question too): the longest waiting first.
	evalUntil(t, ctx, wait, "the longest waiting first", `(() => { const a = [...document.querySelectorAll(".card")].map(c =>
		Date.parse((c.querySelector(".question") || { dataset: {} }).dataset.asked)); return a.length === 2 && a[0] <= a[1] })()`)
	// The proposal in the TUI banner's words.
	evalUntil(t, ctx, wait, "the proposal in the banner's words", `(() => { const c = `+cardJS(waiting)+`;
		return !!c && c.querySelector(".question .proposal").textContent === "the checks say continue (check tests)" })()`)
}

// Escape interrupts the session whose card has the focus, and nothing when no card has it; an
// answer to a question answered meanwhile shows the question pending now instead of an error;
// verdicts are worded as hooksup log words them.
func TestWebPageEscapeAndAStaleAnswer(t *testing.T) {
	_, w := simSessions(t, []string{askCfg, askCfg},
		[]agentsim.Scenario{{Prompts: []string{"go"}}, {Prompts: []string{"go"}}},
		[]string{"⚑ claude wants to stop", "⚑ claude wants to stop"})
	ctx := browser(t, 375, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.link)); err != nil {
		t.Fatal(err)
	}
	const wait = 20 * time.Second
	evalUntil(t, ctx, wait, "both questions", `document.querySelectorAll(".card .question").length === 2`)
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
		for _, s := range webSessions(t, w) {
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
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cardJS(second)+`.focus() || true`)); err != nil {
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
	evalUntil(t, ctx, wait, "the interrupted session's verdict in the log's words", `(() => { const c = `+cardJS(second)+`;
		return !!c && [...c.querySelectorAll("ul.verdicts li")].some(li => li.textContent.includes(" let stop (Escape)")) })()`)

	// The first card's question is answered elsewhere while the page holds what it showed; the
	// session asks again; continue on the card: the page shows the new question, not an error.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.hold = true`)); err != nil {
		t.Fatal(err)
	}
	id := ""
	for _, s := range webSessions(t, w) {
		if s.Cwd == first {
			id = s.ID
		}
	}
	if resp, body := w.do(t, "POST", "/api/sessions/"+id+"/approve", fmt.Sprintf(`{"question": %d}`, before[first]),
		map[string]string{"Authorization": "Bearer " + w.token}); resp.StatusCode != 200 {
		t.Fatalf("approve elsewhere: %d %s", resp.StatusCode, body)
	}
	for deadline := time.Now().Add(wait); pending()[first] == 0 || pending()[first] == before[first]; {
		if time.Now().After(deadline) {
			t.Fatal("the first session never asked again")
		}
		time.Sleep(100 * time.Millisecond)
	}
	again := pending()[first]
	if shows, _ := chromedp.Run(ctx, chromedp.Evaluate[string](cardJS(first)+`.querySelector(".question").dataset.question`)); shows != fmt.Sprint(before[first]) {
		t.Fatalf("the card shows question %s before the click, want the held %d", shows, before[first])
	}
	if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const b = [...`+cardJS(first)+`.querySelectorAll("button")].find(b => b.textContent === "continue");
		if (!b || b.disabled) return false; b.click(); return true })()`)); err != nil || !ok {
		t.Fatalf("click continue: %v %v", ok, err)
	}
	evalUntil(t, ctx, wait, "the new question on the card and what happened", fmt.Sprintf(`(() => { const c = %s; const q = c && c.querySelector(".question");
		return !!q && q.dataset.question === "%d" && document.getElementById("notice").textContent.endsWith("the card shows it now") })()`, cardJS(first), again))
	if now := pending(); now[first] != again {
		t.Fatalf("the stale answer answered the new question: %v, want %d pending", now, again)
	}
	evalUntil(t, ctx, wait, "the verdict given elsewhere in the log's words", `(() => { const c = `+cardJS(first)+`;
		return !!c && [...c.querySelectorAll("ul.verdicts li")].some(li => li.textContent.includes(" continued by you (hooksup web)")) })()`)
}
