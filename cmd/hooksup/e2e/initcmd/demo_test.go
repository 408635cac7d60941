package initcmd

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/agentsim"
)

// The demo as a person uses it, in a real tmux: approve a forced continuation, type a prompt,
// deny one, interrupt one with Escape while the question is pending, resize.
func TestDemoInTmux(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	env := append([]string{}, s.Env...)
	env = append(env, "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color")
	tm := e2e.StartTmux(t, 150, 42, env, s.Project, e2e.HooksupBin, "demo")
	const wait = 20 * time.Second

	scr := tm.WaitText(wait, "hooksup demo agent", "Add a --verbose flag", "Allow Bash(go test ./...)?", "needs permission")
	// The header says what its numbers count; claude's own limit of 8 blocks in a row does not
	// matter with hooksup's 3 per turn, so it is not shown.
	if header := strings.SplitN(scr, "\n", 2)[0]; !strings.Contains(header, "continuations 0/3 this turn · 0 this session") ||
		strings.Contains(header, "cap") || strings.Contains(header, "claude allows") {
		t.Fatalf("header %q", header)
	}
	tm.Text("y")
	scr = tm.WaitText(wait, "⚑ claude wants to stop", `"demo-tests" failed`, "a continue")
	if !strings.Contains(scr, "Sub ") || !strings.Contains(scr, "let stop (no checks)") {
		t.Fatalf("the subagent's verdict is not listed:\n%s", scr)
	}

	// Approve: claude continues with the checks' reason, then stops when the check passes.
	tm.Keys("C-]", "a")
	scr = tm.WaitText(wait, "Stop hook feedback", "attempt 2", "continued by you", "let stop (checks passed)", "continuations 1/3 this turn · 1 this session")
	if strings.Contains(scr, "claude wants to stop") {
		t.Fatalf("the question is still shown:\n%s", scr)
	}

	// Typing reaches the agent.
	tm.Text("second task")
	tm.Keys("Enter")
	tm.WaitText(wait, "> second task")
	tm.WaitCount(wait, "Allow Bash", 2)
	tm.Text("n")
	tm.WaitText(wait, "⚑ claude wants to stop")

	// Deny: claude may stop; no feedback for this turn.
	tm.Keys("C-]", "d")
	scr = tm.WaitText(wait, "let stop by you", "Done: turn 2 is finished")
	if strings.Count(scr, "Stop hook feedback") != 1 {
		t.Fatalf("denied continuation still reached claude:\n%s", scr)
	}

	// Escape while the question is pending: claude is interrupted, verdict escape, and no
	// further continuation that turn.
	tm.Text("third task")
	tm.Keys("Enter")
	tm.WaitText(wait, "> third task")
	tm.WaitCount(wait, "Allow Bash", 3)
	tm.Text("y")
	tm.WaitText(wait, "⚑ claude wants to stop")
	tm.Keys("Escape")
	scr = tm.WaitText(wait, "let stop (Escape)", "● interrupted")
	if strings.Contains(scr, "interrupted · turn interrupted") {
		t.Fatalf("the header repeats itself:\n%s", scr)
	}
	if strings.Contains(scr, "claude wants to stop") {
		t.Fatalf("question still shown after Escape:\n%s", scr)
	}
	// The next task starts only once the third turn is over: a continuation of the third would
	// show before it. The fourth turn is then interrupted while it asks for permission.
	after := func(scr, mark, text string) bool {
		i := strings.LastIndex(scr, mark)
		return i >= 0 && strings.Contains(scr[i:], text)
	}
	tm.Text("fourth task")
	tm.Keys("Enter")
	scr = tm.WaitFor("the fourth turn's permission", wait, func(s string) bool { return after(s, "> fourth task", "Allow Bash") })
	third, fourth := strings.LastIndex(scr, "> third task"), strings.LastIndex(scr, "> fourth task")
	if third < 0 || fourth < third || strings.Contains(scr[third:fourth], "Stop hook feedback") ||
		strings.Contains(scr, "turn 3 is finished (attempt 2)") || strings.Count(scr, "continued by you") != 1 {
		t.Fatalf("Escape did not end the turn:\n%s", scr)
	}
	tm.Keys("Escape")
	tm.WaitFor("the fourth turn interrupted", wait, func(s string) bool { return after(s, "> fourth task", "Interrupted by user") })

	// A narrower window stacks the panes; claude's screen survives the resize.
	tm.Resize(100, 40)
	tm.WaitFor("a stacked layout", wait, func(scr string) bool {
		lines := strings.Split(scr, "\n")
		// The verdicts pane sits below claude's pane, which still shows the last turn.
		var claudeRow, verdictsRow int
		for i, l := range lines {
			if strings.Contains(l, "╭─ claude") || strings.Contains(l, "╭─ hooksup demo") {
				claudeRow = i
			}
			if strings.Contains(l, "╭─ verdicts") {
				verdictsRow = i
			}
		}
		return verdictsRow > claudeRow+10 && strings.Contains(scr, "> fourth task")
	})
	tm.Resize(150, 42)
	tm.WaitText(wait, "> fourth task", "let stop (Escape)", "╭─ verdicts")

	// Quit.
	tm.Keys("C-]", "q")
	tm.WaitText(wait, "[exited 0]")
}

// Shrunk below the smallest pane hooksup draws and grown back, the demo's pane shows the agent's
// text again, whole: its agent does not repaint on a resize, so what it drew must survive it.
func TestDemoPaneSurvivesATooSmallTerminal(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	env := append(append([]string{}, s.Env...), "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color")
	tm := e2e.StartTmux(t, 100, 30, env, s.Project, e2e.HooksupBin, "demo")
	const wait = 20 * time.Second
	agentText := []string{"hooksup demo agent", "Add a --verbose flag to the CLI", "Allow Bash(go test ./...)?"}
	tm.WaitText(wait, agentText...)
	tm.Resize(20, 5)
	tm.WaitText(wait, "too small")
	tm.Resize(100, 30)
	tm.WaitText(wait, agentText...)
	// The agent still answers in its pane.
	tm.Text("y")
	tm.WaitText(wait, "⚑ claude wants to stop")
}

// demoWait bounds each step of the demo's tests.
const demoWait = 20 * time.Second

// demoAtItsStop starts hooksup demo in tmux (150×42, at 0.3 of its pace) and answers its
// agent's permission question: the checks' failure waits on the person.
func demoAtItsStop(t *testing.T) (*e2e.Sandbox, *e2e.Tmux) {
	t.Helper()
	s := e2e.NewSandbox(t)
	env := append(append([]string{}, s.Env...), "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color")
	tm := e2e.StartTmux(t, 150, 42, env, s.Project, e2e.HooksupBin, "demo")
	tm.WaitText(demoWait, "Allow Bash(go test ./...)?")
	tm.Text("y")
	tm.WaitText(demoWait, "⚑ claude wants to stop", `"demo-tests" failed`)
	return s, tm
}

// blockReasons are the reasons of the continuations s's verdict log holds.
func blockReasons(s *e2e.Sandbox) []string {
	var reasons []string
	for _, v := range s.Verdicts() {
		if v.Decision == hooks.Block {
			reasons = append(reasons, v.Reason)
		}
	}
	return reasons
}

// The reason editor's clear key, named in its hints, empties it whatever the checks' reason
// holds (several lines here): the reason claude reads is only what is typed after it.
func TestDemoEditorClearsTheReason(t *testing.T) {
	t.Parallel()
	s, tm := demoAtItsStop(t)

	// The editor opens on the checks' reason, its hints naming the clear key.
	tm.Keys("C-]", "e")
	editorRows := func(scr string) []string {
		var rows []string
		for _, l := range strings.Split(scr, "\n") {
			if _, text, ok := strings.Cut(l, "›"); ok {
				rows = append(rows, strings.TrimSpace(text))
			}
		}
		return rows
	}
	scr := tm.WaitFor("the editor on the checks' reason", demoWait, func(scr string) bool {
		return strings.Contains(strings.Join(editorRows(scr), "\n"), "-v did not enable verbose output")
	})
	if hints := e2e.LineWith(scr, "enter send"); !strings.Contains(hints, "ctrl+l clear") {
		t.Fatalf("the editor's hints do not name the clear key:\n%s", scr)
	}

	tm.Keys("C-l")
	tm.WaitFor("an empty editor", demoWait, func(scr string) bool {
		rows := editorRows(scr)
		return len(rows) > 0 && strings.Join(rows, "") == ""
	})
	tm.Text("ONLY THESE WORDS")
	tm.Keys("Enter")
	tm.WaitText(demoWait, "Stop hook feedback: ONLY THESE WORDS", "continued by you")
	reasons := blockReasons(s)
	if len(reasons) != 1 || reasons[0] != "ONLY THESE WORDS" {
		t.Fatalf("the continuation's reasons %q, want only the words typed after clearing", reasons)
	}
}

// An emptied reason is not sent (it would be the checks' reason the person cleared away): the
// banner says so and names the way out, and nothing reaches the agent; a reason typed then is.
func TestDemoEditorRefusesAnEmptyReason(t *testing.T) {
	t.Parallel()
	s, tm := demoAtItsStop(t)
	tm.Keys("C-]", "e")
	tm.WaitText(demoWait, "enter send")
	tm.Keys("C-l")
	tm.Keys("Enter")
	scr := tm.WaitText(demoWait, "the reason is empty: type one, or ctrl+c to cancel")
	if !strings.Contains(scr, "⚑ claude wants to stop") || !strings.Contains(scr, "enter send") || strings.Contains(scr, "Stop hook feedback") {
		t.Fatalf("the empty reason left the question, or reached the agent:\n%s", scr)
	}
	tm.Text("MY OWN REASON")
	tm.WaitFor("the notice gone once a reason is typed", demoWait, func(scr string) bool {
		return !strings.Contains(scr, "the reason is empty") && strings.Contains(scr, "MY OWN REASON")
	})
	tm.Keys("Enter")
	tm.WaitText(demoWait, "Stop hook feedback: MY OWN REASON", "continued by you")
	reasons := blockReasons(s)
	if len(reasons) != 1 || reasons[0] != "MY OWN REASON" {
		t.Fatalf("the continuation's reasons %q, want only the one typed", reasons)
	}
}

// Text typed into the editor starts on a line of its own below the checks' reason, where the
// editor shows the cursor: the agent reads the reason, a line break, and what was typed, never
// the typed words glued to the reason's last word.
func TestDemoEditorTypedTextStartsOnItsOwnLine(t *testing.T) {
	t.Parallel()
	s, tm := demoAtItsStop(t)
	tm.Keys("C-]", "e")
	tm.WaitText(demoWait, "enter send")
	tm.Text("Also run gofmt")
	tm.Keys("Enter")
	tm.WaitText(demoWait, "continued by you")
	reasons := blockReasons(s)
	if len(reasons) != 1 || !strings.HasSuffix(reasons[0], "\nAlso run gofmt") || strings.Count(reasons[0], "Also run gofmt") != 1 ||
		!strings.Contains(reasons[0], "-v did not enable verbose output") {
		t.Fatalf("the continuation's reasons %q, want the checks' reason and then, on a line of its own, the typed words", reasons)
	}
	if last := strings.Split(reasons[0], "\n"); len(last) < 2 || last[len(last)-1] != "Also run gofmt" {
		t.Fatalf("the typed words are not on a line of their own: %q", reasons[0])
	}
}

// The first interactive run with an untrusted project config shows its commands and asks;
// "y" trusts that exact content and the checks run; the answer is remembered.
func TestTrustPromptOnFirstInteractiveRun(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	marker := s.Project + "/ran"
	os.WriteFile(s.Project+"/.hooksup.toml", []byte("mode = \"auto\"\n[[stop.checks]]\nname = \"gate\"\ncommand = \"test -f "+marker+" || { touch "+marker+"; echo gate failed; exit 1; }\"\n"), 0o644)
	self := e2e.SimAgentBin
	sc, _ := json.Marshal(agentsim.Scenario{Prompts: []string{"go"}, WorkDelay: agentsim.Duration{Duration: 200 * time.Millisecond}})
	env := append(append([]string{}, s.Env...), "TERM=xterm-256color", e2e.EnvSimAgent+"=1", agentsim.EnvScenario+"="+string(sc))
	tm := e2e.StartTmux(t, 140, 40, env, s.Project, e2e.HooksupBin, "--claude-bin", self, "claude")
	const wait = 20 * time.Second
	tm.WaitText(wait, ".hooksup.toml is not trusted", "gate", "echo gate failed", "Trust this exact content? [y/N]")
	tm.Text("y")
	tm.Keys("Enter")
	tm.WaitText(wait, "continued (check gate failed)", "let stop (checks passed)", "claude exited with status 0")
	tm.Keys("q")
	tm.WaitText(wait, "[exited 0]")
	// Remembered: a second run does not ask.
	tm2 := e2e.StartTmux(t, 140, 40, env, s.Project, e2e.HooksupBin, "--claude-bin", self, "claude")
	scr := tm2.WaitText(wait, "claude exited with status 0")
	if strings.Contains(scr, "not trusted") {
		t.Fatalf("asked again:\n%s", scr)
	}
}

// Declining leaves the file untrusted: its commands never run.
func TestTrustPromptDeclined(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	evil := s.Project + "/pwned"
	os.WriteFile(s.Project+"/.hooksup.toml", []byte("[[stop.checks]]\nname = \"x\"\ncommand = \"touch "+evil+"\"\n"), 0o644)
	self := e2e.SimAgentBin
	env := append(append([]string{}, s.Env...), "TERM=xterm-256color", e2e.EnvSimAgent+"=1", agentsim.EnvScenario+`={"prompts":["go"]}`)
	tm := e2e.StartTmux(t, 140, 40, env, s.Project, e2e.HooksupBin, "--claude-bin", self, "claude")
	tm.WaitText(20*time.Second, "Trust this exact content? [y/N]")
	tm.Keys("Enter")
	tm.WaitText(20*time.Second, "claude exited with status 0")
	if _, err := os.Stat(evil); err == nil {
		t.Fatal("an untrusted check ran")
	}
}

// SIGTERM to hooksup ends claude and restores the terminal: the alternate screen is left and
// the shell's own output is visible again.
func TestSIGTERMRestoresTheTerminal(t *testing.T) {
	// Serial: it finds its hooksup by its command line (pgrep), which another demo test beside it would share.
	s := e2e.NewSandbox(t)
	env := append(append([]string{}, s.Env...), "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color")
	tm := e2e.StartTmux(t, 120, 36, env, s.Project, "sh", "-c", "echo BEFORE-HOOKSUP; exec "+e2e.HooksupBin+" demo")
	tm.WaitText(20*time.Second, "hooksup demo agent", "╭─ verdicts")
	out, err := exec.Command("pgrep", "-f", "-x", e2e.HooksupBin+" demo").Output()
	if err != nil {
		t.Fatalf("hooksup not found: %v", err)
	}
	hpid := strings.Fields(string(out))[0]
	if err := exec.Command("kill", "-TERM", hpid).Run(); err != nil {
		t.Fatal(err)
	}
	scr := tm.WaitText(20*time.Second, "[exited")
	if !strings.Contains(scr, "BEFORE-HOOKSUP") || strings.Contains(scr, "╭─ verdicts") {
		t.Fatalf("the terminal was not restored:\n%s", scr)
	}
	if tm.Display("#{alternate_on}") != "0" {
		t.Fatal("still in the alternate screen")
	}
}

// Where claude's own limit on blocks in a row ends a turn before hooksup's does (the person set
// it lower: hooksup raises claude's default 8 to its own budget at launch), the header says so
// in words.
func TestDemoHeaderNamesClaudesLimit(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg := s.Config("[stop]\nmax_continuations = 10\n")
	// hooksup raises claude's own cap to its budget at launch: no limit of claude's to name.
	env := append(append([]string{}, s.Env...), "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color")
	tm := e2e.StartTmux(t, 150, 42, env, s.Project, e2e.HooksupBin, "--config", cfg, "demo")
	tm.WaitText(20*time.Second, "Allow Bash(go test ./...)?", "continuations 0/10 this turn · 0 this session")
	// The person's own cap, below the budget, is kept, and named.
	env = append(env, "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=5")
	tm = e2e.StartTmux(t, 150, 42, env, s.Project, e2e.HooksupBin, "--config", cfg, "demo")
	tm.WaitText(20*time.Second, "Allow Bash(go test ./...)?", "continuations 0/10 this turn (claude allows 5 in a row) · 0 this session")
}

// The demo is self-contained and consistent: its header counts the tools its agent shows and
// names one model, it suggests no resume of a session that was only simulated, and it leaves
// nothing in the person's home (no transcript under ~/.claude/projects).
func TestDemoLeavesNothingBehind(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	env := append(append([]string{}, s.Env...), "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color")
	tm := e2e.StartTmux(t, 160, 42, env, s.Project, e2e.HooksupBin, "demo")
	const wait = 20 * time.Second
	tm.WaitText(wait, "Allow Bash(go test ./...)?")
	tm.Text("y")
	tm.WaitText(wait, "⚑ claude wants to stop")
	tm.Keys("C-]", "a")
	scr := tm.WaitText(wait, "attempt 2", "let stop (checks passed)")
	header := strings.SplitN(scr, "\n", 2)[0]
	// Read, Bash, Update, then Bash again after the continuation (the subagent's are its own).
	if m := regexp.MustCompile(`(\d+) tool calls`).FindStringSubmatch(header); m == nil || m[1] != "4" {
		t.Errorf("the header does not count the 4 tools shown: %q\n%s", header, scr)
	}
	if !strings.Contains(header, "claude-demo") {
		t.Errorf("the header does not name the demo's model: %q", header)
	}
	tm.Keys("C-]", "q")
	scr = tm.WaitText(wait, "[exited 0]")
	if strings.Contains(scr, "--resume") {
		t.Errorf("the demo suggests resuming a simulated session:\n%s", scr)
	}
	if strings.Contains(scr, "claude-sim") {
		t.Errorf("the demo names another model:\n%s", scr)
	}
	if _, err := os.Stat(filepath.Join(s.Home, ".claude")); !errors.Is(err, os.ErrNotExist) {
		entries, _ := filepath.Glob(filepath.Join(s.Home, ".claude", "*", "*"))
		t.Errorf("the demo left %s in the home directory: %v", filepath.Join(s.Home, ".claude"), entries)
	}
}
