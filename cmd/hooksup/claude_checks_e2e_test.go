package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/supervisor"
)

// Plain `claude -p` after `hooksup install`: no hooksup running, the installed hook runs the
// trusted project checks itself and claude continues once.
func TestClaudeInstalledStandalone(t *testing.T) {
	rc := newRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("first"), mockapi.Text("second")}})
	marker := filepath.Join(rc.env.Home, "once")
	os.WriteFile(filepath.Join(rc.env.WorkDir, ".hooksup.toml"), []byte(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "tests"
command = "test -f %[1]s || { touch %[1]s; echo 'FAIL: TestStandalone'; exit 1; }"
`, marker)), 0o644)
	for _, args := range [][]string{{"trust"}, {"install"}} {
		if res := rc.hooksup(args...); res.ExitCode != 0 {
			t.Fatalf("hooksup %v: %s %s", args, res.Stdout, res.Stderr)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), claudeTimeout)
	defer cancel()
	res := rc.srv.Run(rc.env.ClaudeCommand(ctx, "-p", "go"))
	if res.ExitCode != 0 || res.Stdout != "second\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	main := rc.srv.Main()
	if len(main) != 2 || !strings.Contains(main[1].LastUserText(), "FAIL: TestStandalone") {
		t.Fatalf("%d requests; feedback %q", len(main), lastUser(main))
	}
	if got := decisions(rc.verdicts()); got != "Stop:block/check:tests Stop:allow/checks" {
		t.Fatalf("verdicts %s", got)
	}
}

// Headless, nobody can be asked: ask mode applies the checks' proposal and says so.
func TestClaudeAskHeadlessAppliesTheProposal(t *testing.T) {
	rc := newRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("one"), mockapi.Text("two")}})
	marker := filepath.Join(rc.env.Home, "once")
	cfg := rc.config(fmt.Sprintf("mode = \"ask\"\n[[stop.checks]]\nname = \"t\"\ncommand = \"test -f %[1]s || { touch %[1]s; exit 1; }\"\n", marker))
	res := rc.hooksup("--config", cfg, "claude", "-p", "go")
	if res.ExitCode != 0 || res.Stdout != "two\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if got := decisions(rc.verdicts()); got != "Stop:block/check:t Stop:allow/checks" {
		t.Fatalf("verdicts %s", got)
	}
}

// Interrupt() while a check runs: claude is allowed to stop at once (it does not wait for the
// check), the verdict is escape, and the check's whole process group is gone.
func TestClaudeInterruptDuringCheck(t *testing.T) {
	rc := newRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("done")}})
	pidFile := filepath.Join(rc.env.Home, "check.pid")
	cfg := supervisor.Defaults()
	cfg.Mode = supervisor.ModeAuto
	cfg.Stop.Checks = []supervisor.Check{{Name: "slow", Command: fmt.Sprintf(`sh -c 'echo $$ > %s; exec sleep 300' & sleep 300`, pidFile),
		Timeout: supervisor.Duration{D: 5 * time.Minute}}}
	ctx, cancel := context.WithTimeout(t.Context(), claudeTimeout)
	defer cancel()
	env := append(rc.env.Environ(), "XDG_STATE_HOME="+rc.state)
	sup, err := supervisor.New(supervisor.Options{
		Config: cfg, ClaudeBin: rc.env.Claude, Args: []string{"-p", "go"}, HooksupBin: hooksupBin,
		ProjectDir: rc.env.WorkDir, StateDir: filepath.Join(rc.state, "hooksup"), RuntimeDir: rc.run, Env: env,
		Start: func(cmd *exec.Cmd) error { return rc.srv.Start(cmd) },
	})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for ev := range sup.Events() {
			if _, ok := ev.(supervisor.CheckStarted); ok {
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
	vs := rc.verdicts()
	if got := decisions(vs); got != "Interrupted:allow/escape Stop:allow/escape" {
		t.Fatalf("verdicts %s", got)
	}
	if len(vs[1].Checks) != 1 || vs[1].Checks[0].Error != "interrupted" {
		t.Fatalf("check record %+v", vs[1].Checks)
	}
	assertGoneProc(t, pidFile)
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

func assertGoneProc(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for i := 0; i < 100; i++ {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		if st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); strings.Contains(string(st), ") Z") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the check's child %d survived the interrupt", pid)
}
