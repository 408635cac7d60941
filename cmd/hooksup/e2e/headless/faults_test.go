package headless

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/supervisor"
	"github.com/hooksup/hooksup/verdictlog"
)

// failOpenWithin is the promise: a hook whose supervisor dies answers allow within a
// second. It is a protocol property (the kernel closes a dead process's sockets, the client
// reads EOF and allows), not a performance figure.
const failOpenWithin = time.Second

// The supervisor is SIGKILLed while hooks wait for a hanging check: every waiting hook — the
// one claude runs and two more, through hooksup-hook and `hooksup hook` — exits 0 with nothing
// on stdout within a second, says why in hooksup's log, and claude goes on to the end.
func TestFaultSupervisorKilledWhileHooksWait(t *testing.T) {
	// Serial: it bounds the time a hook takes to fail open at a second, which tests running beside it would stretch.
	s := e2e.NewSandbox(t)
	cfg, started, _ := s.SlowCheck()
	ls := s.StartLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
	ls.WaitReady()
	ls.WaitFile(started) // claude's Stop hook waits for the check
	sock := ls.Env("HOOKSUP_SOCKET")

	type waiter struct {
		name   string
		cmd    *exec.Cmd
		out    bytes.Buffer
		exited chan time.Time
	}
	var ws []*waiter
	for _, argv := range [][]string{{e2e.HookClientBin, "Stop"}, {e2e.HooksupBin, "hook", "Stop"}} {
		w := &waiter{name: filepath.Base(argv[0]), cmd: exec.Command(argv[0], argv[1:]...), exited: make(chan time.Time, 1)}
		w.cmd.Env = ls.HookEnv()
		w.cmd.Stdin = strings.NewReader(e2e.StopJSON)
		w.cmd.Stdout = &w.out
		if err := w.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { w.cmd.Wait(); w.exited <- time.Now() }()
		t.Cleanup(func() { w.cmd.Process.Kill() })
		ws = append(ws, w)
	}
	e2e.WaitConns(t, sock, 3) // claude's hook and both of ours are connected and waiting

	if err := ls.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	for _, w := range ws {
		select {
		case at := <-w.exited:
			d := at.Sub(killed)
			t.Logf("%s answered %v after the supervisor was killed", w.name, d.Round(time.Microsecond))
			if code := w.cmd.ProcessState.ExitCode(); code != 0 || w.out.Len() != 0 {
				t.Errorf("%s: exit %d, stdout %q: not allow", w.name, code, w.out.String())
			}
			if d > failOpenWithin {
				t.Errorf("%s took %v to fail open, want under %v", w.name, d, failOpenWithin)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s still waits 10s after the supervisor was killed", w.name)
		}
	}

	// Claude's own hook allowed too, at once, and claude went on to the end of its session.
	tr := ls.WaitTrace("Stop", 10*time.Second)
	t.Logf("claude's Stop hook returned %v after the kill", time.Since(killed).Round(time.Millisecond))
	stop := e2e.StopTrace(tr, "Stop")[0]
	if r := stop.Results[0]; r.Exit != 0 || r.Stdout != "" || r.TimedOut || stop.Block {
		t.Fatalf("claude's Stop hook: %+v", stop)
	}
	tr = ls.WaitTrace("SessionEnd", 10*time.Second)
	if end := e2e.StopTrace(tr, "SessionEnd")[0]; len(end.Results) == 0 || end.Results[0].Exit != 0 || end.Results[0].Stdout != "" {
		t.Fatalf("claude's SessionEnd hook without a supervisor: %+v", end)
	}
	if code := ls.Wait(time.Second); code != 128+9 {
		t.Fatalf("hooksup exit %d", code)
	}
	for deadline := time.Now().Add(10 * time.Second); !e2e.Gone(ls.AgentPID()); {
		if time.Now().After(deadline) {
			t.Fatal("claude did not finish after its supervisor was killed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if out := ls.OutText(); out != "Answer to turn 1.\n" {
		t.Fatalf("claude's stdout after its supervisor was killed: %q", out)
	}
	logText, _ := os.ReadFile(filepath.Join(s.StateDir(), "hooksup.log"))
	// Each says why it allowed: most read the supervisor's end, one whose request was still on its
	// way when the supervisor died finds the socket closed as it writes.
	n := 0
	for _, line := range strings.Split(string(logText), "\n") {
		if strings.Contains(line, `msg="hook Stop: `) && strings.HasSuffix(line, `(allowed)"`) {
			n++
		}
	}
	if n < 3 {
		t.Fatalf("the log has %d fail-open lines for the 3 waiting hooks:\n%s", n, logText)
	}
}

// Claude SIGKILLed while its Stop hook waits for a check: hooksup ends the check, exits 137
// (128+9, as a shell reports it), and leaves neither its socket nor its settings file behind.
func TestFaultAgentKilledMidTurn(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg, started, pidFile := s.SlowCheck()
	ls := s.StartLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
	ls.WaitReady()
	ls.WaitFile(started)
	sock, settings := ls.Env("HOOKSUP_SOCKET"), ls.SettingsPath()
	for _, p := range []string{sock, settings} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("before the kill: %v", err)
		}
	}
	if err := syscall.Kill(ls.AgentPID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if code := ls.Wait(10 * time.Second); code != 137 {
		t.Fatalf("hooksup exited %d, want 137 (claude's SIGKILL); stderr:\n%s", code, ls.ErrText())
	}
	for _, p := range []string{sock, settings} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s left behind (%v)", p, err)
		}
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(sock), "*"))
	if len(left) != 0 {
		t.Errorf("left in the socket directory: %v", left)
	}
	e2e.AssertGoneProc(t, pidFile)
}

// A check that forks children and hangs: at its timeout the whole process group dies, the
// verdict says it timed out, and claude goes on. The same through `hooksup check`.
func TestFaultHangingCheckWithChildrenKilledAtTimeout(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	childPid, shPid, pgidFile := filepath.Join(s.Project, "child.pid"), filepath.Join(s.Project, "sh.pid"), filepath.Join(s.Project, "pgid")
	e2e.KillGroupOnCleanup(t, shPid)
	cfg := s.Config(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "hang"
command = "sleep 300 & echo $! > %s; (sleep 300; :) & echo $$ > %s; ps -o pgid= -p $$ > %s; sleep 300"
timeout = "1s"
retry_on_failure = false
`, childPid, shPid, pgidFile))

	t.Run("hooksup claude", func(t *testing.T) {
		r := s.RunSim(cfg, agentsim.Scenario{}, "-p", "x")
		if r.Code != 0 || r.Stdout != "Answer to turn 1.\n" {
			t.Fatalf("exit %d stdout %q stderr:\n%s", r.Code, r.Stdout, r.Stderr)
		}
		if got := e2e.Decisions(r.Verdicts); got != "Stop:allow/checks" {
			t.Fatalf("verdicts %s", got)
		}
		v := r.Verdicts[0]
		if len(v.Checks) != 1 || !v.Checks[0].TimedOut || !strings.Contains(v.Warning, `"hang" failed (timed out after 1s)`) {
			t.Fatalf("verdict %+v", v)
		}
		e2e.AssertGoneProc(t, childPid)
		e2e.AssertGoneProc(t, shPid)
		assertGroupGone(t, pgidFile)
	})
	t.Run("hooksup check", func(t *testing.T) {
		os.Remove(childPid)
		os.Remove(shPid)
		os.Remove(pgidFile)
		cmd := e2e.ExecHooksup(s, "--config", cfg, "check")
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), "✗ hang: timed out after 1s") {
			t.Fatalf("exit %d:\n%s", cmd.ProcessState.ExitCode(), out)
		}
		e2e.AssertGoneProc(t, childPid)
		e2e.AssertGoneProc(t, shPid)
		assertGroupGone(t, pgidFile)
	})
}

// assertGroupGone: no live process is left in the process group whose id is in pgidFile
// (zombies waiting for init to reap them are dead).
func assertGroupGone(t *testing.T, pgidFile string) {
	t.Helper()
	b, _ := os.ReadFile(pgidFile)
	pgid := strings.TrimSpace(string(b))
	if pgid == "" {
		t.Fatalf("the check wrote no process group to %s", pgidFile)
	}
	alive := func() []string {
		var pids []string
		stats, _ := filepath.Glob("/proc/[0-9]*/stat")
		for _, p := range stats {
			st, err := os.ReadFile(p)
			i := bytes.LastIndexByte(st, ')')
			if err != nil || i < 0 {
				continue
			}
			f := strings.Fields(string(st[i+1:])) // state, ppid, pgrp, …
			if len(f) > 2 && f[2] == pgid && f[0] != "Z" {
				pids = append(pids, filepath.Base(filepath.Dir(p)))
			}
		}
		return pids
	}
	for i := 0; i < 100; i++ {
		if len(alive()) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("processes %v of the check's group %s survived", alive(), pgid)
}

// A file where the state directory should be (chmod 000 would not stop root, who runs CI):
// hooksup cannot log or record verdicts, but claude runs, its hooks are still decided (a block,
// then an allow), and hooksup says so on stderr (in the TUI: a notice) for every verdict lost.
func TestFaultStateDirUnwritable(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	blocker := filepath.Join(s.Home, "state-is-a-file")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	s.Env = append(s.Env, "XDG_STATE_HOME="+blocker)
	marker := filepath.Join(s.Project, "marker")
	cfg := s.Config(fmt.Sprintf("mode = \"auto\"\n[[stop.checks]]\nname = \"once\"\ncommand = \"test -f %[1]s || { touch %[1]s; echo not yet; exit 1; }\"\n", marker))
	r := s.RunSim(cfg, agentsim.Scenario{}, "-p", "x")
	if r.Code != 0 || r.Stdout != "Answer to turn 1.\n" {
		t.Fatalf("exit %d stdout %q stderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
	stops := e2e.StopTrace(r.Trace, "Stop")
	if len(stops) != 2 || !stops[0].Block || stops[1].Block {
		t.Fatalf("claude's stops: %+v", stops)
	}
	if !strings.Contains(r.Stderr, "Stop → block: continued (check once failed) 1/3") || !strings.Contains(r.Stderr, "Stop → allow: let stop (checks passed)") {
		t.Fatalf("the verdicts are not reported:\n%s", r.Stderr)
	}
	// Each verdict it could not record is reported, with the reason, beside the verdict.
	want := "hooksup: the verdict log cannot be written: verdict log: mkdir " + blocker + ": not a directory"
	if strings.Count(r.Stderr, want) != 2 {
		t.Fatalf("stderr does not say that the verdicts are not recorded (%q):\n%s", want, r.Stderr)
	}
}

// The transcript hooksup tails is deleted, then replaced by another file, while the session
// goes on: every stop is still decided and recorded, and hooksup exits cleanly.
func TestFaultTranscriptDeletedAndReplacedMidTail(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	step := filepath.Join(s.Project, "step")
	// On each stop the check acts on the transcripts under the sandbox's HOME: first it deletes
	// them, then it replaces them with garbage, then it passes. It waits a little after each
	// act, so that the tail sees every state.
	cfg := s.Config(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "vandal"
command = '''
n=$(cat %[1]s 2>/dev/null || echo 0); echo $((n+1)) > %[1]s
for f in "$HOME"/.claude/projects/*/*.jsonl; do
  case $n in
    0) rm -f "$f" ;;
    1) rm -f "$f"; printf '{"type":"user","message":{"content":"replaced"}}\n{not json\n' > "$f" ;;
  esac
done
[ "$n" -ge 2 ] || { sleep 0.3; echo "step $n"; exit 1; }
'''
`, step))
	r := s.RunSim(cfg, agentsim.Scenario{Prompts: []string{"a", "b"}, Subagents: 1}, "-p", "c")
	if r.Code != 0 {
		t.Fatalf("exit %d stderr:\n%s", r.Code, r.Stderr)
	}
	want := "Stop:block/check:vandal Stop:block/check:vandal Stop:allow/checks Stop:allow/checks Stop:allow/checks"
	var stops []verdictlog.Verdict
	for _, v := range r.Verdicts {
		if v.Event == "Stop" {
			stops = append(stops, v)
		}
	}
	if got := e2e.Decisions(stops); got != want {
		t.Fatalf("verdicts %s", got)
	}
	if n := len(r.Verdicts) - len(stops); n != 3 {
		t.Fatalf("%d SubagentStop verdicts, want 3", n)
	}
	logText, _ := os.ReadFile(filepath.Join(s.StateDir(), "hooksup.log"))
	if strings.Contains(string(logText), "panic") || !strings.Contains(string(logText), "agent exited") {
		t.Fatalf("hooksup.log:\n%s", logText)
	}
}

// The socket path is held by another live hooksup: Listen refuses to take it over, clearly,
// and that hooksup goes on answering its hooks.
func TestFaultSocketHeldByAnotherHooksup(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cfg, started, _ := s.SlowCheck()
	ls := s.StartLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
	ls.WaitReady()
	ls.WaitFile(started)
	sock := ls.Env("HOOKSUP_SOCKET")
	_, err := supervisor.Listen(sock, "other", nil)
	if err == nil || err.Error() != "socket "+sock+" is in use by another process" {
		t.Fatalf("took over a live socket: %v", err)
	}
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatalf("the first hooksup's socket is gone: %v", err)
	}
	defer c.Close()
	payload := `{"session_id":"x","hook_event_name":"Notification","notification_type":"idle_prompt","message":"m"}`
	fmt.Fprintf(c, "HOOKSUP/1 %s Notification %d\n%s", ls.Env("HOOKSUP_TOKEN"), len(payload), payload)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, _ := e2e.ReadAll(c)
	if resp != "HOOKSUP/1 ok 0 0\n" {
		t.Fatalf("the first hooksup answered %q", resp)
	}
}
