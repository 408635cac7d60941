package hubweb

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/internal/agentsim"
)

// Two sessions of the real claude wait on a question each; `hooksup watch` in a third terminal
// (sharing only the runtime directory) shows both with their question, and approving the
// selected first one makes it alone continue, its verdict saying it was answered in watch.
// Then watch's other keys, each on the session it selects: the first session's next question
// is edited (claude reads the edited reason) and its third halted (the turn ends, no further
// request); the second's is denied (claude stops, no further request), and Escape interrupts
// it as Escape in its own terminal does: the question of its next turn is let stop, and the
// turn after that is cut short while claude works.
func TestHubWatch(t *testing.T) {
	t.Parallel()
	const cfgText = `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestWatch'; exit 1"
`
	rc1 := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-ONE"), mockapi.Text("ONE-CONTINUED"), mockapi.Text("ONE-EDITED"), mockapi.Text("WRONG: AFTER HALT")}})
	rc2 := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ANSWER-TWO"), mockapi.Text("TWO-AGAIN"),
		mockapi.Text("NEVER-SHOWN").WithDelay(2 * time.Minute), mockapi.Text("WRONG: A CONTINUATION")}})
	rc2.Env.Setenv("XDG_RUNTIME_DIR", rc1.Run)
	runDir := rc1.Run
	tm1 := rc1.ClaudeTUI(rc1.Config(cfgText), 160, 45)
	const wait = 45 * time.Second
	tm1.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm1, "first prompt")
	tm1.Keys("Enter")
	tm1.WaitText(wait, "ANSWER-ONE", "⚑ claude wants to stop", "FAIL: TestWatch")
	// The second starts after the first is waiting: watch lists sessions oldest first.
	tm2 := rc2.ClaudeTUI(rc2.Config(cfgText), 160, 45)
	tm2.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "manual mode on") })
	e2e.TypeIntoClaude(t, tm2, "second prompt")
	tm2.Keys("Enter")
	tm2.WaitText(wait, "ANSWER-TWO", "⚑ claude wants to stop", "FAIL: TestWatch")

	home, env := e2e.OtherTerminal(t, runDir)
	w := e2e.StartTmux(t, 140, 40, append(env, "TERM=xterm-256color"), home, e2e.HooksupBin, "watch")
	var p1, p2 string // the sessions' short ids
	q2 := -1          // the second's question
	for _, s := range e2e.HubLs(t, runDir) {
		switch s.Cwd {
		case rc1.Env.WorkDir:
			p1 = s.SessionID[:8]
		case rc2.Env.WorkDir:
			p2 = s.SessionID[:8]
			if len(s.Pending) == 1 {
				q2 = s.Pending[0].ID
			}
		}
	}
	if p1 == "" || p2 == "" || q2 < 0 {
		t.Fatalf("ls does not list both sessions: %+v", e2e.HubLs(t, runDir))
	}
	// Each question names the check's command in its first line, and shows its output below.
	scr := w.WaitFor("both sessions, each with its question", wait, func(s string) bool {
		return strings.Contains(s, p1) && strings.Contains(s, p2) && strings.Contains(s, "work") && strings.Count(s, "FAIL: TestWatch") == 4 &&
			strings.Count(s, "⚑ Stop") == 2
	})
	if !strings.Contains(scr, "2 sessions") || !strings.Contains(scr, "left") {
		t.Fatalf("watch's screen:\n%s", scr)
	}
	// The first (oldest) session is selected: the approve key answers its question.
	w.Keys("a")
	tm1.WaitText(wait, "ONE-CONTINUED", "continued by you (hooksup watch)")
	w.WaitText(wait, "continued by you (hooksup watch)")
	main1 := rc1.Srv.Main()
	if len(main1) < 2 || !strings.Contains(main1[1].LastUserText(), "FAIL: TestWatch") {
		t.Fatalf("%d requests; the second's last user text %q", len(main1), e2e.LastUser(main1))
	}
	// The second session made one request, and after that its question is still pending, the
	// same one: claude waits in its Stop hook until the question is answered, so it made none in
	// between. (Its later requests, checked at the end, are its next prompts.)
	if n := len(rc2.Srv.Main()); n != 1 {
		t.Fatalf("approving the first session made the second make %d requests", n)
	}
	for _, s := range e2e.HubLs(t, runDir) {
		if s.Cwd == rc2.Env.WorkDir && (len(s.Pending) != 1 || s.Pending[0].ID != q2) {
			t.Fatalf("the second session's question %d is no longer pending: %+v", q2, s)
		}
	}
	if !strings.Contains(tm2.Screen(), "⚑ claude wants to stop") {
		t.Fatalf("the second session's question left its banner:\n%s", tm2.Screen())
	}

	// Edit: the first session asks again after its continuation (the watch knows it once its box
	// counts the continuation); the editor opens on the checks' reason, a line is added, and
	// claude reads the reason with it.
	name1 := filepath.Base(rc1.Env.WorkDir) + " · claude · " + p1
	name2 := filepath.Base(rc2.Env.WorkDir) + " · claude · " + p2
	tm1.WaitText(wait, "ONE-CONTINUED", "⚑ claude wants to stop")
	w.WaitFor("the first session's second question", wait, func(s string) bool {
		return strings.Contains(s, "continued 1 ·") && strings.Count(s, "⚑ Stop") == 2 && strings.Contains(s, "▸ "+name1)
	})
	w.Keys("e")
	w.WaitText(wait, "the reason the agent will read:", "FAIL: TestWatch", "enter send")
	w.Text("EDITED-IN-WATCH") // on the line below the reason, where the editor starts
	w.Keys("Enter")
	tm1.WaitText(wait, "ONE-EDITED")
	main1 = rc1.Srv.Main()
	if len(main1) != 3 || !strings.Contains(main1[2].LastUserText(), "FAIL: TestWatch\nEDITED-IN-WATCH") {
		t.Fatalf("%d requests; the third's last user text %q, want the check's reason and the added line", len(main1), e2e.LastUser(main1))
	}

	// Halt: the first session's third question ends the turn at once.
	tm1.WaitText(wait, "ONE-EDITED", "⚑ claude wants to stop")
	w.WaitFor("the first session's third question", wait, func(s string) bool {
		return strings.Contains(s, "continued 2 ·") && strings.Count(s, "⚑ Stop") == 2
	})
	// Claude says the hook stopped it, with hooksup's reason; the session's verdicts pane and
	// watch say it was halted in watch.
	w.Keys("x")
	halted := regexp.MustCompile(`turn ended +by you \(hooksup watch\)`)
	scr = tm1.WaitFor("the halt in the session", wait, func(s string) bool {
		return halted.MatchString(s) && strings.Contains(s, "Stop hook stopped Claude") &&
			strings.Contains(s, "Stopped by the person supervising this session.")
	})
	if strings.Contains(scr, "claude wants to stop") {
		t.Fatalf("question still shown after halt in watch:\n%s", scr)
	}
	w.WaitFor("the halt in watch", wait, func(s string) bool {
		return halted.MatchString(s) && strings.Count(s, "⚑ Stop") == 1 && strings.Contains(s, "the turn ends at Stop in")
	})

	// Deny: down selects the second session; its claude may stop.
	w.Keys("j")
	w.WaitText(wait, "▸ "+name2)
	w.Keys("d")
	scr = tm2.WaitText(wait, "let stop by you (hooksup watch)")
	if strings.Contains(scr, "claude wants to stop") {
		t.Fatalf("question still shown after deny in watch:\n%s", scr)
	}
	w.WaitFor("the deny in watch", wait, func(s string) bool {
		return strings.Contains(s, "let stop by you (hooksup watch)") && strings.Count(s, "⚑ Stop") == 0 && strings.Contains(s, "the agent may stop at Stop in")
	})

	// Escape: the second session's next question is let stop, as Escape in its own TUI would.
	e2e.TypeIntoClaude(t, tm2, "second prompt again")
	tm2.Keys("Enter")
	tm2.WaitText(wait, "TWO-AGAIN", "⚑ claude wants to stop")
	w.WaitFor("the second session's new question", wait, func(s string) bool { return strings.Count(s, "⚑ Stop") == 1 })
	w.Keys("Escape")
	scr = tm2.WaitText(wait, "let stop (Escape)", "● interrupted")
	if strings.Contains(scr, "claude wants to stop") {
		t.Fatalf("question still shown after Escape in watch:\n%s", scr)
	}
	w.WaitText(wait, "interrupted the turn in", "let stop (Escape)")

	// Escape while claude works (its reply is slow to come): claude is sent the key, as by Escape
	// in its terminal, and gives up the request at once.
	e2e.TypeIntoClaude(t, tm2, "third prompt")
	tm2.Keys("Enter")
	tm2.WaitText(wait, "● working")
	w.WaitFor("the second session at work", wait, func(s string) bool { return strings.Contains(s, "│ working ") })
	// Its request is out (an Escape before it would only take the prompt back into claude's
	// input, with no request to give up).
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	if _, err := rc2.Srv.Wait(ctx, func(rs []mockapi.Request) bool { return len(mockapi.Filter(rs, mockapi.KindMain)) == 3 }); err != nil {
		t.Fatalf("claude did not send the third prompt: %v\n%s", err, tm2.Screen())
	}
	w.Keys("Escape")
	_, err := rc2.Srv.Wait(ctx, func(rs []mockapi.Request) bool {
		main := mockapi.Filter(rs, mockapi.KindMain)
		return len(main) == 3 && main[2].HungUp
	})
	if err != nil {
		t.Fatalf("claude did not give up its request after Escape in watch: %v\n%s", err, tm2.Screen())
	}
	tm2.WaitText(wait, "● interrupted")

	// No session made a request after it was denied, halted or interrupted: the second's later
	// requests are its new prompts, not continuations.
	if got, want := e2e.Decisions(rc1.Verdicts()), "Stop:block/manual (hooksup watch) Stop:block/manual (hooksup watch) Stop:halt/manual (hooksup watch)"; got != want {
		t.Errorf("the first session's verdicts %s, want %s", got, want)
	}
	if got, want := e2e.Decisions(rc2.Verdicts()), "Stop:allow/manual (hooksup watch) Interrupted:allow/escape Stop:allow/escape Interrupted:allow/escape"; got != want {
		t.Errorf("the second session's verdicts %s, want %s", got, want)
	}
	if n := len(rc1.Srv.Main()); n != 3 {
		t.Errorf("the first session made %d requests, want 3 (none after the halt)", n)
	}
	main2 := rc2.Srv.Main()
	if len(main2) != 3 || !strings.Contains(main2[1].LastUserText(), "second prompt again") || !strings.Contains(main2[2].LastUserText(), "third prompt") {
		t.Errorf("the second session made %d requests (the last's user text %q), want 3: its prompts, none after the deny or Escape", len(main2), e2e.LastUser(main2))
	}
	if strings.Contains(tm2.Screen(), "NEVER-SHOWN") {
		t.Errorf("the interrupted reply was shown:\n%s", tm2.Screen())
	}
}

// What a person needs to answer is on the watch's screen: each session's question shows the end
// of its failed check's output, as many lines as the screen has room for; at a small height
// the questions and the keys still show. What the check printed reaches the terminal as text:
// its escape sequences and control characters do not, and a tab does not shift the box's edge.
func TestWatchShowsWhatTheCheckPrinted(t *testing.T) {
	t.Parallel()
	const cfgText = `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = "i=1; while [ $i -le 30 ]; do printf 'WATCH-LINE-%02d\\n' $i; i=$((i+1)); done; printf 'tab\\there\\n\\033]0;PWNED\\007\\033[2Jbell\\007 CHECK-END\\n'; exit 1"
`
	first, second := e2e.NewSandbox(t), e2e.NewSandbox(t)
	runDir := ""
	for _, kv := range first.Env {
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			runDir = v
		}
	}
	second.Env = append(second.Env, "XDG_RUNTIME_DIR="+runDir) // the later one counts
	self := e2e.SimAgentBin
	const wait = 30 * time.Second
	for _, s := range []*e2e.Sandbox{first, second} {
		sc, _ := json.Marshal(agentsim.Scenario{Prompts: []string{"go"}})
		env := append(append([]string{}, s.Env...), "TERM=xterm-256color", e2e.EnvSimAgent+"=1", agentsim.EnvScenario+"="+string(sc))
		tm := e2e.StartTmux(t, 120, 40, env, s.Project, e2e.HooksupBin, "--config", s.Config(cfgText), "--claude-bin", self, "claude")
		tm.WaitText(wait, "⚑ claude wants to stop", "CHECK-END")
	}

	home, env := e2e.OtherTerminal(t, runDir)
	w := e2e.StartTmux(t, 150, 40, append(env, "TERM=xterm-256color"), home, e2e.HooksupBin, "watch")
	scr := w.WaitFor("both questions with the end of their check's output", wait, func(s string) bool {
		return strings.Count(s, "⚑ Stop") == 2 && strings.Count(s, "CHECK-END") == 2 && strings.Count(s, "WATCH-LINE-30") == 2
	})
	// The room left on the screen is shared, and used: each question shows the end of its 32
	// lines, as many as fit, and no row is left empty.
	if strings.Count(scr, `The check "tests"`) != 2 || strings.Count(scr, "WATCH-LINE-") < 20 || strings.Contains(scr, "WATCH-LINE-01") {
		t.Errorf("the questions do not show the end of the output, as much as fits:\n%s", scr)
	}
	for i, l := range strings.Split(strings.TrimRight(scr, "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			t.Errorf("row %d is empty:\n%s", i, scr)
			break
		}
	}
	for i, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, "WATCH-LINE") || strings.Contains(l, "tab") || strings.Contains(l, "CHECK-END") {
			if !strings.HasPrefix(l, "│") || !strings.HasSuffix(l, "│") || utf8.RuneCountInString(l) != 150 {
				t.Errorf("row %d is not a whole row of its box: %q", i, l)
			}
		}
	}
	// The title sequence is taken out whole; the lone bell is shown, not rung.
	if strings.Contains(scr, "PWNED") || !strings.Contains(scr, `bell\a CHECK-END`) {
		t.Errorf("the check's escape sequences reached the screen:\n%s", scr)
	}
	if title := w.Display("#{pane_title}"); strings.Contains(title, "PWNED") {
		t.Errorf("the check set the terminal's title: %q", title)
	}

	// A small height: the output gives way; the questions and the keys stay.
	w.Resize(150, 10)
	scr = w.WaitFor("the questions without the output", wait, func(s string) bool { return !strings.Contains(s, "WATCH-LINE") })
	if strings.Count(scr, "⚑ Stop · the checks say continue (check tests)") != 2 || !strings.Contains(scr, "a continue · d let it stop · e edit reason · x halt") {
		t.Errorf("at 10 rows the questions or the keys are missing:\n%s", scr)
	}
}

// The reason editor in watch follows the terminal's size: after each resize the cursor is on the
// editor's row to write in, the reason's last line above it, and the whole reason shows when it
// fits.
func TestWatchEditorAfterAResize(t *testing.T) {
	t.Parallel()
	const cfgText = `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = "i=1; while [ $i -le 12 ]; do echo \"EDIT-LINE-$i: words enough to wrap in a narrow terminal\"; i=$((i+1)); done; exit 1"
`
	s := e2e.NewSandbox(t)
	runDir := ""
	for _, kv := range s.Env {
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			runDir = v
		}
	}
	self := e2e.SimAgentBin
	const wait = 30 * time.Second
	sc, _ := json.Marshal(agentsim.Scenario{Prompts: []string{"go"}})
	env := append(append([]string{}, s.Env...), "TERM=xterm-256color", e2e.EnvSimAgent+"=1", agentsim.EnvScenario+"="+string(sc))
	tm := e2e.StartTmux(t, 120, 40, env, s.Project, e2e.HooksupBin, "--config", s.Config(cfgText), "--claude-bin", self, "claude")
	tm.WaitText(wait, "⚑ claude wants to stop", "EDIT-LINE-12")

	home, wenv := e2e.OtherTerminal(t, runDir)
	w := e2e.StartTmux(t, 120, 45, append(wenv, "TERM=xterm-256color"), home, e2e.HooksupBin, "watch")
	w.WaitText(wait, "⚑ Stop", "EDIT-LINE-12")
	w.Keys("e")
	w.WaitText(wait, "the reason the agent will read:", "enter send")
	for _, size := range []struct {
		w, h int
		fits bool
	}{{60, 45, false}, {120, 60, true}, {120, 24, false}, {120, 45, true}} {
		w.Resize(size.w, size.h)
		w.WaitFor("the editor at its new size, its cursor on the row to write in", wait, func(scr string) bool {
			lines := strings.Split(scr, "\n")
			title, hints := -1, -1
			for i, l := range lines {
				if strings.HasPrefix(l, " the reason the agent will read:") {
					title = i
				} else if strings.HasPrefix(l, " enter send") && title >= 0 && hints < 0 {
					hints = i
				}
			}
			if title < 0 || hints < 0 {
				return false
			}
			editor := strings.Join(lines[title+1:hints], "\n")
			y, err := strconv.Atoi(w.Display("#{cursor_y}"))
			return err == nil && y > title && y < hints && strings.TrimSpace(lines[y]) == "›" &&
				strings.HasSuffix(strings.TrimSpace(lines[y-1]), "terminal") && strings.Contains(editor, "EDIT-LINE-12") &&
				(!size.fits || strings.Contains(editor, "EDIT-LINE-1:"))
		})
	}
}
