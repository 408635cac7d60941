package claude

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/supervisor"
)

// Headless, nobody can be asked: ask mode applies the checks' proposal and says so.
func TestClaudeAskHeadlessAppliesTheProposal(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("one"), mockapi.Text("two")}})
	marker := filepath.Join(rc.Env.Home, "once")
	cfg := rc.Config(fmt.Sprintf("mode = \"ask\"\n[[stop.checks]]\nname = \"t\"\ncommand = \"test -f %[1]s || { touch %[1]s; exit 1; }\"\n", marker))
	res := rc.Hooksup("--config", cfg, "claude", "-p", "go")
	if res.ExitCode != 0 || res.Stdout != "two\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if got := e2e.Decisions(rc.Verdicts()); got != "Stop:block/check:t Stop:allow/checks" {
		t.Fatalf("verdicts %s", got)
	}
}

// Interrupt() while a check runs: claude is allowed to stop at once (it does not wait for the
// check), the verdict is escape, and the check's whole process group is gone.
func TestClaudeInterruptDuringCheck(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("done")}})
	pidFile := filepath.Join(rc.Env.Home, "check.pid")
	cfg := config.Defaults()
	cfg.Mode = config.ModeAuto
	cfg.Stop.Checks = []config.Check{{Name: "slow", Command: fmt.Sprintf(`sh -c 'echo $$ > %s; exec sleep 300' & sleep 300`, pidFile),
		Timeout: config.Duration{D: 5 * time.Minute}}}
	ctx, cancel := context.WithTimeout(t.Context(), e2e.ClaudeTimeout)
	defer cancel()
	env := append(rc.Env.Environ(), "XDG_STATE_HOME="+rc.State)
	sup, err := supervisor.New(supervisor.Options{
		Config: cfg, Agent: claude.Agent{}, Bin: rc.Env.Claude, Args: []string{"-p", "go"}, HooksupBin: e2e.HooksupBin, Events: rc.Events("-p"),
		ProjectDir: rc.Env.WorkDir, StateDir: filepath.Join(rc.State, "hooksup"), RuntimeDir: rc.Run, Env: env,
		Start: func(cmd *exec.Cmd) error { return rc.Srv.Start(cmd) },
	})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for ev := range sup.Events() {
			if _, ok := ev.(session.CheckStarted); ok {
				go func() {
					waitFile(t, pidFile)
					sup.Interrupt()
				}()
			}
		}
	}()
	start := time.Now()
	code, err := sup.Run(ctx)
	if err != nil || code != 0 {
		t.Fatalf("exit %d err %v", code, err)
	}
	if d := time.Since(start); d > 60*time.Second {
		t.Fatalf("claude waited for the check: %v", d)
	}
	vs := rc.Verdicts()
	if got := e2e.Decisions(vs); got != "Interrupted:allow/escape Stop:allow/escape" {
		t.Fatalf("verdicts %s", got)
	}
	if len(vs[1].Checks) != 1 || vs[1].Checks[0].Error != "interrupted" {
		t.Fatalf("check record %+v", vs[1].Checks)
	}
	e2e.AssertGoneProc(t, pidFile)
}

func waitFile(t *testing.T, path string) {
	for i := 0; i < 500; i++ {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("%s never appeared", path)
}

// A check that colours its output, sets a title and links: claude reads plain text, and so
// does the verdict log.
func TestClaudeReasonIsPlainText(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("Done."), mockapi.Text("Fixed.")}})
	marker := filepath.Join(rc.Env.Home, "once")
	script := filepath.Join(rc.Env.Home, "colour.sh")
	os.WriteFile(script, []byte(`#!/bin/sh
test -f `+marker+` && exit 0
touch `+marker+`
printf '\033]0;running tests\007\033[?25l'
printf '\033[1m\033[31mFAILED\033[0m TestParse\n'
printf 'see \033]8;;https://example.com/TestParse\033\\the docs\033]8;;\033\\ for why\n'
printf 'progress 10%%\rprogress 100%%\n'
printf 'a lone \033 escape, a bell \007 and a C1 \302\233 control\n'
exit 1
`), 0o755)
	cfg := rc.Config(fmt.Sprintf("mode = \"auto\"\n[[stop.checks]]\nname = \"tests\"\ncommand = %q\n", script))
	res := rc.Hooksup("--config", cfg, "claude", "-p", "go")
	if res.ExitCode != 0 || res.Stdout != "Fixed.\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	main := rc.Srv.Main()
	if len(main) != 2 {
		t.Fatalf("%d main requests, want 2", len(main))
	}
	fb := e2e.StopFeedback(t, main[1])
	if strings.ContainsAny(fb, "\x1b\x07\r\u009b") {
		t.Fatalf("claude read terminal controls: %q", fb)
	}
	for _, want := range []string{"FAILED TestParse", "see the docs for why", "progress 100%"} {
		if !strings.Contains(fb, want) {
			t.Errorf("claude's feedback lacks %q: %q", want, fb)
		}
	}
	vs := rc.VerdictsJSON()
	if len(vs) != 2 || vs[0].Decision != "block" || len(vs[0].Checks) != 1 {
		t.Fatalf("verdicts %+v", vs)
	}
	if out := vs[0].Checks[0].Output; !strings.Contains(out, "FAILED TestParse") || strings.ContainsAny(out, "\x1b\x07\r\u009b") {
		t.Fatalf("recorded output %q", out)
	}
	if strings.ContainsAny(vs[0].Reason, "\x1b\x07\r\u009b") {
		t.Fatalf("recorded reason %q", vs[0].Reason)
	}
}

// A check that prints 3,000 lines: claude reads the check's name, its exit code and the last
// 40 lines (reason_lines' default); the verdict log keeps the whole output (under its MiB).
func TestClaudeLongFailureIsConcise(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("Done."), mockapi.Text("Fixed.")}})
	marker := filepath.Join(rc.Env.Home, "once")
	cfg := rc.Config(fmt.Sprintf(`mode = "auto"
[[stop.checks]]
name = "tests"
command = "test -f %[1]s || { touch %[1]s; i=1; while [ $i -le 3000 ]; do echo \"line $i of the test log\"; i=$((i+1)); done; exit 3; }"
`, marker))
	res := rc.Hooksup("--config", cfg, "claude", "-p", "go")
	if res.ExitCode != 0 || res.Stdout != "Fixed.\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	main := rc.Srv.Main()
	if len(main) != 2 {
		t.Fatalf("%d main requests, want 2", len(main))
	}
	fb := e2e.StopFeedback(t, main[1])
	reason := strings.TrimPrefix(fb[strings.Index(fb, "Stop hook feedback:"):], "Stop hook feedback:\n")
	lines := strings.Split(strings.TrimRight(reason, "\n"), "\n")
	if len(lines) > 41 {
		t.Fatalf("claude read %d lines, want at most 40 and the header:\n%s", len(lines), reason)
	}
	if !strings.Contains(lines[0], `"tests"`) || !strings.Contains(lines[0], "exit 3") {
		t.Fatalf("header %q", lines[0])
	}
	if !strings.Contains(reason, "line 3000 of the test log") || !strings.Contains(reason, "line 2961 of the test log") ||
		strings.Contains(reason, "line 2960 of the test log") {
		t.Fatalf("claude did not read the last 40 lines:\n%s", reason)
	}
	vs := rc.VerdictsJSON()
	if len(vs) != 2 || len(vs[0].Checks) != 1 {
		t.Fatalf("verdicts %+v", vs)
	}
	out := vs[0].Checks[0].Output
	if !strings.HasPrefix(out, "line 1 of the test log\n") || !strings.HasSuffix(out, "line 3000 of the test log") {
		t.Fatalf("the verdict log keeps %d bytes of the output, not all of it: %.200q…", len(out), out)
	}
}

// The Stop comes right after claude's last message, before the transcript has it: the verdict's
// observation still has the turn's tokens and its last message's model.
func TestClaudeObservationHasTheTurnsTokens(t *testing.T) {
	t.Parallel()
	for i := 0; i < 5; i++ {
		rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{
			mockapi.Text("The answer is 42.").WithUsage(mockapi.Usage{InputTokens: 1111, OutputTokens: 222}),
		}})
		res := rc.Hooksup("--config", rc.Config(`mode = "auto"`), "claude", "-p", "what is the answer?")
		if res.ExitCode != 0 {
			t.Fatalf("exit %d stderr %q", res.ExitCode, res.Stderr)
		}
		vs := rc.VerdictsJSON()
		if len(vs) != 1 || vs[0].Observation == nil {
			t.Fatalf("verdicts %+v", vs)
		}
		o := vs[0].Observation
		if o.InputTokens < 1111 || o.OutputTokens < 222 {
			t.Fatalf("run %d: the verdict has %d input and %d output tokens, want the turn's 1111 and 222 (latency %.1f ms)", i, o.InputTokens, o.OutputTokens, vs[0].LatencyMS)
		}
	}
}
