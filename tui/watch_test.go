package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/themes"
)

// fakeHub is two sessions (hub.Sessions); it records the answers and counts the lists.
type fakeHub struct {
	lives   []hub.Live
	answers []string
	err     error
	lists   int
}

func (f *fakeHub) List() ([]hub.Live, error) { f.lists++; return f.lives, nil }
func (f *fakeHub) ListHost(host string) ([]hub.Live, error) {
	var out []hub.Live
	for _, l := range f.lives {
		if l.Host == host {
			out = append(out, l)
		}
	}
	return out, nil
}
func (f *fakeHub) Snapshot(l hub.Live) (hub.Snapshot, error) {
	return l.Snapshot, nil
}
func (f *fakeHub) Resolve(l hub.Live, id int, d hooks.Decision, reason string) error {
	where := l.Entry.ID
	if l.Host != "" {
		where = l.Host + ":" + where
	}
	f.answers = append(f.answers, where+" "+string(d)+" "+reason)
	return f.err
}
func (f *fakeHub) Events(hub.Live, func(hub.Event) bool) error { return nil }
func (f *fakeHub) Interrupt(l hub.Live) error {
	f.answers = append(f.answers, l.Entry.ID+" interrupt")
	return f.err
}

var watchNow = time.Date(2026, 11, 23, 16, 0, 0, 0, time.UTC)

func fakeSessions() *fakeHub {
	asked := watchNow.Add(-30 * time.Second)
	return &fakeHub{lives: []hub.Live{
		{Entry: hub.Entry{ID: "h1"}, Snapshot: hub.Snapshot{ID: "h1", SessionID: "1a2b3c4d-0000", Agent: "claude", Cwd: "/src/api",
			Mode: "ask", State: "stopping", StateSince: watchNow.Add(-42 * time.Second), Continuations: 2, Tokens: 12300,
			Pending: []hub.Question{{ID: 7, Event: "Stop", Proposal: "block", Source: "check:tests",
				Reason: "The check \"tests\" failed (exit 1). Its output:\n=== RUN   TestLogin\n--- FAIL: TestLogin (0.01s)\n\tlogin_test.go:9: got 500",
				Asked:  asked, Deadline: asked.Add(5 * time.Minute)}}}},
		{Entry: hub.Entry{ID: "h2"}, Snapshot: hub.Snapshot{ID: "h2", SessionID: "5e6f7a8b-0000", Agent: "codex", Cwd: "/src/web",
			Mode: "auto", State: "working", StateSince: watchNow.Add(-3 * time.Minute), Pending: []hub.Question{}}},
	}}
}

func newTestWatch(t testing.TB, f *fakeHub) *watchModel {
	t.Helper()
	mono, err := themes.Get(themes.Mono)
	if err != nil {
		t.Fatal(err)
	}
	m := newWatchModel(f, NewStyles(mono), defaultKeyMap())
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	lives, _ := f.List()
	m.Update(watchListed{lives: lives, at: watchNow})
	return m
}

func watchScreen(m *watchModel) string { return ansi.Strip(m.View().Content) }

func TestWatchViewShowsEverySession(t *testing.T) {
	m := newTestWatch(t, fakeSessions())
	m.Update(watchEvent{id: "h2", ev: hub.Event{Type: "VerdictDecided",
		Data: []byte(`{"Time":"2026-11-23T15:58:00Z","Verdict":{"time":"2026-11-23T15:58:00Z","decision":"allow","source":"manual (hooksup approve)","reason":"done"}}`)}})
	scr := watchScreen(m)
	for _, want := range []string{
		"hooksup watch · 2 sessions · 1 waiting on you",
		"▸ api · claude · 1a2b3c4d",
		"stopping 42s · continued 2 · 12.3k tokens · ask mode",
		"⚑ Stop · the checks say continue (check tests) · 4:30 left",
		"   The check \"tests\" failed (exit 1).",
		"     === RUN   TestLogin",
		"     --- FAIL: TestLogin (0.01s)",
		"     login_test.go:9: got 500",
		"  web · codex · 5e6f7a8b",
		"working 3m · continued 0 · 0 tokens · auto mode",
		"let stop by you (hooksup approve) · done",
		"a continue · d let it stop · e edit reason · x halt · esc interrupt · ↑/k/↓/j select · q quit",
	} {
		if !strings.Contains(scr, want) {
			t.Errorf("the watch lacks %q:\n%s", want, scr)
		}
	}
	if n := len(strings.Split(scr, "\n")); n != 20 {
		t.Errorf("%d rows, want the screen's 20", n)
	}
	// Narrow: the hints wrap; none is cut.
	m.Update(tea.WindowSizeMsg{Width: 50, Height: 20})
	scr = watchScreen(m)
	for _, want := range []string{"x halt", "esc interrupt", "q quit"} {
		if !strings.Contains(scr, want) {
			t.Errorf("at 50 columns the hints lack %q:\n%s", want, scr)
		}
	}
}

// The rows the boxes leave show the end of each question's check output, shared between the
// questions a row at a time; with no rows left, the questions and the keys still show.
func TestWatchShowsTheChecksOutputAsItFits(t *testing.T) {
	f := fakeSessions()
	asked := watchNow.Add(-time.Minute)
	reason := "The check \"tests\" failed (exit 1). Its output:"
	for i := 1; i <= 9; i++ {
		reason += fmt.Sprintf("\nline %d", i)
	}
	f.lives[1].Snapshot.Pending = []hub.Question{{ID: 3, Event: "Stop", Proposal: "block", Source: "check:tests",
		Reason: reason, Asked: asked, Deadline: asked.Add(5 * time.Minute)}}
	m := newTestWatch(t, f)
	for _, c := range []struct {
		h      int
		shown  []string
		hidden []string
	}{
		// 1 title, two boxes of 5, 1 row of hints: 12 rows, and 8 more for the output. The first
		// question's has 3 lines; the second shows the last 5 of its 9.
		{20, []string{"got 500", "=== RUN   TestLogin", "line 5", "line 9"}, []string{"line 4"}},
		{12, nil, []string{"got 500", "line 9"}},
	} {
		m.Update(tea.WindowSizeMsg{Width: 100, Height: c.h})
		scr := watchScreen(m)
		for _, want := range c.shown {
			if !strings.Contains(scr, want) {
				t.Errorf("%d rows: the watch lacks %q:\n%s", c.h, want, scr)
			}
		}
		for _, not := range c.hidden {
			if strings.Contains(scr, not) {
				t.Errorf("%d rows: the watch shows %q:\n%s", c.h, not, scr)
			}
		}
		if strings.Count(scr, "⚑ Stop · the checks say continue (check tests)") != 2 || !strings.Contains(scr, "a continue · d let it stop") {
			t.Errorf("%d rows: the questions or the keys are missing:\n%s", c.h, scr)
		}
		if n := len(strings.Split(scr, "\n")); n != c.h {
			t.Errorf("%d rows drawn on a screen of %d", n, c.h)
		}
	}
}

// A check's output is text to the watch: its escape sequences and control characters never
// reach the terminal, in a question's reason or a verdict's. The output's lines are plain text;
// a reason's first line, hooksup's heading quoting the check's command, shows its controls.
func TestWatchDrawsNoControlsFromChecks(t *testing.T) {
	f := fakeSessions()
	hostile := "The check \"tests\" failed \x1b]0;PWNED\x07(exit 1). Its output:\nbell\x07 rings\n\x1b[2Jcleared\na\ttab\n" +
		"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ END\n\u009b2Jc1\nwritten over\rback"
	f.lives[0].Snapshot.Pending[0].Reason = hostile
	m := newTestWatch(t, f)
	m.Update(watchEvent{id: "h2", ev: hub.Event{Type: "VerdictDecided",
		Data: []byte(`{"Verdict":{"time":"2026-11-23T15:58:00Z","decision":"block","source":"check:tests","reason":"\u001b]0;PWNED\u0007bad\u0008d"}}`)}})
	raw := m.View().Content
	for _, bad := range []string{"\x1b]", "\x07", "\x1b[2J", "\x9b", "\t", "\r", "\b"} {
		if strings.Contains(raw, bad) {
			t.Errorf("the watch draws %q:\n%q", bad, raw)
		}
	}
	scr := watchScreen(m)
	for _, want := range []string{`The check "tests" failed \e]0;PWNED\a(exit 1).`, `│     bell\a rings `, "│     cleared ", "│     a    tab ",
		"│     link END ", "│     <U+009B>2Jc1 ", `│     written over\rback `, `· \e]0;PWNED\abad\bd`} {
		if !strings.Contains(scr, want) {
			t.Errorf("the watch lacks %q:\n%s", want, scr)
		}
	}
}

func runCmd(t *testing.T, m *watchModel, cmd tea.Cmd) {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command")
	}
	m.Update(cmd())
}

// The selected session's oldest question is answered with the session TUI's keys (the
// prefix before them is accepted too); the other session is never answered.
func TestWatchKeysAnswerTheSelectedSession(t *testing.T) {
	f := fakeSessions()
	m := newTestWatch(t, f)
	_, cmd := m.Update(press('a', 0, "a"))
	runCmd(t, m, cmd)
	if len(f.answers) != 1 || f.answers[0] != "h1 block " {
		t.Fatalf("answers %q", f.answers)
	}
	if scr := watchScreen(m); !strings.Contains(scr, "the agent continues after Stop in api 1a2b3c4d") {
		t.Errorf("no word of the answer:\n%s", scr)
	}
	m.Update(press(']', tea.ModCtrl, ""))
	_, cmd = m.Update(press('x', 0, "x"))
	runCmd(t, m, cmd)
	if len(f.answers) != 2 || f.answers[1] != "h1 halt " {
		t.Fatalf("answers %q", f.answers)
	}

	// The edit key opens the reason editor on the question's reason; its send key approves.
	m.Update(press('e', 0, "e"))
	if !m.editor.open || !strings.Contains(watchScreen(m), "the reason the agent will read") {
		t.Fatalf("no editor:\n%s", watchScreen(m))
	}
	m.editor.area.SetValue("do it again")
	_, cmd = m.Update(press(tea.KeyEnter, 0, ""))
	runCmd(t, m, cmd)
	if len(f.answers) != 3 || f.answers[2] != "h1 block do it again" {
		t.Fatalf("answers %q", f.answers)
	}

	// The second session has nothing pending: nothing is answered.
	m.Update(press(tea.KeyDown, 0, ""))
	if _, cmd = m.Update(press('d', 0, "d")); cmd != nil {
		t.Fatal("an answer for a session with no question")
	}
	if scr := watchScreen(m); !strings.Contains(scr, "▸ web") || !strings.Contains(scr, "has no pending question") {
		t.Errorf("after down and deny:\n%s", scr)
	}

	// A question answered elsewhere first.
	m.Update(press(tea.KeyUp, 0, ""))
	f.err = hub.ErrAnswered
	_, cmd = m.Update(press('d', 0, "d"))
	runCmd(t, m, cmd)
	if scr := watchScreen(m); !strings.Contains(scr, "the question in api 1a2b3c4d was already answered") {
		t.Errorf("after a lost race:\n%s", scr)
	}
}

// Idle, the watch ticks every 2 s (to see sessions come and go); with a countdown, every second,
// and the list is still read every 2 s.
func TestWatchTicksSlowlyWhenIdle(t *testing.T) {
	f := fakeSessions()
	m := newTestWatch(t, f)
	if d := m.interval(); d != time.Second {
		t.Errorf("with a question pending: every %v", d)
	}
	f.lives[0].Snapshot.Pending = nil
	m.Update(watchListed{lives: f.lives, at: watchNow})
	if d := m.interval(); d != 2*time.Second {
		t.Errorf("idle: every %v", d)
	}

	// The countdown's tick redraws; the list is read again only every 2 s.
	f.lives[0].Snapshot.Pending = fakeSessions().lives[0].Snapshot.Pending
	m.Update(watchListed{lives: f.lives, at: watchNow})
	lists := f.lists
	m.Update(watchTick(watchNow.Add(time.Second)))
	if !m.ticking || f.lists != lists || !m.now.Equal(watchNow.Add(time.Second)) {
		t.Fatalf("a second after the list: ticking %v, lists %d (was %d), now %v", m.ticking, f.lists, lists, m.now)
	}
	_, cmd := m.Update(watchTick(watchNow.Add(2 * time.Second)))
	runCmd(t, m, cmd)
	if f.lists != lists+1 {
		t.Fatalf("2 s after the list: %d lists, want %d", f.lists, lists+1)
	}

	m.Update(watchListed{err: errors.New("no runtime dir"), at: watchNow})
	if !strings.Contains(watchScreen(m), "no runtime dir") {
		t.Errorf("the list's error is not shown:\n%s", watchScreen(m))
	}
}

// More sessions than the screen holds: the selected one is always shown, and the editor's
// cursor is on the editor's row.
func TestWatchKeepsTheSelectedSessionOnScreen(t *testing.T) {
	f := fakeSessions()
	for i := range 6 {
		l := f.lives[1]
		l.Entry.ID = fmt.Sprintf("more%d", i)
		l.Snapshot.Cwd = fmt.Sprintf("/src/proj%d", i)
		f.lives = append(f.lives, l)
	}
	f.lives[0].Snapshot.Pending[0].Reason = "FAIL: TestLogin\nmore"
	m := newTestWatch(t, f)
	for range 7 {
		m.Update(press(tea.KeyDown, 0, ""))
	}
	scr := watchScreen(m)
	if !strings.Contains(scr, "▸ proj5 · codex") || !strings.Contains(scr, "above") {
		t.Fatalf("the selected session is not shown:\n%s", scr)
	}
	for range 7 {
		m.Update(press(tea.KeyUp, 0, ""))
	}
	m.Update(press('e', 0, "e"))
	v := m.View()
	lines := strings.Split(ansi.Strip(v.Content), "\n")
	// On the row below the reason's last line, " › more", where typed text starts.
	if v.Cursor == nil || v.Cursor.Position.Y < 1 || strings.TrimRight(lines[v.Cursor.Position.Y], " ") != " ›" ||
		strings.TrimRight(lines[v.Cursor.Position.Y-1], " ") != " › more" || v.Cursor.Position.X != 3 {
		t.Fatalf("the cursor is not on the editor (%+v):\n%s", v.Cursor, ansi.Strip(v.Content))
	}
}

// Events that come while a snapshot is asked for are taken together by one more snapshot.
func TestWatchAsksOneSnapshotAtATime(t *testing.T) {
	m := newTestWatch(t, fakeSessions())
	ev := watchEvent{id: "h1", ev: hub.Event{Type: "TranscriptUpdated"}}
	first := m.event(ev)
	if first == nil {
		t.Fatal("no snapshot asked for")
	}
	for range 5 {
		if cmd := m.event(ev); cmd != nil {
			t.Fatal("a second snapshot asked for while one is")
		}
	}
	_, cmd := m.Update(first())
	if cmd == nil || !m.find("h1").asking {
		t.Fatal("the events meanwhile asked for no new snapshot")
	}
}

// Escape is the session TUI's Escape for the selected session, wherever it is pressed: it
// interrupts its turn (never another session's), over the editor and after the prefix; a
// session at rest is not asked.
func TestWatchEscapeInterruptsTheSelectedSession(t *testing.T) {
	f := fakeSessions()
	m := newTestWatch(t, f)
	esc := press(tea.KeyEscape, 0, "")
	_, cmd := m.Update(esc)
	runCmd(t, m, cmd)
	if len(f.answers) != 1 || f.answers[0] != "h1 interrupt" {
		t.Fatalf("answers %q", f.answers)
	}
	if scr := watchScreen(m); !strings.Contains(scr, "interrupted the turn in api 1a2b3c4d: it may stop") {
		t.Errorf("no word of the interrupt:\n%s", scr)
	}

	// Over the reason editor: the edit is dropped, nothing is approved.
	m.Update(press('e', 0, "e"))
	if !m.editor.open {
		t.Fatal("no editor")
	}
	_, cmd = m.Update(esc)
	runCmd(t, m, cmd)
	if m.editor.open || strings.Contains(watchScreen(m), "the reason the agent will read") {
		t.Errorf("the editor stays open after Escape:\n%s", watchScreen(m))
	}
	if len(f.answers) != 2 || f.answers[1] != "h1 interrupt" {
		t.Fatalf("answers %q", f.answers)
	}

	// After the prefix, and on the second session (working, nothing pending).
	m.Update(press(tea.KeyDown, 0, ""))
	m.Update(press(']', tea.ModCtrl, ""))
	_, cmd = m.Update(esc)
	runCmd(t, m, cmd)
	if len(f.answers) != 3 || f.answers[2] != "h2 interrupt" {
		t.Fatalf("answers %q", f.answers)
	}
	if m.prefixed {
		t.Error("the prefix is still pending after Escape")
	}

	// At rest with nothing pending: nothing to interrupt, and the session is not asked.
	f.lives[1].Snapshot.State = "waiting for input"
	m.Update(watchListed{lives: f.lives, at: watchNow})
	if _, cmd = m.Update(esc); cmd != nil {
		t.Fatal("an interrupt for a session at rest")
	}
	if scr := watchScreen(m); !strings.Contains(scr, "nothing to interrupt: web 5e6f7a8b is waiting for input") {
		t.Errorf("at rest:\n%s", scr)
	}

	// The session's socket fails: said, as for an answer.
	m.Update(press(tea.KeyUp, 0, ""))
	f.err = errors.New("connection refused")
	_, cmd = m.Update(esc)
	runCmd(t, m, cmd)
	if scr := watchScreen(m); !strings.Contains(scr, "api 1a2b3c4d: connection refused") {
		t.Errorf("after a failed interrupt:\n%s", scr)
	}
}

// A session that speaks another hub protocol is shown with what its registration says and,
// marked, why nothing more: the versions and what to do. Keys on it say the same and ask
// nothing; no event stream is opened to it.
func TestWatchMarksASessionOfAnotherProtocol(t *testing.T) {
	f := fakeSessions()
	verr := &hub.VersionError{Ours: hub.Protocol, Theirs: hub.Protocol + 1, PID: 4242, Hooksup: "v9.1.0"}
	f.lives = append(f.lives, hub.Live{Entry: hub.Entry{ID: "9f8e7d6c5b4a"},
		Snapshot: hub.Snapshot{ID: "9f8e7d6c5b4a", Agent: "claude", Cwd: "/src/next", Mode: "ask", Pending: []hub.Question{}}, Err: verr})
	m := newTestWatch(t, f)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	scr := watchScreen(m)
	// The box's text, its rows joined as the words run.
	flat := strings.Join(strings.Fields(strings.ReplaceAll(scr, "│", "")), " ")
	for _, want := range []string{
		"hooksup watch · 3 sessions · 1 waiting on you",
		"next · claude · 9f8e7d6c ─",
		"⚠ this hooksup speaks hub protocol 1, the session's (pid 4242, started by hooksup v9.1.0) speaks 2: " +
			"upgrade this hooksup, or reach that session with the hooksup that started it ╰",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the watch lacks %q:\n%s", want, scr)
		}
	}
	if _, box, _ := strings.Cut(scr, "next · claude"); strings.Contains(box, "continued") {
		t.Errorf("the session of another protocol shows counts it never said:\n%s", scr)
	}
	if m.find("9f8e7d6c5b4a").stream {
		t.Error("an event stream was opened to a session of another protocol")
	}
	m.Update(press(tea.KeyDown, 0, ""))
	m.Update(press(tea.KeyDown, 0, ""))
	for _, k := range []tea.KeyPressMsg{press('a', 0, "a"), press(tea.KeyEscape, 0, "")} {
		if _, cmd := m.Update(k); cmd != nil {
			t.Fatalf("%s on a session of another protocol asks it", k)
		}
		if scr := watchScreen(m); !strings.Contains(scr, "next 9f8e7d6c: this hooksup speaks hub protocol 1") {
			t.Errorf("after %s:\n%s", k, scr)
		}
	}
	if len(f.answers) != 0 {
		t.Errorf("answers %q", f.answers)
	}
}

// Sessions on other machines show their host in their box's title, each apart even when two
// hosts list the same id (one machine reached by two names); a host without a connection is
// a box of its own saying why; an answer goes to the session's own host.
func TestWatchShowsEachHost(t *testing.T) {
	f := fakeSessions()
	remote := f.lives[0]
	remote.Host = "devbox"
	remote.Snapshot.Cwd = "/home/me/api"
	remote.Snapshot.Pending = []hub.Question{}
	again := remote
	again.Host = "devbox.lan"
	again.Snapshot.Pending = append([]hub.Question{}, f.lives[0].Snapshot.Pending...)
	card := hub.Live{Entry: hub.Entry{ID: "host gpu-1"}, Snapshot: hub.Snapshot{ID: "host gpu-1", Pending: []hub.Question{}}, Host: "gpu-1",
		Err: errors.New("disconnected: unreachable (ssh: connect to host gpu-1 port 22: Connection refused); trying again in 4s")}
	f.lives = append(f.lives, remote, again, card)
	m := newTestWatch(t, f)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	scr := watchScreen(m)
	flat := strings.Join(strings.Fields(strings.ReplaceAll(scr, "│", "")), " ")
	for _, want := range []string{
		"hooksup watch · 5 sessions",
		"▸ api · claude · 1a2b3c4d",
		"devbox · api · claude · 1a2b3c4d",
		"devbox.lan · api · claude · 1a2b3c4d",
		"gpu-1 ─",
		"⚠ disconnected: unreachable (ssh: connect to host gpu-1 port 22: Connection refused); trying again in 4s",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the watch lacks %q:\n%s", want, scr)
		}
	}
	// Down to the second name's session, whose question is pending: the answer goes there.
	for range 3 {
		m.Update(press(tea.KeyDown, 0, ""))
	}
	if scr := watchScreen(m); !strings.Contains(scr, "▸ devbox.lan · api") {
		t.Fatalf("three down from the first:\n%s", scr)
	}
	_, cmd := m.Update(press('a', 0, "a"))
	runCmd(t, m, cmd)
	if len(f.answers) != 1 || f.answers[0] != "devbox.lan:h1 block " {
		t.Fatalf("answers %q", f.answers)
	}
}

// The reason editor follows the terminal's size: after each resize it shows the cursor on the
// row it writes to, and as much of the reason above it as fits; the whole reason when it fits.
func TestWatchEditorScrollsWithAResize(t *testing.T) {
	f := fakeSessions()
	var lines []string
	for i := range 14 {
		lines = append(lines, fmt.Sprintf("reason line %02d with a few words to wrap at narrow widths", i))
	}
	f.lives[0].Snapshot.Pending[0].Reason = strings.Join(lines, "\n")
	m := newTestWatch(t, f)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	m.Update(press('e', 0, "e"))
	for _, size := range []struct {
		w, h int
		fits bool // the whole reason fits in the editor
	}{{100, 40, false}, {50, 40, false}, {100, 60, true}, {100, 20, false}, {50, 60, false}, {120, 64, true}} {
		m.Update(tea.WindowSizeMsg{Width: size.w, Height: size.h})
		v := m.View()
		scr := strings.Split(ansi.Strip(v.Content), "\n")
		title, hints := -1, -1
		for i, l := range scr {
			switch {
			case strings.HasPrefix(l, " the reason the agent will read:"):
				title = i
			case strings.HasPrefix(l, " enter send") && hints < 0 && title >= 0:
				hints = i
			}
		}
		if title < 0 || hints < 0 || v.Cursor == nil {
			t.Fatalf("%dx%d: no editor, or no cursor:\n%s", size.w, size.h, strings.Join(scr, "\n"))
		}
		rows := scr[title+1 : hints]
		editor := strings.Join(rows, "\n")
		if y := v.Cursor.Position.Y; y <= title || y >= hints || strings.TrimSpace(scr[y]) != "›" {
			t.Errorf("%dx%d: the cursor is on row %d, not on the editor's empty row:\n%s", size.w, size.h, y, strings.Join(scr, "\n"))
		}
		if !strings.Contains(editor, "reason line 13") || strings.TrimSpace(rows[len(rows)-1]) != "›" {
			t.Errorf("%dx%d: the editor does not end on the reason's last line and the row to write in:\n%s", size.w, size.h, editor)
		}
		for _, l := range lines {
			if size.fits && !strings.Contains(editor, l) {
				t.Errorf("%dx%d: the whole reason fits, but the editor lacks %q:\n%s", size.w, size.h, l, editor)
			}
		}
	}
}

// In watch too, an emptied reason is not sent: the screen says so and the editor stays open.
func TestWatchEmptyReasonIsNotSent(t *testing.T) {
	f := fakeSessions()
	m := newTestWatch(t, f)
	m.Update(press('e', 0, "e"))
	m.Update(press('l', tea.ModCtrl, ""))
	if _, cmd := m.Update(press(tea.KeyEnter, 0, "")); cmd != nil {
		runCmd(t, m, cmd)
	}
	scr := watchScreen(m)
	if len(f.answers) != 0 || !m.editor.open || !strings.Contains(scr, "⚠ the reason is empty: type one, or ctrl+c to cancel") {
		t.Fatalf("answers %q, editing %v:\n%s", f.answers, m.editor.open, scr)
	}
	if y := m.View().Cursor.Position.Y; strings.TrimSpace(strings.Split(scr, "\n")[y]) != "›" {
		t.Errorf("the cursor is not on the editor's row (%d):\n%s", y, scr)
	}
}

// permissionSessions is one session whose agent asks to run a command: always when offer is
// its rule (its words quote the command, an escape among them).
func permissionSessions(offer string) *fakeHub {
	return &fakeHub{lives: []hub.Live{
		{Entry: hub.Entry{ID: "h3"}, Snapshot: hub.Snapshot{ID: "h3", SessionID: "9c8d7e6f-0000", Agent: "codex", Cwd: "/src/cli",
			Mode: "auto", State: "permission", StateSince: watchNow.Add(-5 * time.Second),
			Pending: []hub.Question{{ID: 4, Event: "PermissionRequest", Asked: watchNow.Add(-5 * time.Second),
				Permission: &session.Permission{Tool: "Bash", Command: "rm -rf ../build-cache", Always: offer}}}}},
	}}
}

// The always key answers a permission always, as its agent offers it: the first press shows the
// rule and asks again, the second answers; any other key keeps the question.
func TestWatchAlwaysAsksTwice(t *testing.T) {
	f := permissionSessions("commands that start with `rm -rf \x1b[31m../build-cache`")
	m := newTestWatch(t, f)
	shift := press('a', tea.ModShift, "A")
	scr := watchScreen(m)
	if !strings.Contains(scr, "A always…") || !strings.Contains(scr, "always allows it from now on") {
		t.Fatalf("no always offered:\n%s", scr)
	}
	if _, cmd := m.Update(shift); cmd != nil {
		t.Fatal("the first press answered")
	}
	scr = watchScreen(m)
	if !strings.Contains(scr, "A again allows Bash from now on, any other key cancels: commands that start with `rm -rf") ||
		!strings.Contains(scr, "\\e[31m../build-cache`") {
		t.Fatalf("the first press does not show the rule:\n%s", scr)
	}
	if strings.Contains(m.View().Content, "\x1b[31m../") {
		t.Fatal("the agent's words reach the terminal as they are")
	}
	// Another key cancels, and does nothing else.
	if _, cmd := m.Update(press('a', 0, "a")); cmd != nil || len(f.answers) != 0 {
		t.Fatalf("a key after the first press answered: %q", f.answers)
	}
	if scr := watchScreen(m); !strings.Contains(scr, "always not sent: the permission still waits") {
		t.Fatalf("no word of the cancel:\n%s", scr)
	}
	m.Update(shift)
	m.Update(press(']', tea.ModCtrl, "")) // the prefix before the second press is accepted
	_, cmd := m.Update(shift)
	runCmd(t, m, cmd)
	if len(f.answers) != 1 || f.answers[0] != "h3 always " {
		t.Fatalf("answers %q", f.answers)
	}
	if scr := watchScreen(m); !strings.Contains(scr, "always allowed Bash in cli 9c8d7e6f") {
		t.Errorf("no word of the answer:\n%s", scr)
	}
}

// Where the agent offers no always, the key says so and its hint is not shown.
func TestWatchAlwaysWhereNoneIsOffered(t *testing.T) {
	f := permissionSessions("")
	m := newTestWatch(t, f)
	if scr := watchScreen(m); strings.Contains(scr, "always") {
		t.Fatalf("always offered:\n%s", scr)
	}
	if _, cmd := m.Update(press('a', tea.ModShift, "A")); cmd != nil {
		t.Fatal("answered")
	}
	if scr := watchScreen(m); !strings.Contains(scr, "codex offers no always here: approve allows Bash once") {
		t.Fatalf("no word of why:\n%s", scr)
	}
	// A stop's question has no always either.
	m = newTestWatch(t, fakeSessions())
	m.Update(press('a', tea.ModShift, "A"))
	if scr := watchScreen(m); strings.Contains(scr, "A always…") || !strings.Contains(scr, "always answers a permission") {
		t.Fatalf("always at a stop:\n%s", scr)
	}
}

// A first press is forgotten when its permission is answered elsewhere: a later press asks again.
func TestWatchAlwaysForgetsAnAnsweredPermission(t *testing.T) {
	f := permissionSessions("commands that start with `rm`")
	m := newTestWatch(t, f)
	m.Update(press('a', tea.ModShift, "A"))
	answered := f.lives[0]
	answered.Snapshot.Pending = nil
	m.Update(watchListed{lives: []hub.Live{answered}, at: watchNow})
	if scr := watchScreen(m); strings.Contains(scr, "again allows") {
		t.Fatalf("still asks to press again:\n%s", scr)
	}
	m.Update(watchListed{lives: f.lives, at: watchNow})
	if _, cmd := m.Update(press('a', tea.ModShift, "A")); cmd != nil || len(f.answers) != 0 {
		t.Fatal("a single press answered")
	}
}

// The always key is rebindable like the others.
func TestWatchAlwaysRebound(t *testing.T) {
	km, err := keymap.Resolve("", map[string]string{keymap.Always: "L"})
	if err != nil {
		t.Fatal(err)
	}
	f := permissionSessions("commands that start with `rm`")
	m := newTestWatch(t, f)
	m.keys = newKeyMap(km)
	if scr := watchScreen(m); !strings.Contains(scr, "L always…") {
		t.Fatalf("the hint is not the bound key:\n%s", scr)
	}
	m.Update(press('l', tea.ModShift, "L"))
	_, cmd := m.Update(press('l', tea.ModShift, "L"))
	runCmd(t, m, cmd)
	if len(f.answers) != 1 || f.answers[0] != "h3 always " {
		t.Fatalf("answers %q", f.answers)
	}
}

// Where a deny's reason reaches the model, the edit key opens the editor for it: what is typed
// is sent with the deny, to the question it was opened on; where it does not, the key says so.
func TestWatchPermissionDeniedWithAReason(t *testing.T) {
	f := permissionSessions("")
	f.lives[0].Snapshot.Agent = "copilot"
	f.lives[0].Snapshot.Pending[0].Permission.DenyReason = true
	m := newTestWatch(t, f)
	if scr := watchScreen(m); !strings.Contains(scr, "deny refuses it, edit says why") {
		t.Fatalf("the question does not say the reason is taken:\n%s", scr)
	}
	m.Update(press('e', 0, "e"))
	if scr := watchScreen(m); !m.editor.open || !strings.Contains(scr, "why it is refused, as the agent will read it:") {
		t.Fatalf("no editor for the refusal:\n%s", scr)
	}
	// Sent empty, nothing is answered.
	if _, cmd := m.Update(press(tea.KeyEnter, 0, "")); cmd != nil || len(f.answers) != 0 {
		t.Fatalf("an empty refusal was sent: %q", f.answers)
	}
	for _, r := range "use a temp dir" {
		m.Update(press(r, 0, string(r)))
	}
	_, cmd := m.Update(press(tea.KeyEnter, 0, ""))
	runCmd(t, m, cmd)
	if len(f.answers) != 1 || f.answers[0] != "h3 deny use a temp dir" {
		t.Fatalf("answers %q", f.answers)
	}
	if scr := watchScreen(m); m.editor.open || !strings.Contains(scr, "denied Bash with your reason in cli 9c8d7e6f") {
		t.Fatalf("editing %v:\n%s", m.editor.open, scr)
	}

	// An agent whose dialog takes no reason: the key says so, and opens nothing.
	f = permissionSessions("")
	m = newTestWatch(t, f)
	if _, cmd := m.Update(press('e', 0, "e")); cmd != nil || m.editor.open {
		t.Fatal("an editor opened where the reason reaches no one")
	}
	if scr := watchScreen(m); !strings.Contains(scr, "codex's dialog takes no reason: d denies Bash without one") {
		t.Fatalf("no word of why:\n%s", scr)
	}
}

// An editor whose question is answered elsewhere, and another asked, closes: what it holds is
// never sent to the other question.
func TestWatchEditorClosesWhenItsQuestionGoes(t *testing.T) {
	f := permissionSessions("")
	f.lives[0].Snapshot.Pending[0].Permission.DenyReason = true
	m := newTestWatch(t, f)
	m.Update(press('e', 0, "e"))
	m.Update(press('x', 0, "x"))
	next := f.lives[0]
	next.Snapshot.Pending = []hub.Question{{ID: 5, Event: "PermissionRequest", Asked: watchNow,
		Permission: &session.Permission{Tool: "Bash", Command: "rm -rf /", DenyReason: true}}}
	m.Update(watchListed{lives: []hub.Live{next}, at: watchNow})
	if _, cmd := m.Update(press(tea.KeyEnter, 0, "")); cmd != nil {
		runCmd(t, m, cmd)
	}
	if len(f.answers) != 0 {
		t.Fatalf("the reason went to another question: %q", f.answers)
	}
	if scr := watchScreen(m); m.editor.open || !strings.Contains(scr, "the question was answered elsewhere: your reason was not sent") {
		t.Fatalf("editing %v:\n%s", m.editor.open, scr)
	}
}
