package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// tuiWait bounds what the scenarios wait for on a screen.
const tuiWait = 90 * time.Second

// tui starts hooksup with the config file cfg over the agent's TUI in tmux, answers what the
// agent asks on its first run, and waits until it takes a prompt.
func (e *env) tui(cfg string) *e2e.Tmux {
	e.t.Helper()
	e.setenv("TERM", "xterm-256color")
	a := e.agent
	tm := e2e.StartTmux(e.t, 160, 45, e.environ(), e.workDir, append([]string{hooksupBin, "--config", cfg, a.name}, a.tuiArgs...)...)
	if a.firstRun != nil {
		a.firstRun(e.t, tm)
	}
	tm.WaitText(tuiWait, "hooksup", a.ready)
	return tm
}

// promptTUI types text into the agent's input and sends it, until the mock has the turn request
// it makes: a busy agent can lose an Enter (the text then stays in its input), and an Enter
// more on an empty input sends nothing.
func (e *env) promptTUI(tm *e2e.Tmux, text string) {
	e.t.Helper()
	n := len(e.turns())
	tm.TypeAfter(e.agent.inputPrompt, text)
	deadline := time.Now().Add(tuiWait)
	for len(e.turns()) == n {
		if time.Now().After(deadline) {
			e.t.Fatalf("%s sent no request for the prompt; screen:\n%s", e.agent.name, tm.Screen())
		}
		tm.Keys("Enter")
		for wait := time.Now().Add(5 * time.Second); len(e.turns()) == n && time.Now().Before(wait); {
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// waitVerdicts waits until the verdict log holds n verdicts.
func (e *env) waitVerdicts(tm *e2e.Tmux, n int) {
	e.t.Helper()
	tm.WaitFor("the verdicts", tuiWait, func(string) bool { return len(e.verdicts()) >= n })
}

// Escape while a check runs: the stop is allowed by Escape at once (the check is ended), the
// agent is interrupted and asks the model nothing more.
func TestScenarioEscapeDuringACheck(t *testing.T) {
	forEach(t, func(t *testing.T, a *agent) {
		e := a.start(t, texts("ANSWER-ONE", "WRONG: A CONTINUATION"), true)
		started := filepath.Join(e.home, "check-started")
		cfg := e.config(`mode = "auto"
[[stop.checks]]
name = "slow"
command = "touch ` + started + `; while true; do sleep 0.1; done"
timeout = "5m"
`)
		tm := e.tui(cfg)
		e.promptTUI(tm, "first prompt")
		tm.WaitFor("the check to start", tuiWait, func(string) bool {
			_, err := os.Stat(started)
			return err == nil
		})
		tm.Keys("Escape")
		tm.WaitText(tuiWait, "let stop (Escape)")
		e.waitVerdicts(tm, 2)
		if got := e.decisions(); got != "Interrupted:allow/escape Stop:allow/escape" {
			t.Fatalf("verdicts %s\nscreen:\n%s", got, tm.Screen())
		}
		if vs := e.verdicts(); len(vs[1].Checks) != 1 || vs[1].Checks[0].Error != "interrupted" {
			t.Fatalf("the check's record %+v", vs[1].Checks)
		}
		// The agent is back at its input, and asked nothing more.
		tm.TypeAfter(a.inputPrompt, "still here")
		if turns := e.turns(); len(turns) != 1 {
			t.Fatalf("%s made %d turn requests after Escape, want 1\nscreen:\n%s\nlog:\n%s", a.name, len(turns), tm.Screen(), e.log())
		}
	})
}

// hooksup halt from another shell while the stop waits on the person: the turn ends, the agent
// asks the model nothing more, and the verdict log says halt.
func TestScenarioHalt(t *testing.T) {
	forEach(t, func(t *testing.T, a *agent) {
		e := a.start(t, texts("ANSWER-ONE", "WRONG: A CONTINUATION"), true)
		cfg := e.config(`
mode = "ask"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestHalt'; exit 1"
retry_on_failure = true
`)
		tm := e.tui(cfg)
		e.promptTUI(tm, "first prompt")
		tm.WaitText(tuiWait, "ANSWER-ONE", "⚑ "+a.name+" wants to stop", "FAIL: TestHalt")
		if h := e.hooksup("halt", "--reason", "wrong branch"); h.ExitCode != 0 || !strings.Contains(h.Stdout, "the turn ends at") {
			t.Fatalf("halt: exit %d\n%s%s", h.ExitCode, h.Stdout, h.Stderr)
		}
		if a.halted != nil {
			tm.WaitText(tuiWait, a.halted("wrong branch"))
		}
		e.waitVerdicts(tm, 1)
		if got := e.decisions(); got != "Stop:halt/manual (hooksup halt)" {
			t.Fatalf("verdicts %s\nscreen:\n%s", got, tm.Screen())
		}
		tm.TypeAfter(a.inputPrompt, "still here")
		if turns := e.turns(); len(turns) != 1 {
			t.Fatalf("%s made %d turn requests after the halt, want 1\nscreen:\n%s", a.name, len(turns), tm.Screen())
		}
	})
}
