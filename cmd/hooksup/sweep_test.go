package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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

// pgidOf is the process group of pid, from /proc (0: no such process).
func pgidOf(pid int) int {
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	i := bytes.LastIndexByte(st, ')')
	if err != nil || i < 0 {
		return 0
	}
	f := strings.Fields(string(st[i+1:])) // state, ppid, pgrp, …
	if len(f) < 3 {
		return 0
	}
	pgid, _ := strconv.Atoi(f[2])
	return pgid
}

// groupMembers lists the live processes (zombies are dead) of the process group pgid.
func groupMembers(pgid int) []int {
	var pids []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		st, err := os.ReadFile(p)
		i := bytes.LastIndexByte(st, ')')
		if err != nil || i < 0 {
			continue
		}
		f := strings.Fields(string(st[i+1:]))
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			pids = append(pids, pid)
		}
	}
	return pids
}

// groupGoneBy waits until no process of the group pgid is alive, or until deadline: what is
// still alive then.
func groupGoneBy(pgid int, deadline time.Time) []int {
	for {
		m := groupMembers(pgid)
		if len(m) == 0 || time.Now().After(deadline) {
			return m
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// runningCheck is a check that starts two background jobs, writes their pids and its shell's,
// says it started, and waits for them.
type runningCheck struct {
	jobs, shell, started string
}

func newRunningCheck(s *sandbox) runningCheck {
	return runningCheck{jobs: filepath.Join(s.project, "jobs"), shell: filepath.Join(s.project, "shell.pid"),
		started: filepath.Join(s.project, "check-started")}
}

func (c runningCheck) command() string {
	return fmt.Sprintf("sleep 300 & echo $! >> %[1]s; sleep 300 & echo $! >> %[1]s; echo $$ > %[2]s; echo started > %[3]s; wait",
		c.jobs, c.shell, c.started)
}

// group waits for the check to have started and returns its process group (killed when the
// test ends) and its shell's pid.
func (c runningCheck) group(t *testing.T) (pgid, shell int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(c.started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the check never started")
		}
	}
	b, _ := os.ReadFile(c.jobs)
	jobs := strings.Fields(string(b))
	job, _ := strconv.Atoi(jobs[0])
	b, _ = os.ReadFile(c.shell)
	shell, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	pgid = pgidOf(job)
	if len(jobs) != 2 || pgid <= 1 || shell <= 1 {
		t.Fatalf("the check's jobs %q (group %d), its shell %d", b, pgid, shell)
	}
	t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	if m := groupMembers(pgid); len(m) < 3 {
		t.Fatalf("the check's group %d has %v, want its shell and its two jobs", pgid, m)
	}
	return pgid, shell
}

// hooksup SIGKILLed while a check runs: within 2 s no process of the check's group is alive —
// neither its shell nor the jobs it started — with nothing else started.
func TestFaultSupervisorKilledMidCheckLeavesNoProcess(t *testing.T) {
	s := newSandbox(t)
	c := newRunningCheck(s)
	cfg := s.config(fmt.Sprintf("mode = \"auto\"\n[[stop.checks]]\nname = \"slow\"\ncommand = %q\ntimeout = \"10m\"\n", c.command()))
	ls := s.startLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
	ls.waitReady()
	pgid, _ := c.group(t)

	if err := ls.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	if code := ls.wait(10 * time.Second); code != 128+9 {
		t.Fatalf("hooksup exit %d", code)
	}
	if left := groupGoneBy(pgid, killed.Add(checkGoneWithin)); len(left) > 0 {
		t.Fatalf("processes %v of the check's group %d still alive %s after hooksup was killed", left, pgid, checkGoneWithin)
	}
	t.Logf("the check's group was gone %s after hooksup was killed", time.Since(killed).Round(time.Millisecond))
}

// The same for the hook `hooksup install` registers, SIGKILLed mid-check as claude does a hook
// past its timeout.
func TestFaultInstalledHookKilledMidCheckLeavesNoProcess(t *testing.T) {
	s := newSandbox(t)
	c := newRunningCheck(s)
	os.WriteFile(filepath.Join(s.project, ".hooksup.toml"), []byte(fmt.Sprintf(
		"mode = \"auto\"\n[[stop.checks]]\nname = \"slow\"\ncommand = %q\ntimeout = \"10m\"\n", c.command())), 0o644)
	if code, out := s.hooksup(t, "trust", "--yes"); code != 0 {
		t.Fatal(out)
	}
	hook := s.installedHook("s-installed")
	if err := hook.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { hook.Wait(); close(done) }()
	t.Cleanup(func() { hook.Process.Kill(); <-done })
	pgid, _ := c.group(t)

	hook.Process.Signal(syscall.SIGKILL)
	killed := time.Now()
	<-done
	if left := groupGoneBy(pgid, killed.Add(checkGoneWithin)); len(left) > 0 {
		t.Fatalf("processes %v of the check's group %d still alive %s after the hook was killed", left, pgid, checkGoneWithin)
	}
	t.Logf("the check's group was gone %s after the hook was killed", time.Since(killed).Round(time.Millisecond))
}

// installedHook is hooksup-hook run as the hook `hooksup install` registers, on a Stop of session.
func (s *sandbox) installedHook(session string) *exec.Cmd {
	input := fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":%q,"hook_event_name":"Stop","stop_hook_active":false}`,
		session, filepath.Join(s.project, "t.jsonl"), s.project)
	cmd := exec.Command(hookClientBin, "Stop", "--installed")
	cmd.Dir, cmd.Env, cmd.Stdin = s.project, s.env, strings.NewReader(input)
	return cmd
}

// killedWithItsWatchdog leaves a check's jobs running as only a hooksup killed together with
// what watches its check can: the check's group is recorded, the process that would have ended
// it is killed first, then hooksup. It returns the group and the jobs' pids.
func killedWithItsWatchdog(t *testing.T, s *sandbox, c runningCheck) (pgid int, hooksupPid int) {
	t.Helper()
	cfg := s.config(fmt.Sprintf("mode = \"auto\"\n[[stop.checks]]\nname = \"slow\"\ncommand = %q\ntimeout = \"10m\"\n", c.command()))
	ls := s.startLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
	ls.waitReady()
	pgid, shell := c.group(t)
	records := filepath.Join(filepath.Dir(s.state), "run", "hooksup", "check-*.json")
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
	if err := ls.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if code := ls.wait(10 * time.Second); code != 128+9 {
		t.Fatalf("hooksup exit %d", code)
	}
	// Its jobs live on (the shell may have died with hooksup: Pdeathsig).
	time.Sleep(100 * time.Millisecond)
	if m := groupMembers(pgid); len(m) < 2 {
		t.Fatalf("the check's group %d died with hooksup and its watchdog: %v, nothing left to sweep", pgid, m)
	}
	return pgid, ls.cmd.Process.Pid
}

// sweptNotice is what the person is told of a check's group that a sweep ended.
func sweptNotice(c runningCheck, hooksupPid int) string {
	return fmt.Sprintf("ended what the check \"slow\" left running (`%s`): the hooksup (pid %d) that ran it was killed", c.command(), hooksupPid)
}

// What a killed hooksup's check left running, and its watchdog did not end, the next hooksup
// command ends, and tells the person once, naming the check's command and that a killed
// hooksup left it: the next session (headless: on stderr; in the TUI: a notice), `hooksup
// check` on stderr, the installed hook in its systemMessage.
func TestFaultCheckGroupLeftRunningIsEndedAndToldOnce(t *testing.T) {
	t.Run("next session", func(t *testing.T) {
		s := newSandbox(t)
		c := newRunningCheck(s)
		pgid, owner := killedWithItsWatchdog(t, s, c)
		r := s.runSim(s.config(`mode = "auto"`), agentsim.Scenario{}, "-p", "go")
		if r.code != 0 {
			t.Fatalf("the next hooksup: exit %d, stderr:\n%s", r.code, r.stderr)
		}
		if left := groupGoneBy(pgid, time.Now().Add(10*time.Second)); len(left) > 0 {
			t.Fatalf("processes %v of the check's group still run after the next hooksup started", left)
		}
		if n := strings.Count(r.stderr, "hooksup: "+sweptNotice(c, owner)+"\n"); n != 1 {
			t.Fatalf("the next session said %d times that it ended the check's processes; stderr:\n%s\nwant:\n%s", n, r.stderr, sweptNotice(c, owner))
		}
		again := s.runSim(s.config(`mode = "auto"`), agentsim.Scenario{}, "-p", "go")
		if strings.Contains(again.stderr, "ended what the check") {
			t.Fatalf("the session after that said it again:\n%s", again.stderr)
		}
	})
	t.Run("next session in the TUI", func(t *testing.T) {
		e2e.RequireTmux(t)
		s := newSandbox(t)
		c := newRunningCheck(s)
		pgid, owner := killedWithItsWatchdog(t, s, c)
		tm := e2e.StartTmux(t, 330, 30, append(append([]string{}, s.env...), "TERM=xterm-256color"), s.project, hooksupBin, "demo")
		scr := tm.WaitText(20*time.Second, "⚠ "+sweptNotice(c, owner))
		if n := strings.Count(scr, "ended what the check"); n != 1 {
			t.Fatalf("the TUI says it %d times:\n%s", n, scr)
		}
		if left := groupGoneBy(pgid, time.Now().Add(10*time.Second)); len(left) > 0 {
			t.Fatalf("processes %v of the check's group still run after the next hooksup started", left)
		}
	})
	t.Run("hooksup check", func(t *testing.T) {
		s := newSandbox(t)
		c := newRunningCheck(s)
		pgid, owner := killedWithItsWatchdog(t, s, c)
		cfg := s.config("[[stop.checks]]\nname = \"quick\"\ncommand = \"true\"\n")
		cmd := execHooksup(s, "--config", cfg, "check")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), "✓ quick") {
			t.Fatalf("hooksup check: %v\n%s\n%s", err, out, stderr.String())
		}
		if got := stderr.String(); got != "hooksup: "+sweptNotice(c, owner)+"\n" {
			t.Fatalf("hooksup check's stderr:\n%s\nwant:\nhooksup: %s", got, sweptNotice(c, owner))
		}
		if left := groupGoneBy(pgid, time.Now().Add(10*time.Second)); len(left) > 0 {
			t.Fatalf("processes %v of the check's group still run after hooksup check", left)
		}
		cmd = execHooksup(s, "--config", cfg, "check")
		if out, _ := cmd.CombinedOutput(); strings.Contains(string(out), "ended what the check") {
			t.Fatalf("the next hooksup check said it again:\n%s", out)
		}
	})
	t.Run("installed hook", func(t *testing.T) {
		s := newSandbox(t)
		c := newRunningCheck(s)
		pgid, owner := killedWithItsWatchdog(t, s, c)
		os.WriteFile(filepath.Join(s.project, ".hooksup.toml"), []byte("mode = \"auto\"\n[[stop.checks]]\nname = \"quick\"\ncommand = \"true\"\n"), 0o644)
		if code, out := s.hooksup(t, "trust", "--yes"); code != 0 {
			t.Fatal(out)
		}
		answer := func() string {
			out, err := s.installedHook("s-next").Output()
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
		if left := groupGoneBy(pgid, time.Now().Add(10*time.Second)); len(left) > 0 {
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
	s := newSandbox(t)
	runDir := filepath.Join(filepath.Dir(s.state), "run", "hooksup")
	ls := s.startLive(s.config(`mode = "auto"`), agentsim.Scenario{WorkDelay: agentsim.Duration{Duration: 10 * time.Minute}}, nil, "-p", "go")
	ls.waitReady()
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
	if err := ls.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if code := ls.wait(10 * time.Second); code != 128+9 {
		t.Fatalf("hooksup exit %d", code)
	}
	syscall.Kill(ls.agentPID(), syscall.SIGKILL)
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

	if r := s.runSim(s.config(`mode = "auto"`), agentsim.Scenario{}, "-p", "go"); r.code != 0 {
		t.Fatalf("the next hooksup: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if traces, _ := filepath.Glob(filepath.Join(runDir, id+"*")); len(traces) > 0 {
		t.Fatalf("the killed session's files are still in the runtime directory: %v", traces)
	}
}
