package supervisor

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/agent/codex"
	"github.com/hooksup/hooksup/agent/copilot"
	"github.com/hooksup/hooksup/agent/gemini"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// fakeScreen is the agent's screen as a front end would give it: the test sets what it shows,
// and onPress decides what a key does to it.
type fakeScreen struct {
	mu      sync.Mutex
	text    string
	changed chan struct{}
	pressed []string
	times   []time.Time
	onPress func(key string) (string, bool) // the screen after the key; false: unchanged
}

func newFakeScreen(text string) *fakeScreen {
	return &fakeScreen{text: text, changed: make(chan struct{}, 1)}
}

func (f *fakeScreen) Text() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.text
}

func (f *fakeScreen) Changed() <-chan struct{} { return f.changed }

func (f *fakeScreen) show(text string) {
	f.mu.Lock()
	f.text = text
	f.mu.Unlock()
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

func (f *fakeScreen) Press(keys ...string) bool {
	for _, k := range keys {
		f.mu.Lock()
		f.pressed = append(f.pressed, k)
		f.times = append(f.times, time.Now())
		on := f.onPress
		f.mu.Unlock()
		if on != nil {
			if next, ok := on(k); ok {
				f.show(next)
			}
		}
	}
	return true
}

func (f *fakeScreen) keys() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.pressed)
}

// claudeScreen is claude 2.1.330's screen as captured (agent/claude/testdata).
func claudeScreen(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../agent/claude/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func waitKeyQuestion(t *testing.T, ss *stormSession, command string) session.Question {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		for _, q := range ss.sup.Pending() {
			if q.Permission != nil && q.Permission.Command == command {
				return q
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no question for %q: %+v", command, ss.sup.Pending())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

const claudeAutoCommand = "rm -rf SCRATCH/runs/b330/a-notice-enter/victim"

// Allowed from elsewhere: the selection moves to Yes, then Enter, the first key no sooner than
// keySettle after the dialog was read; Enter dropped once (as claude drops keys) is pressed again.
func TestKeyPermissionAllowed(t *testing.T) {
	ss := startStorm(t)
	ss.sup.o.Interactive = true
	defer ss.stop(t)
	dialog := claudeScreen(t, "claude-auto-fallback-dialog.txt")
	yes := strings.Replace(strings.Replace(dialog, " ❯ No", "   No", 1), "   Yes", " ❯ Yes", 1)
	sc := newFakeScreen("❯ \n")
	enters := 0
	sc.onPress = func(k string) (string, bool) {
		switch k {
		case "Down":
			return yes, true
		case "Enter":
			if enters++; enters == 1 {
				return "", false // dropped
			}
			return "● Running…\n", true
		}
		return "", false
	}
	defer ss.sup.AttachScreen(sc)()
	sc.show(dialog)
	q := waitKeyQuestion(t, ss, claudeAutoCommand)
	if q.Event != "PermissionRequest" || q.Permission.Tool != "Bash" || q.Permission.Always != "" {
		t.Fatalf("the question: %+v %+v", q, q.Permission)
	}
	asked := time.Now()
	if err := ss.sup.ResolveBy(q.ID, session.PermissionAllow, "", session.ManualSource("test")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the dialog answered", func() bool { return len(sc.keys()) == 3 })
	if got := sc.keys(); !slices.Equal(got, []string{"Down", "Enter", "Enter"}) {
		t.Fatalf("keys %v", got)
	}
	if first := sc.times[0]; first.Sub(q.Asked) < keySettle || first.Before(asked) {
		t.Fatalf("the first key %v after the dialog was read", first.Sub(q.Asked))
	}
	if len(ss.sup.Pending()) != 0 {
		t.Fatalf("still pending: %+v", ss.sup.Pending())
	}
}

// A claude slow to draw what a key did (a loaded machine): the selection's key is not pressed
// again while the screen has not caught up, as a second Down would move past Yes (the options
// wrap) and Enter answer No.
func TestKeyPermissionWaitsForTheSelectionToMove(t *testing.T) {
	ss := startStorm(t)
	ss.sup.o.Interactive = true
	defer ss.stop(t)
	dialog := claudeScreen(t, "claude-auto-fallback-dialog.txt")
	yes := strings.Replace(strings.Replace(dialog, " ❯ No", "   No", 1), "   Yes", " ❯ Yes", 1)
	sc := newFakeScreen("❯ \n")
	sc.onPress = func(k string) (string, bool) {
		switch k {
		case "Down":
			time.AfterFunc(4*keyStep, func() { sc.show(yes) })
		case "Enter":
			return "● Running…\n", true
		}
		return "", false
	}
	defer ss.sup.AttachScreen(sc)()
	sc.show(dialog)
	q := waitKeyQuestion(t, ss, claudeAutoCommand)
	if err := ss.sup.ResolveBy(q.ID, session.PermissionAllow, "", session.ManualSource("test")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the dialog answered", func() bool { return slices.Contains(sc.keys(), "Enter") })
	if got := sc.keys(); !slices.Equal(got, []string{"Down", "Enter"}) {
		t.Fatalf("keys %v: the selection's key pressed again before the screen showed the first", got)
	}
}

// A key never goes where the question's dialog is not: answered at the terminal (the prompt
// box is back) the question is withdrawn with no key pressed; another dialog in its place is
// another question, and the first one's answer presses nothing into it.
func TestKeyPermissionOnlyIntoItsDialog(t *testing.T) {
	ss := startStorm(t)
	ss.sup.o.Interactive = true
	defer ss.stop(t)
	dialog := claudeScreen(t, "claude-auto-fallback-dialog.txt")
	sc := newFakeScreen("")
	defer ss.sup.AttachScreen(sc)()
	sc.show(dialog)
	q := waitKeyQuestion(t, ss, claudeAutoCommand)
	sc.show("❯ \n") // the person answered at the terminal
	waitFor(t, "the question withdrawn", func() bool { return len(ss.sup.Pending()) == 0 })
	if err := ss.sup.ResolveBy(q.ID, session.PermissionAllow, "", session.ManualSource("late")); !errors.Is(err, session.ErrAnswered) {
		t.Fatalf("a late answer: %v", err)
	}

	sc.show(dialog)
	q = waitKeyQuestion(t, ss, claudeAutoCommand)
	if err := ss.sup.ResolveBy(q.ID, session.PermissionAlways, "", session.ManualSource("test")); !errors.Is(err, session.ErrNotPermission) {
		t.Fatalf("always, which the dialog does not offer: %v", err)
	}
	if err := ss.sup.ResolveBy(q.ID, session.PermissionDeny, "", session.ManualSource("test")); err != nil {
		t.Fatal(err)
	}
	other := strings.ReplaceAll(dialog, "a-notice-enter/victim", "other/victim")
	sc.show(other) // redrawn for another call before the answer's key
	q2 := waitKeyQuestion(t, ss, "rm -rf SCRATCH/runs/b330/other/victim")
	if q2.ID == q.ID {
		t.Fatal("the other dialog took the first one's question")
	}
	// The first answer's Escape never comes: the keys pressed are the second answer's.
	if err := ss.sup.ResolveBy(q2.ID, session.PermissionAllow, "", session.ManualSource("test")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the second answer's Down", func() bool { return len(sc.keys()) > 0 })
	if got := sc.keys(); !slices.Equal(got, []string{"Down"}) {
		t.Fatalf("keys %v: the first answer pressed into a dialog it was not for", got)
	}
}

// slowDrawer is claude whose dialogs say that it draws an answer late (agent.KeyDialog.Confirm).
type slowDrawer struct {
	claude.Agent
	confirm time.Duration
}

func (a slowDrawer) KeyDialog(screen []string) (agent.KeyDialog, bool) {
	d, ok := a.Agent.KeyDialog(screen)
	d.Confirm = a.confirm
	return d, ok
}

// An agent that takes the answer's key but draws it late (qwen on a loaded machine): with the
// dialog's own Confirm the key is pressed once.
func TestKeyPermissionSlowToDraw(t *testing.T) {
	ss := startStorm(t)
	ss.sup.o.Interactive = true
	defer ss.stop(t)
	ss.sup.agent = slowDrawer{confirm: 4 * keyConfirm}
	dialog := claudeScreen(t, "claude-auto-fallback-dialog.txt")
	sc := newFakeScreen("❯ \n")
	sc.onPress = func(k string) (string, bool) {
		if k == "Escape" {
			time.AfterFunc(2*keyConfirm, func() { sc.show("● Interrupted\n") })
		}
		return "", false
	}
	defer ss.sup.AttachScreen(sc)()
	sc.show(dialog)
	q := waitKeyQuestion(t, ss, claudeAutoCommand)
	if err := ss.sup.ResolveBy(q.ID, session.PermissionDeny, "", session.ManualSource("test")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the answer drawn", func() bool { return strings.Contains(sc.Text(), "Interrupted") })
	if got := sc.keys(); !slices.Equal(got, []string{"Escape"}) {
		t.Fatalf("keys %v: the answer's key pressed again while the agent was drawing it", got)
	}
}

// Always, where the dialog offers it (codex's second option): the question says what it
// allows, the selection moves to it, and the log records the rule; where it offers none,
// always is refused.
func TestKeyPermissionAlways(t *testing.T) {
	ss := startStorm(t)
	ss.sup.o.Interactive = true
	defer ss.stop(t)
	ss.sup.agent = codex.Agent{}
	b, err := os.ReadFile("../agent/codex/testdata/codex-approval-dialog.txt")
	if err != nil {
		t.Fatal(err)
	}
	dialog := string(b)
	second := strings.Replace(strings.Replace(dialog, "› 1.", "  1.", 1), "  2. Yes, and", "› 2. Yes, and", 1)
	sc := newFakeScreen("› \n")
	sc.onPress = func(k string) (string, bool) {
		switch k {
		case "Down":
			return second, true
		case "Enter":
			return "✔ You approved codex to always run commands that start with rm -rf ../build-cache\n", true
		}
		return "", false
	}
	defer ss.sup.AttachScreen(sc)()
	sc.show(dialog)
	q := waitKeyQuestion(t, ss, "rm -rf ../build-cache && touch created.txt")
	if !strings.Contains(q.Permission.Always, "commands that start with `rm -rf ../build-cache`") {
		t.Fatalf("the question's always: %q", q.Permission.Always)
	}
	if err := ss.sup.ResolveBy(q.ID, session.PermissionAlways, "", session.ManualSource("test")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the dialog answered", func() bool { return slices.Contains(sc.keys(), "Enter") })
	if got := sc.keys(); !slices.Equal(got, []string{"Down", "Enter"}) {
		t.Fatalf("keys %v", got)
	}
	waitFor(t, "the answer logged", func() bool {
		for _, v := range allVerdicts(t, ss) {
			if v.Event == "PermissionRequest" && v.Decision == session.PermissionAlways && v.Permission != nil && v.Permission.Rule == q.Permission.Always {
				return true
			}
		}
		return false
	})
}

// Gemini clears its dialog for a frame when the selection moves: that is not the dialog leaving
// the screen, and always's Enter follows once it is drawn again.
func TestKeyPermissionRedrawnAfterAMove(t *testing.T) {
	ss := startStorm(t)
	ss.sup.o.Interactive = true
	defer ss.stop(t)
	ss.sup.agent = gemini.Agent{}
	b, err := os.ReadFile("../agent/gemini/testdata/gemini-approval-dialog.txt")
	if err != nil {
		t.Fatal(err)
	}
	dialog := string(b)
	second := strings.NewReplacer("● 1. Allow once", "  1. Allow once", "  2. Allow for", "● 2. Allow for").Replace(dialog)
	sc := newFakeScreen("> \n")
	sc.onPress = func(k string) (string, bool) {
		switch k {
		case "Down":
			time.AfterFunc(2*keyStep, func() { sc.show(second) })
			return " > please do it\n", true
		case "Enter":
			return "✓ Shell rm -rf …\n", true
		}
		return "", false
	}
	defer ss.sup.AttachScreen(sc)()
	sc.show(dialog)
	const command = "rm -rf SCRATCH/runs/gemini/g-allow-enter/victim"
	q := waitKeyQuestion(t, ss, command)
	if err := ss.sup.ResolveBy(q.ID, session.PermissionAlways, "", session.ManualSource("test")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the dialog answered", func() bool { return slices.Contains(sc.keys(), "Enter") })
	if got := sc.keys(); !slices.Equal(got, []string{"Down", "Enter"}) {
		t.Fatalf("keys %v", got)
	}
	waitFor(t, "the answer logged", func() bool {
		for _, v := range allVerdicts(t, ss) {
			if v.Event == "PermissionRequest" && v.Decision == session.PermissionAlways && v.Permission != nil && v.Permission.Command == command {
				return true
			}
		}
		return false
	})
	for _, q := range ss.sup.Pending() {
		t.Fatalf("a question left after the answer: %+v", q)
	}
}

// allVerdicts are the verdicts of every session in ss's state directory.
func allVerdicts(t *testing.T, ss *stormSession) []verdictlog.Verdict {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(verdictlog.SessionsDir(filepath.Join(ss.dir, "state")), "*", "verdicts.jsonl"))
	var all []verdictlog.Verdict
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		vs, _ := verdictlog.Read(f)
		f.Close()
		all = append(all, vs...)
	}
	return all
}

// Denied with a reason where the dialog has a field for the model's feedback (copilot's third
// option): the selection moves there, the reason is typed once, as one line, and Enter sends
// it; the verdict log keeps the reason. A dialog with no such field refuses the reason.
func TestKeyPermissionDenyWithReason(t *testing.T) {
	ss := startStorm(t)
	ss.sup.o.Interactive = true
	defer ss.stop(t)
	ss.sup.agent = copilot.Agent{}
	b, err := os.ReadFile("../agent/copilot/testdata/copilot-run-dialog.txt")
	if err != nil {
		t.Fatal(err)
	}
	dialog := string(b)
	const third = "   3. No, and tell Copilot what to do differently (Esc to stop)"
	at := func(n int, field string) string {
		s := strings.Replace(dialog, "❯ 1. Yes", "  1. Yes", 1)
		switch n {
		case 2:
			s = strings.Replace(s, "  2. Yes, and", "❯ 2. Yes, and", 1)
		case 3:
			s = strings.Replace(s, third, " ❯ 3. "+field+" (Esc to stop)", 1)
		}
		return s
	}
	sel := 1
	sc := newFakeScreen("❯ \n")
	sc.onPress = func(k string) (string, bool) {
		switch k {
		case "Down":
			sel++
			if sel == 3 {
				return at(3, "No, and tell Copilot what to do differently"), true
			}
			return at(sel, ""), true
		case "Enter":
			return "● Working\n", true
		}
		if text, ok := session.TypedText(k); ok {
			return at(3, text), true
		}
		return "", false
	}
	defer ss.sup.AttachScreen(sc)()
	sc.show(dialog)
	q := waitKeyQuestion(t, ss, "touch created.txt")
	if !q.Permission.DenyReason {
		t.Fatal("the question does not say the dialog takes a reason")
	}
	if err := ss.sup.ResolveBy(q.ID, session.PermissionAllow, "why", session.ManualSource("test")); err == nil || !strings.Contains(err.Error(), "allowed takes no reason") {
		t.Fatalf("an allow with a reason: %v", err)
	}
	if err := ss.sup.ResolveBy(q.ID, session.PermissionDeny, "use  a\ttemporary\ndirectory", session.ManualSource("test")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the dialog answered", func() bool { return slices.Contains(sc.keys(), "Enter") })
	if got, want := sc.keys(), []string{"Down", "Down", session.Typed("use a temporary directory"), "Enter"}; !slices.Equal(got, want) {
		t.Fatalf("keys %q, want %q", got, want)
	}
	waitFor(t, "the answer logged", func() bool {
		for _, v := range allVerdicts(t, ss) {
			if v.Event == "PermissionRequest" && v.Decision == session.PermissionDeny && v.Reason == "use a temporary directory" {
				return true
			}
		}
		return false
	})

}

// A dialog with no field for the model's feedback (gemini's) refuses a deny's reason, saying
// so, and its question still waits.
func TestKeyPermissionReasonRefusedWithoutAField(t *testing.T) {
	ss := startStorm(t)
	ss.sup.o.Interactive = true
	defer ss.stop(t)
	ss.sup.agent = gemini.Agent{}
	g, err := os.ReadFile("../agent/gemini/testdata/gemini-approval-dialog.txt")
	if err != nil {
		t.Fatal(err)
	}
	sc := newFakeScreen("")
	defer ss.sup.AttachScreen(sc)()
	sc.show(string(g))
	var gq session.Question
	waitFor(t, "gemini's question", func() bool {
		for _, p := range ss.sup.Pending() {
			if p.Permission != nil {
				gq = p
				return true
			}
		}
		return false
	})
	if gq.Permission.DenyReason {
		t.Fatal("the question says gemini's dialog takes a reason")
	}
	if err := ss.sup.ResolveBy(gq.ID, session.PermissionDeny, "why not", session.ManualSource("test")); err == nil || !strings.Contains(err.Error(), "takes no reason") {
		t.Fatalf("a reason for gemini's dialog: %v", err)
	}
	if len(ss.sup.Pending()) != 1 || len(sc.keys()) != 0 {
		t.Fatalf("after the refused reason: pending %+v, keys %q", ss.sup.Pending(), sc.keys())
	}
}

// The person opens claude's field for the model's feedback at the terminal (Tab on No) and types:
// the dialog is theirs, and its question is withdrawn at once.
func TestKeyPermissionPersonTypingAtTheDialog(t *testing.T) {
	ss := startStorm(t)
	ss.sup.o.Interactive = true
	defer ss.stop(t)
	typing := claudeScreen(t, "claude-auto-fallback-tab-on-no-typed.txt")
	dialog := strings.Replace(typing, "❯ No, do not delete it, list it with ls instead", "❯ No", 1)
	sc := newFakeScreen("")
	defer ss.sup.AttachScreen(sc)()
	sc.show(dialog)
	q := waitKeyQuestion(t, ss, "rm -rf SCRATCH/runs/b330/a-no-amend/victim")
	sc.show(typing)
	waitFor(t, "the question withdrawn", func() bool { return len(ss.sup.Pending()) == 0 })
	if err := ss.sup.ResolveBy(q.ID, session.PermissionAllow, "", session.ManualSource("late")); !errors.Is(err, session.ErrAnswered) {
		t.Fatalf("a late answer: %v", err)
	}
	if len(sc.keys()) != 0 {
		t.Fatalf("keys pressed into the person's answer: %q", sc.keys())
	}
}
