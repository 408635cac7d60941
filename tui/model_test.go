package tui

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"
	"github.com/hooksup/hooksup/third_party/teatest"

	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/themes"
	"github.com/hooksup/hooksup/verdictlog"
)

// updating reports -update (the flag is defined by teatest's golden package).
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// fakeSession stands in for the supervisor: the test feeds events and reads what the TUI asked.
type fakeSession struct {
	events     chan session.Event
	mu         sync.Mutex
	resolved   []string
	interrupts int
	statuses   []session.TerminalStatus
	typed      []time.Time
	// onInterrupt, when set, is called by Interrupt (with mu held).
	onInterrupt func()
}

func newFakeSession() *fakeSession { return &fakeSession{events: make(chan session.Event, 64)} }

func (f *fakeSession) Events() <-chan session.Event { return f.events }
func (f *fakeSession) Resolve(id int, d hooks.Decision, reason string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resolved = append(f.resolved, string(d)+":"+reason)
	return nil
}
func (f *fakeSession) Interrupt() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.interrupts++
	if f.onInterrupt != nil {
		f.onInterrupt()
	}
}
func (f *fakeSession) Typed(at time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.typed = append(f.typed, at)
}
func (f *fakeSession) TerminalStatus(ts session.TerminalStatus) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.statuses = append(f.statuses, ts)
}

// answers is what the TUI answered so far.
func (f *fakeSession) answers() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.resolved...)
}

// waitAnswers waits until the TUI answered n questions (it answers in a command, which may
// still run after the program ended), and returns the answers.
func (f *fakeSession) waitAnswers(t *testing.T, n int) []string {
	t.Helper()
	waitUntil(t, fmt.Sprintf("%d answers", n), func() bool { return len(f.answers()) >= n })
	return f.answers()
}

// waitUntil polls ok until it holds, failing the test after 30 s.
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (f *fakeSession) Counts() session.Counts {
	return session.Counts{Turn: 2, TurnContinuations: 1, MaxContinuations: 3, SessionContinuations: 4,
		SubagentContinuations: 1, MaxSteers: 3}
}

// syncBuffer is what claude's pty received.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var t0 = time.Date(2026, 11, 22, 14, 30, 0, 0, time.Local)

// scene feeds a session with a bit of everything: a verdict of each kind, a running check
// with output, a subagent, and a pending question.
func scene(f *fakeSession) {
	in := func(ev string) *hooks.Input {
		return &hooks.Input{HookEventName: ev, SessionID: "4312ba3d-56cd-4b9f-8c76-66e8ea524739", Model: "claude-opus-5-5", AgentID: "a1b2c3d4e5", AgentType: "Explore"}
	}
	at := func(s int) session.At { return session.At{Time: t0.Add(time.Duration(s) * time.Second)} }
	f.events <- session.HookReceived{At: at(0), Input: in(hooks.SessionStart)}
	f.events <- session.StateChanged{At: at(1), State: session.StateWorking}
	f.events <- session.HookReceived{At: at(2), Input: in(hooks.SubagentStart)}
	f.events <- session.SubagentsChanged{At: at(3), Agents: []session.Subagent{{ID: "a1b2c3d4e5", Type: "Explore",
		State: session.SubSteered, Steers: 1}}}
	f.events <- session.VerdictDecided{At: at(3), Verdict: verdictlog.Verdict{Time: t0.Add(3 * time.Second), Event: "SubagentStop",
		AgentID: "a1b2c3d4e5", AgentType: "Explore", Decision: "block", Source: "check:review", Reason: "cite the files you read", Steers: 1, MaxSteers: 3}}
	f.events <- session.VerdictDecided{At: at(4), Verdict: verdictlog.Verdict{Time: t0.Add(4 * time.Second), Event: "Stop",
		Decision: "block", Source: "check:tests", Reason: "The check \"tests\" failed (exit 1).\n--- FAIL: TestParse", Continuations: 1, MaxContinuations: 3,
		Checks: []verdictlog.CheckRecord{{Name: "tests", ExitCode: 1, DurationMS: 812, Output: "--- FAIL: TestParse\n    parse_test.go:12: want 2, got 3"}}}}
	f.events <- session.VerdictDecided{At: at(5), Verdict: verdictlog.Verdict{Time: t0.Add(5 * time.Second), Event: "Stop",
		Decision: "allow", Source: "limit", Warning: "hooksup: reached the continuation limit", Continuations: 3, MaxContinuations: 3}}
	f.events <- session.CheckStarted{At: at(6), Run: 7, Name: "tests", Command: "go test ./..."}
	f.events <- session.CheckOutput{At: at(6), Run: 7, Name: "tests", Chunk: []byte("=== RUN   TestParse\n--- FAIL: TestParse (0.00s)\n    parse_test.go:12: want 2, got 3\n")}
	f.events <- session.QuestionAsked{At: at(7), Question: session.Question{ID: 1, Event: "Stop", Proposal: hooks.Block,
		Source: "check:tests", Reason: "The check \"tests\" failed (exit 1).", Asked: t0.Add(7 * time.Second),
		Deadline: t0.Add(5*time.Minute + 7*time.Second)}}
}

func newTestModel(t testing.TB, theme string) (model, *fakeSession, *syncBuffer) {
	t.Helper()
	return newTestModelKeys(t, theme, defaultKeyMap())
}

// newTestModelKeys is newTestModel with the keys k.
func newTestModelKeys(t testing.TB, theme string, k keyMap) (model, *fakeSession, *syncBuffer) {
	t.Helper()
	th, err := themes.Get(theme)
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeSession()
	a := newAgentIO(80, 24, "test", programStatusTo(f), titleTo(f))
	t.Cleanup(a.close)
	pty := &syncBuffer{}
	a.sendTo(pty)
	raw, err := os.ReadFile("vterm/testdata/claude-tty.raw")
	if err != nil {
		t.Fatal(err)
	}
	a.term.Write(raw)
	m := newModel(f, a, NewStyles(th), k, "ask", true, claude.DefaultBlockCap)
	m.setAgent("claude")
	m.header.plain = "claude"
	return m, f, pty
}

// run drives the model through teatest at w×h with the scene, and returns the final model.
func run(t *testing.T, m model, f *fakeSession, w, h int, keys ...tea.Msg) model {
	t.Helper()
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	scene(f)
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("wants to stop")) },
		teatest.WithDuration(30*time.Second))
	for _, k := range keys {
		tm.Send(k)
	}
	tm.Send(tea.Quit())
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(model)
	fm.now, fm.checks.spinner, fm.quitting = t0.Add(8*time.Second), 0, false
	fm.io.applySize(fm.lay.agentInner()) // the resizer may not have run yet
	return fm
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if updating() {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tui -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test ./tui -run %s -update to accept):\n%s", path, t.Name(), got)
	}
}

// The layout at three sizes (wide, stacked, small) in two themes.
func TestLayoutGolden(t *testing.T) {
	for _, theme := range []string{"dark", "mono"} {
		for _, size := range []struct {
			name string
			w, h int
		}{{"wide", 160, 44}, {"stacked", 100, 40}, {"small", 56, 14}} {
			t.Run(theme+"-"+size.name, func(t *testing.T) {
				m, f, _ := newTestModel(t, theme)
				fm := run(t, m, f, size.w, size.h)
				out := fm.render()
				lines := strings.Split(out, "\n")
				if len(lines) != size.h {
					t.Errorf("%d lines, want %d", len(lines), size.h)
				}
				golden(t, "layout-"+theme+"-"+size.name, out)
			})
		}
	}
}

func press(code rune, mod tea.KeyMod, text string) tea.KeyPressMsg {
	return tea.KeyPressMsg{Code: code, Mod: mod, Text: text}
}

// Keys go to claude, except the prefix; Escape goes to claude and interrupts.
func TestKeyRouting(t *testing.T) {
	m, f, pty := newTestModel(t, "dark")
	run(t, m, f, 160, 44,
		press('h', 0, "h"), press('i', 0, "i"),
		press(']', tea.ModCtrl, ""), press(']', tea.ModCtrl, ""), // the prefix twice: sent to claude
		press(']', tea.ModCtrl, ""), press('a', 0, "a"), // approve the question
		press(tea.KeyUp, 0, ""),
		press(tea.KeyEscape, 0, ""),
		press(tea.KeyEscape, tea.ModNumLock, ""), // kitty terminals report the lock keys
	)
	// The second Escape's bytes come last: by then the supervisor has been told of both.
	const want = "hi\x1d\x1b[A\x1b\x1b"
	waitUntil(t, "claude to receive "+strconv.Quote(want), func() bool { return strings.HasSuffix(pty.String(), want) })
	if got := f.waitAnswers(t, 1); len(got) != 1 || got[0] != "block:" {
		t.Fatalf("resolved %v", got)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.interrupts != 2 {
		t.Fatalf("%d interrupts", f.interrupts)
	}
}

// orderLog records, in order, what reached claude's pty and when the supervisor was interrupted.
type orderLog struct {
	mu  sync.Mutex
	log []string
}

func (o *orderLog) add(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.log = append(o.log, s)
}

func (o *orderLog) Write(p []byte) (int, error) {
	o.add(fmt.Sprintf("%q", p))
	return len(p), nil
}

func (o *orderLog) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.Join(o.log, " ")
}

// Escape interrupts the supervisor before its bytes reach claude, and keys typed before and
// after it keep their order around it. The test waits for the keys to reach the pty before it
// runs the commands Update returned: a model that wrote Escape's bytes and left Interrupt to a
// command would have claude receive Escape before the supervisor knew.
func TestEscapeInterruptsBeforeItsBytes(t *testing.T) {
	f := newFakeSession()
	var order orderLog
	f.onInterrupt = func() { order.add("Interrupt") }
	a := newAgentIO(80, 24, "test", programStatusTo(f), titleTo(f))
	t.Cleanup(a.close)
	a.sendTo(&order)
	th, err := themes.Get("dark")
	if err != nil {
		t.Fatal(err)
	}
	var tm tea.Model = newModel(f, a, NewStyles(th), defaultKeyMap(), "ask", true, claude.DefaultBlockCap)
	var cmds []tea.Cmd
	for _, k := range []tea.KeyPressMsg{press('a', 0, "a"), press(tea.KeyEscape, 0, ""), press('b', 0, "b")} {
		var cmd tea.Cmd
		tm, cmd = tm.Update(k)
		cmds = append(cmds, cmd)
	}
	want := `"a" Interrupt "\x1b" "b"`
	deadline := time.Now().Add(30 * time.Second)
	for strings.Count(order.String(), `"`) < 6 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	for _, cmd := range cmds {
		if cmd != nil {
			cmd()
		}
	}
	if got := order.String(); got != want {
		t.Fatalf("claude's pty and the supervisor saw %s, want %s", got, want)
	}
}

// Escape pressed in another terminal (hooksup watch) is the Escape key here while the agent
// works: the supervisor first, then the key's bytes, in order with the keys typed here. At
// rest the agent is not sent it (it would clear what the person types); the supervisor is told.
func TestEscapeFromElsewhere(t *testing.T) {
	f := newFakeSession()
	var order orderLog
	f.onInterrupt = func() { order.add("Interrupt") }
	a := newAgentIO(80, 24, "test", programStatusTo(f), titleTo(f))
	t.Cleanup(a.close)
	a.sendTo(&order)
	th, err := themes.Get("dark")
	if err != nil {
		t.Fatal(err)
	}
	var tm tea.Model = newModel(f, a, NewStyles(th), defaultKeyMap(), "ask", true, claude.DefaultBlockCap)
	wait := func(quotes int) {
		deadline := time.Now().Add(30 * time.Second)
		for strings.Count(order.String(), `"`) < quotes && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}

	tm, cmd := tm.Update(escapeMsg{})
	if cmd == nil {
		t.Fatal("the supervisor is not told of an Escape at rest")
	}
	cmd()
	tm, _ = tm.Update(press('z', 0, "z"))
	wait(2)
	if got, want := order.String(), `Interrupt "z"`; got != want {
		t.Fatalf("at rest, claude's pty and the supervisor saw %s, want %s", got, want)
	}

	tm, _ = tm.Update(eventMsg{ev: session.StateChanged{State: session.StateWorking}})
	var cmds []tea.Cmd
	for _, msg := range []tea.Msg{press('a', 0, "a"), escapeMsg{}, press('b', 0, "b")} {
		tm, cmd = tm.Update(msg)
		cmds = append(cmds, cmd)
	}
	wait(8)
	for _, cmd := range cmds {
		if cmd != nil {
			cmd()
		}
	}
	if got, want := order.String(), `Interrupt "z" "a" Interrupt "\x1b" "b"`; got != want {
		t.Fatalf("at work, claude's pty and the supervisor saw %s, want %s", got, want)
	}
}

// Editing the reason: cleared, the person's words become the reason claude reads.
func TestEditReason(t *testing.T) {
	m, f, _ := newTestModel(t, "dark")
	msgs := []tea.Msg{press(']', tea.ModCtrl, ""), press('e', 0, "e"), press('l', tea.ModCtrl, "")}
	for _, r := range "also run vet" {
		msgs = append(msgs, press(r, 0, string(r)))
	}
	msgs = append(msgs, press(tea.KeyEnter, 0, ""))
	run(t, m, f, 160, 44, msgs...)
	if got := f.waitAnswers(t, 1); len(got) != 1 || got[0] != "block:also run vet" {
		t.Fatalf("resolved %v", got)
	}
}

// The clear key empties the reason, whatever it held, and the banner names it; rebound in
// [keys], the new key does, and the banner names that one.
func TestEditorClearKey(t *testing.T) {
	for _, c := range []struct {
		bindings map[string]string
		clear    tea.KeyPressMsg
		hint     string
	}{
		{nil, press('l', tea.ModCtrl, ""), "ctrl+l clear"},
		{map[string]string{"clear": "alt+x"}, press('x', tea.ModAlt, ""), "alt+x clear"},
	} {
		km, err := keymap.Resolve("", c.bindings)
		if err != nil {
			t.Fatal(err)
		}
		m, f, _ := newTestModelKeys(t, "dark", newKeyMap(km))
		msgs := []tea.Msg{press(']', tea.ModCtrl, ""), press('e', 0, "e"), press('j', tea.ModCtrl, ""), press('z', 0, "z"), c.clear}
		for _, r := range "mine" {
			msgs = append(msgs, press(r, 0, string(r)))
		}
		fm := run(t, m, f, 160, 44, msgs...)
		if out := ansi.Strip(fm.render()); !strings.Contains(out, "enter send · ctrl+j/alt+enter/shift+enter new line · "+c.hint+" · ") {
			t.Errorf("%v: the editor's hints do not name %q:\n%s", c.bindings, c.hint, out)
		}
		if _, cmd := fm.Update(press(tea.KeyEnter, 0, "")); cmd != nil {
			cmd()
		}
		if got := f.answers(); len(got) != 1 || got[0] != "block:mine" {
			t.Errorf("%v: the answers %q, want only the words typed after clearing", c.bindings, got)
		}
	}
}

// A selected verdict opens its full reason and the output of its failed checks.
func TestVerdictDetail(t *testing.T) {
	m, f, _ := newTestModel(t, "dark")
	fm := run(t, m, f, 160, 44,
		press(']', tea.ModCtrl, ""), press(tea.KeyTab, 0, ""), // focus the verdicts
		press(tea.KeyUp, 0, ""), press(tea.KeyEnter, 0, ""), // the Stop block, opened
	)
	out := ansi.Strip(fm.render())
	for _, want := range []string{"continued (check tests failed) · logged block", "✗ tests exit 1 in 812 ms", "│     parse_test.go:12: want 2, got 3", "reason claude read:", "--- FAIL: TestParse"} {
		if !strings.Contains(out, want) {
			t.Errorf("the detail lacks %q:\n%s", want, out)
		}
	}
}

// The agent's exit reaches the TUI as the supervisor's AgentExited event: without
// hold_on_exit the TUI closes by itself; with it, the status line says how claude ended and the
// next key closes it.
func TestAgentExitedEvent(t *testing.T) {
	for _, hold := range []bool{false, true} {
		t.Run(map[bool]string{false: "close", true: "hold"}[hold], func(t *testing.T) {
			m, f, _ := newTestModel(t, "dark")
			m.holdOnExit = hold
			tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
			f.events <- session.AgentExited{At: session.At{Time: t0}, Code: 3}
			if hold {
				teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
					return bytes.Contains(b, []byte("claude exited with status 3 — press any key to close"))
				}, teatest.WithDuration(30*time.Second))
				tm.Send(press('x', 0, "x"))
			}
			fm := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(model)
			if !fm.exited || fm.exitCode != 3 || !fm.quitting {
				t.Fatalf("exited %v code %d quitting %v", fm.exited, fm.exitCode, fm.quitting)
			}
		})
	}
}

// Cancelling an edit leaves the question open and claude uninterrupted: nothing is sent. The
// keys after it show that: the next key reaches claude, and nothing else before it; the next
// answer is the first, without the edit.
func TestCancelEdit(t *testing.T) {
	m, f, pty := newTestModel(t, "dark")
	fm := run(t, m, f, 160, 44, press(']', tea.ModCtrl, ""), press('e', 0, "e"), press('z', 0, "z"), press('c', tea.ModCtrl, ""),
		press('¶', 0, "¶"), press(']', tea.ModCtrl, ""), press('a', 0, "a"))
	waitUntil(t, "the key after the cancel to reach claude", func() bool { return strings.Contains(pty.String(), "¶") })
	if got := f.waitAnswers(t, 1); len(got) != 1 || got[0] != "block:" {
		t.Fatalf("the edit was sent: the answers are %q, want only the approval after it", got)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if got := pty.String(); f.interrupts != 0 || strings.ContainsAny(got, "z\x03") {
		t.Fatalf("%d interrupts, claude got %q", f.interrupts, got)
	}
	if fm.editor.open || len(fm.questions) != 1 || !strings.Contains(ansi.Strip(fm.render()), "claude wants to stop") {
		t.Fatalf("editing %v, %d questions", fm.editor.open, len(fm.questions))
	}
}

// The banner's first frame shows the whole timeout, not more: the clock of the last tick may
// be long before the question.
func TestCountdownFirstFrame(t *testing.T) {
	m, _, _ := newTestModel(t, "dark")
	m.w, m.h = 120, 40
	m.now = t0.Add(-time.Hour) // the last tick
	asked := t0
	next, _ := m.Update(eventMsg{ev: session.QuestionAsked{At: session.At{Time: asked}, Question: session.Question{
		ID: 1, Event: "Stop", Proposal: hooks.Block, Reason: "The check \"tests\" failed (exit 1).", Asked: asked,
		Deadline: asked.Add(5 * time.Minute)}}})
	out := ansi.Strip(next.(model).render())
	if !strings.Contains(out, "· 5:00 left") {
		t.Fatalf("the first frame does not show 5:00 left:\n%s", out)
	}
	// Asked later than the event reached the TUI (a slow frame): still never more than 5:00.
	if got := timeLeft(session.Question{Asked: asked, Deadline: asked.Add(5 * time.Minute)}, asked.Add(-2*time.Second)); got != "5:00" {
		t.Errorf("timeLeft before the question was asked = %s", got)
	}
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{5 * time.Minute, "5:00"}, {299*time.Second + time.Millisecond, "5:00"}, {299 * time.Second, "4:59"}, {0, "0:00"}, {-time.Second, "0:00"},
		{90 * time.Minute, "1:30:00"}} {
		q := session.Question{Asked: asked, Deadline: asked.Add(2 * time.Hour)}
		if got := timeLeft(q, q.Deadline.Add(-c.d)); got != c.want {
			t.Errorf("%v left shows %s, want %s", c.d, got, c.want)
		}
	}
}

// Where the checks pane is hidden, the banner quotes the end of the failed check's output.
func TestBannerSaysWhatFailedWhenChecksAreHidden(t *testing.T) {
	reason := "The check \"tests\" failed (exit 1). Fix what it reports, then finish.\n$ go test ./...\n=== RUN   TestParse\n--- FAIL: TestParse (0.00s)\n    parse_test.go:12: want 2, got 3\nFAIL\n"
	for _, c := range []struct {
		w, h   int
		detail bool
	}{{60, 24, true}, {160, 44, false}} {
		m, _, _ := newTestModel(t, "mono")
		m.w, m.h, m.now = c.w, c.h, t0.Add(-time.Minute)
		next, _ := m.Update(eventMsg{ev: session.QuestionAsked{At: session.At{Time: t0}, Question: session.Question{
			ID: 1, Event: "Stop", Proposal: hooks.Block, Reason: reason, Asked: t0, Deadline: t0.Add(5 * time.Minute)}}})
		out := ansi.Strip(next.(model).render())
		banner := strings.Join(strings.Split(out, "\n")[1:next.(model).lay.agent.y], "\n")
		has := strings.Contains(banner, "--- FAIL: TestParse (0.00s)") && strings.Contains(banner, "parse_test.go:12: want 2, got 3") &&
			strings.Contains(banner, "FAIL")
		if has != c.detail {
			t.Errorf("%dx%d: the banner quotes the failure: %v, want %v:\n%s", c.w, c.h, has, c.detail, banner)
		}
		if !strings.Contains(banner, "esc interrupts · 5:00 left") {
			t.Errorf("%dx%d: no time left:\n%s", c.w, c.h, banner)
		}
	}
}

// The reason keeps its line breaks: the checks' own, the one the editor starts on (typed text
// is never glued to the reason's last word), a new line typed, a pasted one.
func TestEditReasonKeepsLineBreaks(t *testing.T) {
	m, f, _ := newTestModel(t, "dark")
	msgs := []tea.Msg{press(']', tea.ModCtrl, ""), press('e', 0, "e")}
	for _, r := range "also vet" {
		msgs = append(msgs, press(r, 0, string(r)))
	}
	msgs = append(msgs, press(tea.KeyEnter, tea.ModAlt, ""), tea.PasteMsg{Content: "pasted one\npasted two"}, press(tea.KeyEnter, 0, ""))
	run(t, m, f, 160, 44, msgs...)
	want := "block:The check \"tests\" failed (exit 1).\nalso vet\npasted one\npasted two"
	if got := f.waitAnswers(t, 1); len(got) != 1 || got[0] != want {
		t.Fatalf("resolved %q, want %q", got, want)
	}
}

// What claude tells its terminal about itself reaches the session as it is read from the pty,
// typed; what it says about its subagents and tasks, and its goodbye, do not.
func TestProgramStatusReachesTheSession(t *testing.T) {
	m, f, pty := newTestModel(t, "dark")
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(pty.String(), "\x1b]7501;?\x1b\\"); {
		if time.Now().After(deadline) {
			t.Fatalf("claude's OSC 7501 probe went unanswered: %q", pty.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	m.io.term.Write([]byte("\x1b]7501;state=working:app=claude-code:id=task/a1\x07" +
		"\x1b]7501;state=blocked:app=claude-code:kind=permission:msg=YXBwcm92ZSBCYXNoOiBscw==\x07" +
		"\x1b]7501;state=clear\x07"))
	f.mu.Lock()
	defer f.mu.Unlock()
	want := session.TerminalStatus{State: session.TerminalBlocked, Kind: session.BlockedPermission, Msg: "approve Bash: ls"}
	var reports []session.TerminalStatus // its window titles reach the session too, apart
	for _, s := range f.statuses {
		if s.Title == "" {
			reports = append(reports, s)
		}
	}
	if len(reports) != 1 || reports[0] != want {
		t.Fatalf("statuses %+v", f.statuses)
	}
}

// The summary at claude's exit: the verdicts by decision, what the session used, and the
// resume command only when there is a conversation to resume and a command that resumes it.
func TestExitSummaryLines(t *testing.T) {
	var none tally
	none.event(session.HookReceived{Input: &hooks.Input{HookEventName: hooks.SessionStart, SessionID: "s-1"}})
	if got := strings.Join(none.lines("hooksup claude --resume"), "\n"); got != "no verdicts\nno conversation to resume" {
		t.Errorf("before any conversation:\n%s", got)
	}
	var some tally
	some.event(session.HookReceived{Input: &hooks.Input{HookEventName: hooks.SessionStart, SessionID: "s-1"}})
	for _, d := range []hooks.Decision{hooks.Block, hooks.Allow, hooks.Allow} {
		some.event(session.VerdictDecided{Verdict: verdictlog.Verdict{Decision: d}})
	}
	snap := session.TranscriptUpdated{}
	snap.Snapshot.Main.Turns, snap.Snapshot.Main.ToolCallCount, snap.Snapshot.Usage.InputTokens = 1, 3, 12345
	some.event(snap)
	want := "3 verdicts: 1 continued · 2 let stop\n12.3k tokens · 3 tool calls · 1 prompt\nresume it with:\n  hooksup claude --resume s-1"
	if got := strings.Join(some.lines("hooksup claude --resume"), "\n"); got != want {
		t.Errorf("after a conversation:\n%s\nwant:\n%s", got, want)
	}
	if got := some.lines(""); len(got) != 2 {
		t.Errorf("without a resume command: %q", got)
	}
}

// raws runs cmd and returns what it would write to the outer terminal with tea.Raw.
func raws(cmd tea.Cmd) string {
	if cmd == nil {
		return ""
	}
	switch msg := cmd().(type) {
	case tea.RawMsg:
		return msg.Msg.(string)
	case tea.BatchMsg:
		var s string
		for _, c := range msg {
			s += raws(c)
		}
		return s
	}
	return ""
}

// on_idle reaches the outer terminal when claude was left waiting, and not when the person has
// been typing (in a pane of hooksup's own, which claude does not see) since the wait began; the
// next wait alerts again.
func TestIdleAlertNotWhileTyping(t *testing.T) {
	m, _, _ := newTestModel(t, "dark")
	m.w, m.h = 120, 40
	// Events through the model's event step (Update also waits for the session's next one).
	update := func(msg tea.Msg) string {
		if ev, ok := msg.(eventMsg); ok {
			return raws(m.event(ev))
		}
		next, _ := m.Update(msg)
		m = next.(model)
		return ""
	}
	state := func(s session.AgentState) tea.Msg {
		return eventMsg{ev: session.StateChanged{At: session.At{Time: t0}, State: s}}
	}
	idle := eventMsg{ev: session.Alert{At: session.At{Time: t0}, Action: session.ActionBell,
		Cause: session.CauseIdle, State: session.StateWaiting}}
	update(state(session.StateWaiting))
	if got := update(idle); got != "\a" {
		t.Fatalf("claude left waiting: the terminal got %q, want the bell", got)
	}
	update(state(session.StateWorking))
	update(state(session.StateWaiting))
	update(press(tea.KeyDown, 0, ""))
	if got := update(idle); got != "" {
		t.Fatalf("the person is typing: the terminal got %q, want nothing", got)
	}
	perm := eventMsg{ev: session.Alert{At: session.At{Time: t0}, Action: session.ActionBell,
		Cause: session.CausePermission, State: session.StatePermission}}
	update(state(session.StatePermission))
	update(press('x', 0, "x"))
	if got := update(perm); got != "\a" {
		t.Fatalf("a permission dialog while typing: the terminal got %q, want the bell", got)
	}
	update(state(session.StateWaiting))
	if got := update(idle); got != "\a" {
		t.Fatalf("the next wait: the terminal got %q, want the bell", got)
	}
}

// The reason editor opens on a pending question whatever state the agent is in (claude's
// terminal reports move the state while the question waits), and a later state change does
// not close it. Before the question exists the edit key has nothing to open.
func TestEditOpensInEveryState(t *testing.T) {
	q := session.QuestionAsked{At: session.At{Time: t0}, Question: session.Question{ID: 1, Event: "Stop",
		Proposal: hooks.Block, Source: "check:tests", Reason: "The check \"tests\" failed (exit 1).", Asked: t0,
		Deadline: t0.Add(5 * time.Minute)}}
	edit := func(m model) model {
		for _, k := range []tea.KeyPressMsg{press(']', tea.ModCtrl, ""), press('e', 0, "e")} {
			nm, _ := m.Update(k)
			m = nm.(model)
		}
		return m
	}
	state := func(m model, s session.AgentState) model {
		nm, _ := m.Update(eventMsg{ev: session.StateChanged{At: session.At{Time: t0}, State: s, Source: "terminal"}})
		return nm.(model)
	}
	for _, s := range []session.AgentState{session.StateStopping, session.StateWorking, session.StateWaiting,
		session.StatePermission, session.StateQuestion} {
		t.Run(string(s), func(t *testing.T) {
			m0, _, _ := newTestModel(t, "dark")
			nm, _ := m0.Update(tea.WindowSizeMsg{Width: 200, Height: 45})
			m := edit(state(nm.(model), s))
			if m.editor.open || m.prefixed {
				t.Fatalf("with no question: editing %v, prefixed %v", m.editor.open, m.prefixed)
			}
			nm, _ = m.Update(eventMsg{ev: q})
			m = edit(nm.(model))
			if !m.editor.open || m.editor.id != 1 {
				t.Fatalf("in state %s the editor did not open on the question", s)
			}
			m = state(m, session.StatePermission)
			m = state(m, session.StateWorking)
			if !m.editor.open || !strings.Contains(ansi.Strip(m.render()), "ctrl+c cancel edit") {
				t.Fatalf("a state change closed the editor:\n%s", ansi.Strip(m.render()))
			}
		})
	}
}

// Shrunk below the smallest pane it draws and grown back, the TUI shows the agent's screen as it
// was: while it says the terminal is too small, the agent keeps its size (resized to a few
// cells, every line it drew would be cut to their width).
func TestTooSmallAndBackKeepsTheAgentsScreen(t *testing.T) {
	th, err := themes.Get("mono")
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeSession()
	a := newAgentIOAlone(80, 24, "test", nil, nil)
	t.Cleanup(a.close)
	var lines []string
	for i := range 12 {
		lines = append(lines, fmt.Sprintf("agent line %02d, long enough to be cut at a small width", i))
	}
	a.term.Write([]byte(strings.Join(lines, "\r\n")))
	var m tea.Model = newModel(f, a, NewStyles(th), defaultKeyMap(), "ask", true, claude.DefaultBlockCap)
	resize := func(w, h int) string {
		t.Helper()
		m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
		select {
		case sz := <-a.resizes: // what the resizer would apply
			a.applySize(sz[0], sz[1])
		default:
		}
		return ansi.Strip(m.(model).render())
	}
	resize(100, 30)
	if scr := resize(20, 5); !strings.Contains(scr, "terminal too small") {
		t.Fatalf("at 20×5:\n%s", scr)
	}
	scr := resize(100, 30)
	for _, l := range lines {
		if !strings.Contains(scr, l) {
			t.Errorf("grown back, the pane lacks %q:\n%s", l, scr)
		}
	}
}

// An emptied reason is not sent: the checks' reason would go in its place, which the person
// just cleared away, and a continuation with no reason tells the agent nothing. The banner
// says so and names the way out; the question stays open; typing a reason sends it.
func TestEmptyReasonIsNotSent(t *testing.T) {
	m, f, _ := newTestModel(t, "dark")
	fm := run(t, m, f, 160, 44, press(']', tea.ModCtrl, ""), press('e', 0, "e"), press('l', tea.ModCtrl, ""), press(' ', 0, " "),
		press(tea.KeyEnter, 0, ""))
	if got := f.answers(); len(got) != 0 {
		t.Fatalf("an empty reason was sent: %q", got)
	}
	out := ansi.Strip(fm.render())
	banner := strings.Join(strings.Split(out, "\n")[1:fm.lay.agent.y], "\n")
	if !fm.editor.open || !strings.Contains(banner, "the reason is empty: type one, or ctrl+c to cancel") || !strings.Contains(banner, "enter send") {
		t.Fatalf("editing %v; the banner does not say the reason is empty, or lost its hints:\n%s", fm.editor.open, banner)
	}
	var next tea.Model = fm
	for _, r := range "mine" {
		next, _ = next.Update(press(r, 0, string(r)))
	}
	if banner := ansi.Strip(next.(model).render()); strings.Contains(banner, "the reason is empty") {
		t.Errorf("still says the reason is empty after typing one:\n%s", banner)
	}
	if _, cmd := next.Update(press(tea.KeyEnter, 0, "")); cmd != nil {
		cmd()
	}
	if got := f.answers(); len(got) != 1 || got[0] != "block:mine" {
		t.Errorf("the answers %q, want the reason typed", got)
	}
}

// The banner never breaks a check's name, at its hyphen or anywhere: at every width the name is
// whole on one row.
func TestBannerKeepsACheckNameWhole(t *testing.T) {
	reason := "The check \"demo-tests\" failed (exit 1). Fix what it reports, then finish. Its output:\n--- FAIL: TestVerboseFlag (0.00s)\n    main_test.go:42: -v did not enable verbose output\nFAIL"
	m, _, _ := newTestModel(t, "mono")
	m.now = t0
	next, _ := m.Update(eventMsg{ev: session.QuestionAsked{At: session.At{Time: t0}, Question: session.Question{
		ID: 1, Event: "Stop", Proposal: hooks.Block, Source: "check:demo-tests", Reason: reason, Asked: t0, Deadline: t0.Add(5 * time.Minute)}}})
	for w := 30; w <= 200; w++ {
		sized, _ := next.Update(tea.WindowSizeMsg{Width: w, Height: 40})
		fm := sized.(model)
		rows := strings.Split(ansi.Strip(fm.render()), "\n")[1:fm.lay.agent.y]
		banner := strings.Join(rows, "\n")
		if !strings.Contains(banner, `"demo-tests"`) {
			t.Errorf("%d columns: the check's name is broken:\n%s", w, banner)
		}
	}
}

// Where the checks pane is hidden and the banner has room for a row or two of what failed, it
// quotes the failing test's first message, as the reason does, not the runner's last word
// ("FAIL"): on one row the message, on two the test's name and the message. So too when the
// reason quotes what failed read from a long output.
func TestBannerQuotesTheFirstFailure(t *testing.T) {
	short := "The check \"demo-tests\" failed (exit 1). Fix what it reports, then finish. Its output:\n=== RUN   TestVerboseFlag\n--- FAIL: TestVerboseFlag (0.00s)\n    main_test.go:42: -v did not enable verbose output\nFAIL"
	long := "The check \"tests\" (`go test ./...`) failed (exit 1). Fix what it reports, then finish. What failed (go test), from its 90 lines of output:\n--- FAIL: TestVerboseFlag (0.00s)\n    main_test.go:42: -v did not enable verbose output\n--- FAIL: TestQuiet (0.00s)\n    main_test.go:50: -q printed 3 lines\nFAIL\nFAIL\texample.com/cli\t0.01s"
	for _, c := range []struct {
		reason string
		w, h   int
		want   []string
	}{
		{short, 58, 18, []string{"main_test.go:42: -v did not enable verbose output"}},
		{short, 58, 21, []string{"--- FAIL: TestVerboseFlag (0.00s)", "main_test.go:42: -v did not enable verbose output"}},
		{long, 58, 18, []string{"main_test.go:42: -v did not enable verbose output"}},
		{long, 58, 21, []string{"--- FAIL: TestVerboseFlag (0.00s)", "main_test.go:42: -v did not enable verbose output"}},
	} {
		m, _, _ := newTestModel(t, "mono")
		m.w, m.h, m.now = c.w, c.h, t0
		next, _ := m.Update(eventMsg{ev: session.QuestionAsked{At: session.At{Time: t0}, Question: session.Question{
			ID: 1, Event: "Stop", Proposal: hooks.Block, Source: "check:tests", Reason: c.reason, Asked: t0, Deadline: t0.Add(5 * time.Minute)}}})
		fm := next.(model)
		rows := strings.Split(ansi.Strip(fm.render()), "\n")[1:fm.lay.agent.y]
		var detail []string
		for _, r := range rows {
			// The detail rows: under the headline, before the hints.
			if strings.HasPrefix(r, "   ") && !strings.Contains(r, "failed (exit 1)") && !strings.Contains(r, "finish") && !strings.Contains(r, "output:") {
				detail = append(detail, strings.TrimSpace(r))
			}
		}
		if strings.Join(detail, "|") != strings.Join(c.want, "|") {
			t.Errorf("%d×%d: the banner quotes %q, want %q:\n%s", c.w, c.h, detail, c.want, strings.Join(rows, "\n"))
		}
	}
}
