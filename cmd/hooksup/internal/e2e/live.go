package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/agentsim"
)

// LiveSession is `hooksup claude -p` running in the background with the simulated claude,
// wrapped in a script that records what claude got from hooksup — its environment (the socket,
// the token), its --settings file and its pid — before it becomes the simulated claude. Fault
// and security tests use it to act on a session while it runs.
type LiveSession struct {
	t      *testing.T
	s      *Sandbox
	Cmd    *exec.Cmd
	Rec    string // the wrapper's records
	trace  string
	stdout string
	Stderr string
	done   chan struct{}
}

// StartLive starts hooksup with cfg (no --config when ""), scenario sc, the extra environment
// and the args after `claude`.
func (s *Sandbox) StartLive(cfg string, sc agentsim.Scenario, extraEnv []string, args ...string) *LiveSession {
	s.t.Helper()
	return s.StartLiveWith(nil, nil, cfg, sc, extraEnv, args...)
}

// StartLiveWith is startLive with a command that runs hooksup (prefix, e.g. a shell that sets
// a umask and execs it) and global flags before `claude`.
func (s *Sandbox) StartLiveWith(prefix, globals []string, cfg string, sc agentsim.Scenario, extraEnv []string, args ...string) *LiveSession {
	t := s.t
	t.Helper()
	ls := &LiveSession{t: t, s: s, Rec: filepath.Join(s.Project, "rec"), trace: filepath.Join(s.Project, "trace.jsonl"),
		stdout: filepath.Join(s.Project, "stdout"), Stderr: filepath.Join(s.Project, "stderr"), done: make(chan struct{})}
	if err := os.MkdirAll(ls.Rec, 0o700); err != nil {
		t.Fatal(err)
	}
	self := SimAgentBin
	wrapper := filepath.Join(ls.Rec, "claude")
	script := fmt.Sprintf(`#!/bin/sh
d=%s
env > "$d/env"
if [ "$1" = --settings ]; then printf %%s "$2" > "$d/settings.path"; cp "$2" "$d/settings.json"; fi
echo $$ > "$d/pid.new" && mv "$d/pid.new" "$d/pid"
exec %s "$@"
`, ShellQuote(ls.Rec), ShellQuote(self))
	if err := os.WriteFile(wrapper, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	argv := append([]string{HooksupBin}, globals...)
	if cfg != "" {
		argv = append(argv, "--config", cfg)
	}
	argv = append(append(argv, "--claude-bin", wrapper, "claude"), args...)
	argv = append(append([]string{}, prefix...), argv...)
	scb, _ := json.Marshal(sc)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.Project
	cmd.Env = append(append(append([]string{}, s.Env...), EnvSimAgent+"=1", agentsim.EnvScenario+"="+string(scb),
		agentsim.EnvTrace+"="+ls.trace), extraEnv...)
	// Files, not pipes: the simulated claude may outlive hooksup and hold them open.
	out, err1 := os.Create(ls.stdout)
	errf, err2 := os.Create(ls.Stderr)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	cmd.Stdout, cmd.Stderr = out, errf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out.Close()
	errf.Close()
	ls.Cmd = cmd
	go func() { cmd.Wait(); close(ls.done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-ls.done
		if pid := ls.AgentPID(); pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return ls
}

// WaitReady waits until claude has started and recorded what hooksup gave it.
func (ls *LiveSession) WaitReady() {
	ls.t.Helper()
	ls.WaitFile(filepath.Join(ls.Rec, "pid"))
}

func (ls *LiveSession) WaitFile(path string) {
	ls.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return
		}
		select {
		case <-ls.done:
			ls.t.Fatalf("hooksup exited before %s appeared; stderr:\n%s", path, ls.ErrText())
		case <-time.After(10 * time.Millisecond):
		}
	}
	ls.t.Fatalf("%s never appeared; stderr:\n%s", path, ls.ErrText())
}

// Env is a variable of claude's environment as hooksup set it.
func (ls *LiveSession) Env(key string) string {
	b, _ := os.ReadFile(filepath.Join(ls.Rec, "env"))
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+"="); ok {
			return v
		}
	}
	return ""
}

// HookEnv is the environment of a hook claude runs: the sandbox's plus hooksup's variables.
func (ls *LiveSession) HookEnv() []string {
	return append(append([]string{}, ls.s.Env...), hooks.EnvSocket+"="+ls.Env(hooks.EnvSocket),
		hooks.EnvToken+"="+ls.Env(hooks.EnvToken), hooks.EnvLog+"="+ls.Env(hooks.EnvLog))
}

func (ls *LiveSession) AgentPID() int {
	b, _ := os.ReadFile(filepath.Join(ls.Rec, "pid"))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

func (ls *LiveSession) SettingsPath() string {
	b, _ := os.ReadFile(filepath.Join(ls.Rec, "settings.path"))
	return string(b)
}

// Wait waits for hooksup to exit and returns its exit status.
func (ls *LiveSession) Wait(timeout time.Duration) int {
	ls.t.Helper()
	select {
	case <-ls.done:
	case <-time.After(timeout):
		ls.t.Fatalf("hooksup did not exit within %v; stderr:\n%s", timeout, ls.ErrText())
	}
	ws := ls.Cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

func (ls *LiveSession) ErrText() string { b, _ := os.ReadFile(ls.Stderr); return string(b) }

func (ls *LiveSession) OutText() string { b, _ := os.ReadFile(ls.stdout); return string(b) }

// traceEntries reads what the simulated claude saw so far.
func (ls *LiveSession) traceEntries() []agentsim.TraceEntry {
	f, err := os.Open(ls.trace)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []agentsim.TraceEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e agentsim.TraceEntry
		if json.Unmarshal(sc.Bytes(), &e) == nil { // the last line may be half written
			out = append(out, e)
		}
	}
	return out
}

// WaitTrace waits until the simulated claude traced an entry for event, and returns them all.
func (ls *LiveSession) WaitTrace(event string, timeout time.Duration) []agentsim.TraceEntry {
	ls.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		tr := ls.traceEntries()
		if len(StopTrace(tr, event)) > 0 {
			return tr
		}
		if time.Now().After(deadline) {
			ls.t.Fatalf("claude never finished a %s hook; trace: %+v", event, tr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// AcceptedConns counts the connections the supervisor accepted on its socket and still holds
// (the kernel lists the listener and each accepted end under the socket's path).
func AcceptedConns(sock string) int {
	b, _ := os.ReadFile("/proc/net/unix")
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(line, " "+sock) {
			n++
		}
	}
	return n - 1
}

func WaitConns(t *testing.T, sock string, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for AcceptedConns(sock) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the supervisor holds %d connections, want %d", AcceptedConns(sock), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Gone reports whether pid has exited (or is a zombie nobody reaped yet).
func Gone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return strings.Contains(string(st), ") Z")
}

// KillGroupOnCleanup kills the process group of the pid in pidFile (a check's shell, in the
// group its watchdog leads), if it still runs, when the test ends (a hanging check hooksup could
// not kill because it was killed itself).
func KillGroupOnCleanup(t *testing.T, pidFile string) {
	t.Cleanup(func() {
		b, err := os.ReadFile(pidFile)
		if err != nil {
			return
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 1 {
			if pgid := PgidOf(pid); pgid > 1 {
				syscall.Kill(-pgid, syscall.SIGKILL)
			}
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// SlowCheck is a config whose Stop check says it started, then hangs.
func (s *Sandbox) SlowCheck() (cfg, started, pidFile string) {
	started = filepath.Join(s.Project, "check-started")
	pidFile = filepath.Join(s.Project, "check.pid")
	KillGroupOnCleanup(s.t, pidFile)
	cfg = s.Config(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "slow"
command = "echo $$ > %s; echo started > %s; sleep 60"
timeout = "90s"
`, pidFile, started))
	return cfg, started, pidFile
}

const StopJSON = `{"session_id":"s-extra","transcript_path":"","cwd":"/","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done"}`
