package headless

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/internal/agentsim"
)

// checkGoneWithin is the promise: no process of a check's group is alive this long after the
// hooksup running it was killed with SIGKILL.
const checkGoneWithin = 2 * time.Second

// hooksup SIGKILLed while a check runs: within 2 s no process of the check's group is alive —
// neither its shell nor the jobs it started — with nothing else started.
func TestFaultSupervisorKilledMidCheckLeavesNoProcess(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	c := e2e.NewRunningCheck(s)
	cfg := s.Config(fmt.Sprintf("mode = \"auto\"\n[[stop.checks]]\nname = \"slow\"\ncommand = %q\ntimeout = \"10m\"\n", c.Command()))
	ls := s.StartLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
	ls.WaitReady()
	pgid, _ := c.Group(t)

	if err := ls.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	if code := ls.Wait(10 * time.Second); code != 128+9 {
		t.Fatalf("hooksup exit %d", code)
	}
	if left := e2e.GroupGoneBy(pgid, killed.Add(checkGoneWithin)); len(left) > 0 {
		t.Fatalf("processes %v of the check's group %d still alive %s after hooksup was killed", left, pgid, checkGoneWithin)
	}
	t.Logf("the check's group was gone %s after hooksup was killed", time.Since(killed).Round(time.Millisecond))
}

// The same for the hook `hooksup install` registers, SIGKILLed mid-check as claude does a hook
// past its timeout.
func TestFaultInstalledHookKilledMidCheckLeavesNoProcess(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	c := e2e.NewRunningCheck(s)
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte(fmt.Sprintf(
		"mode = \"auto\"\n[[stop.checks]]\nname = \"slow\"\ncommand = %q\ntimeout = \"10m\"\n", c.Command())), 0o644)
	if code, out := s.Hooksup(t, "trust", "--yes"); code != 0 {
		t.Fatal(out)
	}
	hook := s.InstalledHook("s-installed")
	if err := hook.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { hook.Wait(); close(done) }()
	t.Cleanup(func() { hook.Process.Kill(); <-done })
	pgid, _ := c.Group(t)

	hook.Process.Signal(syscall.SIGKILL)
	killed := time.Now()
	<-done
	if left := e2e.GroupGoneBy(pgid, killed.Add(checkGoneWithin)); len(left) > 0 {
		t.Fatalf("processes %v of the check's group %d still alive %s after the hook was killed", left, pgid, checkGoneWithin)
	}
	t.Logf("the check's group was gone %s after the hook was killed", time.Since(killed).Round(time.Millisecond))
}

// killedWithItsWatchdog leaves a check's jobs running as only a hooksup killed together with
// what watches its check can: the check's group is recorded, the process that would have ended
// it is killed first, then hooksup. It returns the group and the jobs' pids.
func killedWithItsWatchdog(t *testing.T, s *e2e.Sandbox, c e2e.RunningCheck) (pgid int, hooksupPid int) {
	t.Helper()
	cfg := s.Config(fmt.Sprintf("mode = \"auto\"\n[[stop.checks]]\nname = \"slow\"\ncommand = %q\ntimeout = \"10m\"\n", c.Command()))
	ls := s.StartLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
	ls.WaitReady()
	pgid, shell := c.Group(t)
	records := filepath.Join(filepath.Dir(s.State), "run", "hooksup", "check-*.json")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if rec, _ := filepath.Glob(records); len(rec) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the running check's group was never recorded")
		}
	}
	// The group's leader, when it is not the check's shell, is what watches it for hooksup.
	if pgid != shell {
		syscall.Kill(pgid, syscall.SIGKILL)
	}
	if err := ls.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if code := ls.Wait(10 * time.Second); code != 128+9 {
		t.Fatalf("hooksup exit %d", code)
	}
	// Its jobs live on (the shell may have died with hooksup: Pdeathsig).
	time.Sleep(100 * time.Millisecond)
	if m := e2e.GroupMembers(pgid); len(m) < 2 {
		t.Fatalf("the check's group %d died with hooksup and its watchdog: %v, nothing left to sweep", pgid, m)
	}
	return pgid, ls.Cmd.Process.Pid
}

// sweptNotice is what the person is told of a check's group that a sweep ended.
func sweptNotice(c e2e.RunningCheck, hooksupPid int) string {
	return fmt.Sprintf("ended what the check \"slow\" left running (`%s`): the hooksup (pid %d) that ran it was killed", c.Command(), hooksupPid)
}

// What a killed hooksup's check left running, and its watchdog did not end, the next hooksup
// command ends, and tells the person once, naming the check's command and that a killed
// hooksup left it: the next session (headless: on stderr; in the TUI: a notice), `hooksup
// check` on stderr, the installed hook in its systemMessage.
func TestFaultCheckGroupLeftRunningIsEndedAndToldOnce(t *testing.T) {
	t.Parallel()
	t.Run("next session", func(t *testing.T) {
		s := e2e.NewSandbox(t)
		c := e2e.NewRunningCheck(s)
		pgid, owner := killedWithItsWatchdog(t, s, c)
		r := s.RunSim(s.Config(`mode = "auto"`), agentsim.Scenario{}, "-p", "go")
		if r.Code != 0 {
			t.Fatalf("the next hooksup: exit %d, stderr:\n%s", r.Code, r.Stderr)
		}
		if left := e2e.GroupGoneBy(pgid, time.Now().Add(10*time.Second)); len(left) > 0 {
			t.Fatalf("processes %v of the check's group still run after the next hooksup started", left)
		}
		if n := strings.Count(r.Stderr, "hooksup: "+sweptNotice(c, owner)+"\n"); n != 1 {
			t.Fatalf("the next session said %d times that it ended the check's processes; stderr:\n%s\nwant:\n%s", n, r.Stderr, sweptNotice(c, owner))
		}
		again := s.RunSim(s.Config(`mode = "auto"`), agentsim.Scenario{}, "-p", "go")
		if strings.Contains(again.Stderr, "ended what the check") {
			t.Fatalf("the session after that said it again:\n%s", again.Stderr)
		}
	})
	t.Run("next session in the TUI", func(t *testing.T) {
		e2e.RequireTmux(t)
		s := e2e.NewSandbox(t)
		c := e2e.NewRunningCheck(s)
		pgid, owner := killedWithItsWatchdog(t, s, c)
		tm := e2e.StartTmux(t, 330, 30, append(append([]string{}, s.Env...), "TERM=xterm-256color"), s.Project, e2e.HooksupBin, "demo")
		scr := tm.WaitText(20*time.Second, "⚠ "+sweptNotice(c, owner))
		if n := strings.Count(scr, "ended what the check"); n != 1 {
			t.Fatalf("the TUI says it %d times:\n%s", n, scr)
		}
		if left := e2e.GroupGoneBy(pgid, time.Now().Add(10*time.Second)); len(left) > 0 {
			t.Fatalf("processes %v of the check's group still run after the next hooksup started", left)
		}
	})
	t.Run("hooksup check", func(t *testing.T) {
		s := e2e.NewSandbox(t)
		c := e2e.NewRunningCheck(s)
		pgid, owner := killedWithItsWatchdog(t, s, c)
		cfg := s.Config("[[stop.checks]]\nname = \"quick\"\ncommand = \"true\"\n")
		cmd := e2e.ExecHooksup(s, "--config", cfg, "check")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), "✓ quick") {
			t.Fatalf("hooksup check: %v\n%s\n%s", err, out, stderr.String())
		}
		if got := stderr.String(); got != "hooksup: "+sweptNotice(c, owner)+"\n" {
			t.Fatalf("hooksup check's stderr:\n%s\nwant:\nhooksup: %s", got, sweptNotice(c, owner))
		}
		if left := e2e.GroupGoneBy(pgid, time.Now().Add(10*time.Second)); len(left) > 0 {
			t.Fatalf("processes %v of the check's group still run after hooksup check", left)
		}
		cmd = e2e.ExecHooksup(s, "--config", cfg, "check")
		if out, _ := cmd.CombinedOutput(); strings.Contains(string(out), "ended what the check") {
			t.Fatalf("the next hooksup check said it again:\n%s", out)
		}
	})
	t.Run("installed hook", func(t *testing.T) {
		s := e2e.NewSandbox(t)
		c := e2e.NewRunningCheck(s)
		pgid, owner := killedWithItsWatchdog(t, s, c)
		os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte("mode = \"auto\"\n[[stop.checks]]\nname = \"quick\"\ncommand = \"true\"\n"), 0o644)
		if code, out := s.Hooksup(t, "trust", "--yes"); code != 0 {
			t.Fatal(out)
		}
		answer := func() string {
			out, err := s.InstalledHook("s-next").Output()
			if err != nil {
				t.Fatalf("the installed hook: %v %s", err, out)
			}
			if len(bytes.TrimSpace(out)) == 0 {
				return ""
			}
			var a struct{ SystemMessage string }
			if err := json.Unmarshal(out, &a); err != nil {
				t.Fatalf("the installed hook's answer %q: %v", out, err)
			}
			return a.SystemMessage
		}
		if got := answer(); got != "hooksup: "+sweptNotice(c, owner) {
			t.Fatalf("the installed hook's systemMessage:\n%s\nwant:\nhooksup: %s", got, sweptNotice(c, owner))
		}
		if left := e2e.GroupGoneBy(pgid, time.Now().Add(10*time.Second)); len(left) > 0 {
			t.Fatalf("processes %v of the check's group still run after the next installed hook", left)
		}
		if got := answer(); got != "" {
			t.Fatalf("the next installed hook said: %s", got)
		}
	})
}

// hooksup SIGKILLed in a session: the next session to start removes everything the killed one
// left in the runtime directory — its registration and control socket as well as its hook
// socket and settings file — without anyone running hooksup ls (which would remove them too).
func TestFaultSupervisorKilledLeavesNothingAfterNextStart(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	runDir := filepath.Join(filepath.Dir(s.State), "run", "hooksup")
	ls := s.StartLive(s.Config(`mode = "auto"`), agentsim.Scenario{WorkDelay: agentsim.Duration{Duration: 10 * time.Minute}}, nil, "-p", "go")
	ls.WaitReady()
	var left []string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		left, _ = filepath.Glob(filepath.Join(runDir, "*.session.json"))
		if len(left) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session never registered: %v", left)
		}
	}
	id := strings.TrimSuffix(filepath.Base(left[0]), ".session.json")
	if err := ls.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if code := ls.Wait(10 * time.Second); code != 128+9 {
		t.Fatalf("hooksup exit %d", code)
	}
	syscall.Kill(ls.AgentPID(), syscall.SIGKILL)
	traces, _ := filepath.Glob(filepath.Join(runDir, id+".*"))
	for _, ext := range []string{".sock", ".ctl", ".session.json", ".settings.json"} {
		if !slices.Contains(traces, filepath.Join(runDir, id+ext)) {
			t.Fatalf("the killed session left no %s to sweep: %v", ext, traces)
		}
	}
	// A hook socket younger than 10 s may be a session still starting up, and is kept: these are
	// a minute old, as a killed session's usually are by the time the next one starts.
	old := time.Now().Add(-time.Minute)
	for _, p := range traces {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}

	if r := s.RunSim(s.Config(`mode = "auto"`), agentsim.Scenario{}, "-p", "go"); r.Code != 0 {
		t.Fatalf("the next hooksup: exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	if traces, _ := filepath.Glob(filepath.Join(runDir, id+"*")); len(traces) > 0 {
		t.Fatalf("the killed session's files are still in the runtime directory: %v", traces)
	}
}

// The installed hook with no supervisor decides the stop through hooksup, found beside
// hooksup-hook or on PATH. A hooksup-hook copied somewhere alone still decides through the
// hooksup on PATH (the failing check blocks the stop); with no hooksup anywhere it allows the
// stop, and hooksup's log says what is missing and what to do.
func TestInstalledHookFindsHooksup(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.WriteFile(filepath.Join(s.Project, ".hooksup.toml"), []byte("mode = \"auto\"\n[[stop.checks]]\nname = \"fails\"\ncommand = \"echo SEEDED-FAILURE; exit 1\"\n"), 0o644)
	if code, out := s.Hooksup(t, "trust", "--yes"); code != 0 {
		t.Fatal(out)
	}
	alone := filepath.Join(t.TempDir(), "hooksup-hook")
	b, err := os.ReadFile(e2e.HookClientBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, b, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(path string) (int, string) {
		hook := s.InstalledHook("s-find")
		hook.Path, hook.Args[0] = alone, alone
		var out bytes.Buffer
		hook.Stdout = &out
		for i, kv := range hook.Env {
			if strings.HasPrefix(kv, "PATH=") {
				hook.Env[i] = "PATH=" + path
			}
		}
		err := hook.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String()
	}

	code, out := run(filepath.Dir(e2e.HooksupBin) + ":/usr/bin:/bin")
	if code != 0 || !strings.Contains(out, `"decision":"block"`) || !strings.Contains(out, "SEEDED-FAILURE") {
		t.Fatalf("with hooksup on PATH the failing check did not block: exit %d, stdout %q", code, out)
	}

	code, out = run("/usr/bin:/bin")
	if code != 0 || out != "" {
		t.Fatalf("with no hooksup: exit %d, stdout %q; want the stop allowed", code, out)
	}
	log, _ := os.ReadFile(filepath.Join(s.StateDir(), "hooksup.log"))
	if !strings.Contains(string(log), "hook Stop: the installed hook decides a stop through hooksup, which did not start: no hooksup beside hooksup-hook nor on PATH; install hooksup and hooksup-hook side by side (allowed)") {
		t.Fatalf("hooksup's log does not say why the stop was allowed:\n%s", log)
	}
}
