package main

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

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/agentsim"
)

// liveSession is `hooksup claude -p` running in the background with the simulated claude,
// wrapped in a script that records what claude got from hooksup — its environment (the socket,
// the token), its --settings file and its pid — before it becomes the simulated claude. Fault
// and security tests use it to act on a session while it runs.
type liveSession struct {
	t      *testing.T
	s      *sandbox
	cmd    *exec.Cmd
	rec    string // the wrapper's records
	trace  string
	stdout string
	stderr string
	done   chan struct{}
}

// startLive starts hooksup with cfg (no --config when ""), scenario sc, the extra environment
// and the args after `claude`.
func (s *sandbox) startLive(cfg string, sc agentsim.Scenario, extraEnv []string, args ...string) *liveSession {
	s.t.Helper()
	return s.startLiveWith(nil, nil, cfg, sc, extraEnv, args...)
}

// startLiveWith is startLive with a command that runs hooksup (prefix, e.g. a shell that sets
// a umask and execs it) and global flags before `claude`.
func (s *sandbox) startLiveWith(prefix, globals []string, cfg string, sc agentsim.Scenario, extraEnv []string, args ...string) *liveSession {
	t := s.t
	t.Helper()
	ls := &liveSession{t: t, s: s, rec: filepath.Join(s.project, "rec"), trace: filepath.Join(s.project, "trace.jsonl"),
		stdout: filepath.Join(s.project, "stdout"), stderr: filepath.Join(s.project, "stderr"), done: make(chan struct{})}
	if err := os.MkdirAll(ls.rec, 0o700); err != nil {
		t.Fatal(err)
	}
	self, _ := os.Executable()
	wrapper := filepath.Join(ls.rec, "claude")
	script := fmt.Sprintf(`#!/bin/sh
d=%s
env > "$d/env"
if [ "$1" = --settings ]; then printf %%s "$2" > "$d/settings.path"; cp "$2" "$d/settings.json"; fi
echo $$ > "$d/pid.new" && mv "$d/pid.new" "$d/pid"
exec %s "$@"
`, e2e.ShellQuote(ls.rec), e2e.ShellQuote(self))
	if err := os.WriteFile(wrapper, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	argv := append([]string{hooksupBin}, globals...)
	if cfg != "" {
		argv = append(argv, "--config", cfg)
	}
	argv = append(append(argv, "--claude-bin", wrapper, "claude"), args...)
	argv = append(append([]string{}, prefix...), argv...)
	scb, _ := json.Marshal(sc)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.project
	cmd.Env = append(append(append([]string{}, s.env...), envSimAgent+"=1", agentsim.EnvScenario+"="+string(scb),
		agentsim.EnvTrace+"="+ls.trace), extraEnv...)
	// Files, not pipes: the simulated claude may outlive hooksup and hold them open.
	out, err1 := os.Create(ls.stdout)
	errf, err2 := os.Create(ls.stderr)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	cmd.Stdout, cmd.Stderr = out, errf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out.Close()
	errf.Close()
	ls.cmd = cmd
	go func() { cmd.Wait(); close(ls.done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-ls.done
		if pid := ls.agentPID(); pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return ls
}

// waitReady waits until claude has started and recorded what hooksup gave it.
func (ls *liveSession) waitReady() {
	ls.t.Helper()
	ls.waitFile(filepath.Join(ls.rec, "pid"))
}

func (ls *liveSession) waitFile(path string) {
	ls.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return
		}
		select {
		case <-ls.done:
			ls.t.Fatalf("hooksup exited before %s appeared; stderr:\n%s", path, ls.errText())
		case <-time.After(10 * time.Millisecond):
		}
	}
	ls.t.Fatalf("%s never appeared; stderr:\n%s", path, ls.errText())
}

// env is a variable of claude's environment as hooksup set it.
func (ls *liveSession) env(key string) string {
	b, _ := os.ReadFile(filepath.Join(ls.rec, "env"))
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+"="); ok {
			return v
		}
	}
	return ""
}

// hookEnv is the environment of a hook claude runs: the sandbox's plus hooksup's variables.
func (ls *liveSession) hookEnv() []string {
	return append(append([]string{}, ls.s.env...), hooks.EnvSocket+"="+ls.env(hooks.EnvSocket),
		hooks.EnvToken+"="+ls.env(hooks.EnvToken), hooks.EnvLog+"="+ls.env(hooks.EnvLog))
}

func (ls *liveSession) agentPID() int {
	b, _ := os.ReadFile(filepath.Join(ls.rec, "pid"))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

func (ls *liveSession) settingsPath() string {
	b, _ := os.ReadFile(filepath.Join(ls.rec, "settings.path"))
	return string(b)
}

// wait waits for hooksup to exit and returns its exit status.
func (ls *liveSession) wait(timeout time.Duration) int {
	ls.t.Helper()
	select {
	case <-ls.done:
	case <-time.After(timeout):
		ls.t.Fatalf("hooksup did not exit within %v; stderr:\n%s", timeout, ls.errText())
	}
	ws := ls.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

func (ls *liveSession) errText() string { b, _ := os.ReadFile(ls.stderr); return string(b) }
func (ls *liveSession) outText() string { b, _ := os.ReadFile(ls.stdout); return string(b) }

// traceEntries reads what the simulated claude saw so far.
func (ls *liveSession) traceEntries() []agentsim.TraceEntry {
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

// waitTrace waits until the simulated claude traced an entry for event, and returns them all.
func (ls *liveSession) waitTrace(event string, timeout time.Duration) []agentsim.TraceEntry {
	ls.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		tr := ls.traceEntries()
		if len(stopTrace(tr, event)) > 0 {
			return tr
		}
		if time.Now().After(deadline) {
			ls.t.Fatalf("claude never finished a %s hook; trace: %+v", event, tr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// acceptedConns counts the connections the supervisor accepted on its socket and still holds
// (the kernel lists the listener and each accepted end under the socket's path).
func acceptedConns(sock string) int {
	b, _ := os.ReadFile("/proc/net/unix")
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(line, " "+sock) {
			n++
		}
	}
	return n - 1
}

func waitConns(t *testing.T, sock string, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for acceptedConns(sock) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the supervisor holds %d connections, want %d", acceptedConns(sock), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// gone reports whether pid has exited (or is a zombie nobody reaped yet).
func gone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return strings.Contains(string(st), ") Z")
}

// killGroupOnCleanup kills the process group of the pid in pidFile (a check's shell, in the
// group its watchdog leads), if it still runs, when the test ends (a hanging check hooksup could
// not kill because it was killed itself).
func killGroupOnCleanup(t *testing.T, pidFile string) {
	t.Cleanup(func() {
		b, err := os.ReadFile(pidFile)
		if err != nil {
			return
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 1 {
			if pgid := pgidOf(pid); pgid > 1 {
				syscall.Kill(-pgid, syscall.SIGKILL)
			}
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// slowCheck is a config whose Stop check says it started, then hangs.
func (s *sandbox) slowCheck() (cfg, started, pidFile string) {
	started = filepath.Join(s.project, "check-started")
	pidFile = filepath.Join(s.project, "check.pid")
	killGroupOnCleanup(s.t, pidFile)
	cfg = s.config(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "slow"
command = "echo $$ > %s; echo started > %s; sleep 60"
timeout = "90s"
`, pidFile, started))
	return cfg, started, pidFile
}

const stopJSON = `{"session_id":"s-extra","transcript_path":"","cwd":"/","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done"}`
