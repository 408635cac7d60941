package hubweb

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/verdictlog"
)

// manualVerdicts are the session's verdicts given by a person, from its verdict log as
// `hooksup log --json` prints it.
func manualVerdicts(t *testing.T, s e2e.SimSession) []verdictlog.Verdict {
	t.Helper()
	code, out := s.Sb.Hooksup(t, "log", "--json")
	if code != 0 {
		return nil // no verdict yet
	}
	var vs []verdictlog.Verdict
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		v, err := verdictlog.Parse([]byte(line))
		if err == nil && strings.HasPrefix(string(v.Source), string(verdictlog.SourceManual)) {
			vs = append(vs, v)
		}
	}
	return vs
}

// waitManual waits for the session's nth verdict given by a person and returns them all.
func waitManual(t *testing.T, s e2e.SimSession, n int, wait time.Duration) []verdictlog.Verdict {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		if vs := manualVerdicts(t, s); len(vs) >= n {
			return vs
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %d verdicts given by a person after %v: %+v", n, wait, manualVerdicts(t, s))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// pendingOf is the id of the question the session in project waits on (0 for none).
func pendingOf(t *testing.T, w *e2e.WebServer, project string) (id string, q int) {
	t.Helper()
	for _, s := range e2e.WebSessions(t, w) {
		if s.Cwd == project {
			if len(s.Pending) > 0 {
				return s.ID, s.Pending[0].ID
			}
			return s.ID, 0
		}
	}
	t.Fatalf("no session in %s", project)
	return "", 0
}

// openPage opens hooksup web's page and waits for the card of project with a question to answer.
func openPage(t *testing.T, w *e2e.WebServer, project string) context.Context {
	t.Helper()
	ctx := e2e.Browser(t, 800, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, 20*time.Second, "the question on the card", `(() => { const c = `+e2e.CardJS(project)+`;
		return !!c && [...c.querySelectorAll("button")].some(b => b.dataset.action === "edit" || b.textContent === "edit reason") })()`)
	return ctx
}

// After e on a focused card, what is typed is the reason, never a shortcut, wherever the focus
// is while the editor is open: "adk" and "x" approve nothing, let nothing stop, halt nothing,
// and are in the reason Ctrl+Enter sends.
func TestWebPageEditorTakesTheKeys(t *testing.T) {
	t.Parallel()
	ss, w := e2e.SimTUIs(t, []string{e2e.AskCfg}, []agentsim.Scenario{{Prompts: []string{"go"}}}, []string{"⚑ claude wants to stop"})
	s := ss[0]
	ctx := openPage(t, w, s.Project)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](e2e.CardJS(s.Project)+`.focus() || true`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent("e")); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, 10*time.Second, "the editor", `(() => { const ta = `+e2e.CardJS(s.Project)+`.querySelector("textarea");
		return !!ta && ta.value.includes("FAIL: TestPage") })()`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("adk")); err != nil {
		t.Fatal(err)
	}
	// The card has the focus again, its editor still open: x is text too, not halt.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](e2e.CardJS(s.Project)+`.focus() || true`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent("x")); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	vs := waitManual(t, s, 1, 20*time.Second)
	if len(vs) != 1 || vs[0].Decision != "block" || !strings.Contains(vs[0].Reason, "FAIL: TestPage") || !strings.HasSuffix(vs[0].Reason, "\nadkx") {
		t.Fatalf("the verdicts given from the page: %+v; want one block whose reason is the checks' and then adkx", vs)
	}
}

// The e that opens the editor is not its text even when the page is drawn again (a refresh
// from its event stream) between the key and the character the browser delivers for it: the
// editor drawn anew swallows it as the first one would have.
func TestWebPageEditorKeyAcrossARedraw(t *testing.T) {
	t.Parallel()
	ss, w := e2e.SimTUIs(t, []string{e2e.AskCfg}, []agentsim.Scenario{{Prompts: []string{"go"}}}, []string{"⚑ claude wants to stop"})
	s := ss[0]
	ctx := openPage(t, w, s.Project)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](e2e.CardJS(s.Project)+`.focus() || true`)); err != nil {
		t.Fatal(err)
	}
	// The e as a browser's key events: its key down, the character, its key up (kb.Encode, as
	// chromedp.KeyEvent sends them), the page drawn again after the first.
	evs := kb.Encode('e')
	press := func(evs ...*input.DispatchKeyEventParams) error {
		return chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			for _, ev := range evs {
				if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, *ev); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	if len(evs) != 3 || evs[1].Type != kb.KeyChar {
		t.Fatalf("e's key events: %+v", evs)
	}
	if err := press(evs[0]); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, 10*time.Second, "the editor", `(() => { const ta = `+e2e.CardJS(s.Project)+`.querySelector("textarea");
		return !!ta && ta.value.includes("FAIL: TestPage") })()`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`render(), true`)); err != nil {
		t.Fatal(err)
	}
	if err := press(evs[1:]...); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent("adk")); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	vs := waitManual(t, s, 1, 20*time.Second)
	if len(vs) != 1 || vs[0].Decision != "block" || !strings.HasSuffix(vs[0].Reason, "\nadk") {
		t.Fatalf("the verdicts given from the page: %+v; want one block whose reason ends with the line adk", vs)
	}
}

// An edit answers the question it was opened on or nothing: that question answered elsewhere
// (hooksup approve) and the agent asking again, the editor closes, says why, and keeps the text
// to copy; Ctrl+Enter answers nothing.
func TestWebPageEditIsBoundToItsQuestion(t *testing.T) {
	t.Parallel()
	ss, w := e2e.SimTUIs(t, []string{e2e.AskCfg}, []agentsim.Scenario{{Prompts: []string{"go"}}}, []string{"⚑ claude wants to stop"})
	s := ss[0]
	ctx := openPage(t, w, s.Project)
	id, first := pendingOf(t, w, s.Project)
	if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const b = [...`+e2e.CardJS(s.Project)+`.querySelectorAll("button")].find(b => b.textContent === "edit reason");
		if (!b) return false; b.click(); return true })()`)); err != nil || !ok {
		t.Fatalf("click edit reason: %v %v", ok, err)
	}
	e2e.EvalUntil(t, ctx, 10*time.Second, "the editor with the focus", `document.activeElement && document.activeElement.tagName === "TEXTAREA"`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("MY EDIT")); err != nil {
		t.Fatal(err)
	}
	if code, out := s.Sb.Hooksup(t, "approve", id); code != 0 {
		t.Fatalf("hooksup approve: %d %s", code, out)
	}
	var again int
	for deadline := time.Now().Add(20 * time.Second); again == 0 || again == first; _, again = pendingOf(t, w, s.Project) {
		if time.Now().After(deadline) {
			t.Fatal("the session never asked again")
		}
		time.Sleep(100 * time.Millisecond)
	}
	e2e.EvalUntil(t, ctx, 20*time.Second, "the card showing the new question", fmt.Sprintf(`(() => { const q = %s.querySelector(".question"); return !!q && q.dataset.question === "%d" })()`, e2e.CardJS(s.Project), again))
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	why := fmt.Sprintf("question %d was answered elsewhere; claude asks again — your text is kept below to copy", first)
	e2e.EvalUntil(t, ctx, 20*time.Second, "the card saying why the editor closed, and the text", fmt.Sprintf(`(() => { const k = %s.querySelector(".kept");
		return !!k && k.querySelector(".why").textContent === %q && k.querySelector("textarea").readOnly && k.querySelector("textarea").value.endsWith("\nMY EDIT") })()`,
		e2e.CardJS(s.Project), why))
	// Typed into the kept text, keys are text too: nothing is answered.
	if err := chromedp.Do(ctx, chromedp.KeyEvent("ad")); err != nil {
		t.Fatal(err)
	}
	if _, now := pendingOf(t, w, s.Project); now != again {
		t.Fatalf("question %d was answered from the closed editor (pending now: %d)", again, now)
	}
	if vs := manualVerdicts(t, s); len(vs) != 1 || vs[0].Source != "manual (hooksup approve)" {
		t.Fatalf("the verdicts given by a person: %+v; want hooksup approve's alone", vs)
	}
}

// The editor's caret and selection stay where they are while the page refreshes (another
// session's question answered: its events).
func TestWebPageEditorKeepsItsCaret(t *testing.T) {
	t.Parallel()
	ss, w := e2e.SimTUIs(t, []string{e2e.AskCfg, e2e.AskCfg}, []agentsim.Scenario{{Prompts: []string{"go"}}, {Prompts: []string{"go"}}},
		[]string{"⚑ claude wants to stop", "⚑ claude wants to stop"})
	editing, other := ss[0], ss[1]
	ctx := openPage(t, w, editing.Project)
	e2e.EvalUntil(t, ctx, 20*time.Second, "both questions", `document.querySelectorAll(".card .question").length === 2`)
	if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const b = [...`+e2e.CardJS(editing.Project)+`.querySelectorAll("button")].find(b => b.textContent === "edit reason");
		if (!b) return false; b.click(); return true })()`)); err != nil || !ok {
		t.Fatalf("click edit reason: %v %v", ok, err)
	}
	e2e.EvalUntil(t, ctx, 10*time.Second, "the editor with the focus", `document.activeElement && document.activeElement.tagName === "TEXTAREA"`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("the end")); err != nil {
		t.Fatal(err)
	}
	// The caret into the reason's first word, three characters selected.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.activeElement.setSelectionRange(2, 5), true)`)); err != nil {
		t.Fatal(err)
	}
	id, q := pendingOf(t, w, other.Project)
	if resp, body := w.Do(t, "POST", "/api/sessions/"+id+"/approve", fmt.Sprintf(`{"question": %d}`, q),
		map[string]string{"Authorization": "Bearer " + w.Token}); resp.StatusCode != 200 {
		t.Fatalf("approve the other: %d %s", resp.StatusCode, body)
	}
	// The other card shows its next question: the page refreshed.
	e2e.EvalUntil(t, ctx, 20*time.Second, "the other card's next question", fmt.Sprintf(`(() => { const c = %s; const q = c && c.querySelector(".question");
		return !!q && q.dataset.question !== "%d" })()`, e2e.CardJS(other.Project), q))
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const ta = document.activeElement;
		return ta.tagName + " " + ta.selectionStart + "-" + ta.selectionEnd + " " + ta.value.endsWith("\nthe end") })()`))
	if err != nil || got != "TEXTAREA 2-5 true" {
		t.Fatalf("after a refresh the editor has %q (%v), want the focus, 2-5 selected and the text kept", got, err)
	}
}

// The card words each answer as the TUI does (its key hint, its help) with the verdict it
// records as hooksup log words it, its history in hooksup log's words, its state in the TUI's.
func TestWebPageSaysWhatTheTUIAndTheLogSay(t *testing.T) {
	t.Parallel()
	ss, w := e2e.SimTUIs(t, []string{e2e.AskCfg}, []agentsim.Scenario{{Prompts: []string{"go"}}}, []string{"⚑ claude wants to stop"})
	s := ss[0]
	ctx := openPage(t, w, s.Project)
	type button struct{ Label, Title string }
	buttons, err := chromedp.Run(ctx, chromedp.Evaluate[[]button](`[...`+e2e.CardJS(s.Project)+`.querySelectorAll(".actions button")].map(b => ({Label: b.textContent, Title: b.title}))`))
	if err != nil {
		t.Fatal(err)
	}
	screen := s.Tm.Screen()
	for i, want := range []struct {
		action, key, decision string
	}{{keymap.Approve, "a", "block"}, {keymap.Deny, "d", "allow"}, {keymap.Edit, "e", ""}, {keymap.Halt, "x", "halt"}} {
		a, _ := keymap.Lookup(want.action)
		if i >= len(buttons) {
			t.Fatalf("the card's buttons: %+v", buttons)
		}
		b := buttons[i]
		// The TUI's banner: "ctrl+] then a continue · d let it stop · e edit reason · x halt".
		if !strings.Contains(screen, a.Keys[0]+" "+b.Label) {
			t.Errorf("the button %q is not what the TUI's banner says:\n%s", b.Label, screen)
		}
		title := a.HelpFor("claude") + " (" + want.key + ")"
		if want.decision != "" {
			title += " → " + want.decision
		}
		if b.Title != title {
			t.Errorf("the button %q says %q, want the TUI's help and the verdict it records: %q", b.Label, b.Title, title)
		}
	}
	// The state, as the TUI's header says it.
	state, err := chromedp.Run(ctx, chromedp.Evaluate[string](e2e.CardJS(s.Project)+`.querySelector(".state").textContent`))
	if err != nil || !strings.Contains(screen, "● "+state) {
		t.Errorf("the card's state %q (%v) is not the TUI's:\n%s", state, err, screen)
	}
	// continue: the verdict in the history as hooksup log prints it, the word its button said.
	if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const b = [...`+e2e.CardJS(s.Project)+`.querySelectorAll("button")].find(b => b.textContent === "continue");
		if (!b) return false; b.click(); return true })()`)); err != nil || !ok {
		t.Fatalf("click continue: %v %v", ok, err)
	}
	waitManual(t, s, 1, 20*time.Second)
	code, log := s.Sb.Hooksup(t, "log")
	if code != 0 || !strings.Contains(log, "Stop → block: continued by you (hooksup web)") {
		t.Fatalf("hooksup log: %d %s", code, log)
	}
	e2e.EvalUntil(t, ctx, 20*time.Second, "the verdict in the history in hooksup log's words", `(() => { const c = `+e2e.CardJS(s.Project)+`;
		const li = c && c.querySelector("ul.verdicts li");
		return !!li && li.querySelector(".d-block").textContent === "continued by you (hooksup web)" && li.querySelector(".d-block").title === "logged block" && li.textContent.includes(" continued by you (hooksup web) · ") })()`)
}
