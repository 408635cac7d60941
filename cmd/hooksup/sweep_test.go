package main

import (
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

	"github.com/hooksup/hooksup/internal/agentsim"
)

// hooksup SIGKILLed while a check runs: the check's shell dies with it (Pdeathsig, on Linux
// only) but the job the shell started in its process group lives on, as the whole group does
// on macOS. The next hooksup to start ends it and says so in its log.
func TestFaultSupervisorKilledCheckGroupSwept(t *testing.T) {
	s := newSandbox(t)
	started := filepath.Join(s.project, "check-started")
	jobFile := filepath.Join(s.project, "job.pid")
	cfg := s.config(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "slow"
command = "sleep 300 & echo $! > %s; echo started > %s; wait"
timeout = "10m"
`, jobFile, started))
	ls := s.startLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
	ls.waitReady()
	ls.waitFile(started)
	b, _ := os.ReadFile(jobFile)
	job, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || job <= 1 {
		t.Fatalf("the check's job: %q", b)
	}
	t.Cleanup(func() { syscall.Kill(job, syscall.SIGKILL) })
	records := filepath.Join(filepath.Dir(s.state), "run", "hooksup", "check-*.json")
	// The record is written just after the check's shell started.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		rec, _ := filepath.Glob(records)
		if len(rec) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("records of the running check's group: %v", rec)
		}
	}

	if err := ls.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if code := ls.wait(10 * time.Second); code != 128+9 {
		t.Fatalf("hooksup exit %d", code)
	}
	if gone(job) {
		t.Fatal("the check's job died with hooksup: nothing left to sweep")
	}

	r := s.runSim(s.config(`mode = "auto"`), agentsim.Scenario{}, "-p", "go")
	if r.code != 0 {
		t.Fatalf("the next hooksup: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	for deadline := time.Now().Add(10 * time.Second); !gone(job); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the check's job %d still runs after the next hooksup started", job)
		}
	}
	logText, _ := os.ReadFile(filepath.Join(s.stateDir(), "hooksup.log"))
	var line string
	for _, l := range strings.Split(string(logText), "\n") {
		if strings.Contains(l, "ended a check's process group left running by a hooksup that was killed") {
			line = l
		}
	}
	if !strings.Contains(line, "check=slow") || !strings.Contains(line, strconv.Itoa(job)) {
		t.Fatalf("no log line says the check's group was ended:\n%s", logText)
	}
	if left, _ := filepath.Glob(records); len(left) != 0 {
		t.Fatalf("records left: %v", left)
	}
}

// The installed hook (plain claude, no supervisor) SIGKILLed while its check runs: the next
// installed hook to run ends the job the check left, as a supervisor would.
func TestFaultInstalledHookKilledCheckGroupSwept(t *testing.T) {
	s := newSandbox(t)
	started := filepath.Join(s.project, "check-started")
	jobFile := filepath.Join(s.project, "job.pid")
	os.WriteFile(filepath.Join(s.project, ".hooksup.toml"), []byte(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "slow"
command = "test -f %[2]s && exit 0; sleep 300 & echo $! > %[1]s; echo started > %[2]s; wait"
timeout = "10m"
`, jobFile, started)), 0o644)
	if code, out := s.hooksup(t, "trust"); code != 0 {
		t.Fatal(out)
	}
	input := fmt.Sprintf(`{"session_id":"s-installed","transcript_path":%q,"cwd":%q,"hook_event_name":"Stop","stop_hook_active":false}`,
		filepath.Join(s.project, "t.jsonl"), s.project)
	hook := func() *exec.Cmd {
		cmd := exec.Command(hookClientBin, "Stop", "--installed")
		cmd.Dir, cmd.Env, cmd.Stdin = s.project, s.env, strings.NewReader(input)
		return cmd
	}

	first := hook()
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		rec, _ := filepath.Glob(filepath.Join(s.project, "..", "run", "hooksup", "check-*.json"))
		if _, err := os.Stat(started); err == nil && len(rec) == 1 {
			break
		}
		if time.Now().After(deadline) {
			first.Process.Kill()
			t.Fatalf("the check did not start with its group recorded (records %v)", rec)
		}
	}
	b, _ := os.ReadFile(jobFile)
	job, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || job <= 1 {
		t.Fatalf("the check's job: %q", b)
	}
	t.Cleanup(func() { syscall.Kill(job, syscall.SIGKILL) })
	first.Process.Signal(syscall.SIGKILL)
	first.Wait()
	if gone(job) {
		t.Fatal("the check's job died with the hook: nothing left to sweep")
	}

	if out, err := hook().CombinedOutput(); err != nil {
		t.Fatalf("the next installed hook: %v %s", err, out)
	}
	for deadline := time.Now().Add(10 * time.Second); !gone(job); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the check's job %d still runs after the next installed hook ran", job)
		}
	}
	logText, _ := os.ReadFile(filepath.Join(s.stateDir(), "hooksup.log"))
	if !strings.Contains(string(logText), "ended a check's process group left running by a hooksup that was killed") ||
		!strings.Contains(string(logText), strconv.Itoa(job)) {
		t.Fatalf("no log line says the check's group was ended:\n%s", logText)
	}
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
