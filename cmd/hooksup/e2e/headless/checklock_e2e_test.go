package headless

import (
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
	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/internal/procinfo"
	"github.com/hooksup/hooksup/verdictlog"
)

// lockRun is one line the tests' check writes to runs: "start|end SESSION UNIXNANO".
type lockRun struct {
	what, session string
	at            time.Time
}

func readRuns(t *testing.T, path string) []lockRun {
	t.Helper()
	b, _ := os.ReadFile(path)
	var out []lockRun
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(l)
		if len(f) != 3 {
			continue
		}
		ns, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			t.Fatalf("runs line %q: %v", l, err)
		}
		out = append(out, lockRun{f[0], f[1], time.Unix(0, ns)})
	}
	return out
}

// waitRuns polls runs every 50 ms for at most d until ok holds.
func waitRuns(t *testing.T, path string, d time.Duration, what string, ok func([]lockRun) bool) []lockRun {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		r := readRuns(t, path)
		if ok(r) {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s, %s; runs: %+v", d, what, r)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// twoSimSessions starts two hooksup sessions of the fake claude in one project, each in its own
// tmux, with the check command; each makes one turn and stops at once.
func twoSimSessions(t *testing.T, s *e2e.Sandbox, command string) [2]*e2e.Tmux {
	cfg := s.Config("mode = \"auto\"\n[[stop.checks]]\nname = \"build\"\ncommand = '''\n" + command + "\n'''\n")
	self := e2e.SimAgentBin
	sc, _ := json.Marshal(agentsim.Scenario{Prompts: []string{"go"}})
	env := append(append([]string{}, s.Env...), "TERM=xterm-256color", e2e.EnvSimAgent+"=1", agentsim.EnvScenario+"="+string(sc))
	var tms [2]*e2e.Tmux
	for i := range tms {
		tms[i] = e2e.StartTmux(t, 150, 42, env, s.Project, e2e.HooksupBin, "--config", cfg, "--claude-bin", self, "claude")
	}
	return tms
}

// holderOf is the session's pid in `hooksup ls --json`.
func pidOf(t *testing.T, runDir, session string) int {
	t.Helper()
	for _, l := range e2e.HubLs(t, runDir) {
		if l.SessionID == session {
			return l.PID
		}
	}
	t.Fatalf("ls does not list session %s: %+v", session, e2e.HubLs(t, runDir))
	return 0
}

// Two sessions in one project stop at once: their checks never run at the same time. While the
// second waits, its TUI, `hooksup ls` and `hooksup watch` say for whom; once the first's checks
// are done the second's run, and its verdict notes the wait.
func TestChecksOfTwoSessionsInOneProjectTakeTurns(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	runs, release := filepath.Join(s.Project, "runs"), filepath.Join(s.Project, "release")
	runDir := filepath.Join(filepath.Dir(s.Home), "run")
	tms := twoSimSessions(t, s, `echo "start $HOOKSUP_SESSION_ID $(date +%s%N)" >> `+runs+`
while [ ! -e `+release+` ]; do sleep 0.05; done
sleep 0.3
echo "end $HOOKSUP_SESSION_ID $(date +%s%N)" >> `+runs)
	const wait = 30 * time.Second

	first := waitRuns(t, runs, wait, "no check started", func(r []lockRun) bool { return len(r) > 0 })[0].session
	holderPID := pidOf(t, runDir, first)
	sentence := fmt.Sprintf("waiting for session %s (claude, pid %d) to finish its checks in this project", first[:8], holderPID)
	var waiter *e2e.Tmux
	deadline := time.Now().Add(wait)
	for waiter == nil {
		for _, tm := range tms {
			if strings.Contains(tm.Screen(), sentence) {
				waiter = tm
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no session says %q; screens:\n%s\n%s", sentence, tms[0].Screen(), tms[1].Screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The checks pane says it too, with the time waited so far.
	waiter.WaitText(wait, "waiting for session "+first[:8]+" (claude, pid", "finish its checks in this project (")

	out, errText, code := e2e.HubShell(t, runDir, "ls")
	if code != 0 || !strings.Contains(out, fmt.Sprintf("waiting for session %s (claude, pid %d)", first[:8], holderPID)) {
		t.Fatalf("hooksup ls: exit %d\n%s%s", code, out, errText)
	}
	var second string
	for _, l := range e2e.HubLs(t, runDir) {
		if l.SessionID != first {
			second = l.SessionID
			if l.Waiting == nil || l.Waiting.SessionID != first || l.Waiting.PID != holderPID || l.Waiting.Check != "build" {
				t.Fatalf("ls --json: the waiting session %+v, waiting %+v", l, l.Waiting)
			}
		}
	}
	home, env := e2e.OtherTerminal(t, runDir)
	w := e2e.StartTmux(t, 140, 40, append(env, "TERM=xterm-256color"), home, e2e.HooksupBin, "watch")
	w.WaitText(wait, "waiting for session "+first[:8])

	if r := readRuns(t, runs); len(r) != 1 {
		t.Fatalf("the second's check ran while the first's did: %+v", r)
	}
	os.WriteFile(release, nil, 0o600)
	r := waitRuns(t, runs, wait, "both checks did not end", func(r []lockRun) bool { return len(r) == 4 })
	got := fmt.Sprintf("%s %s, %s %s, %s %s, %s %s", r[0].what, r[0].session, r[1].what, r[1].session, r[2].what, r[2].session, r[3].what, r[3].session)
	if want := fmt.Sprintf("start %s, end %s, start %s, end %s", first, first, second, second); got != want || r[2].at.Before(r[1].at) {
		t.Fatalf("runs %s, want %s, one after the other: %+v", got, want, r)
	}
	for _, tm := range tms {
		scr := tm.WaitText(wait, "let stop (checks passed)")
		if strings.Contains(scr, "waiting for session") {
			t.Fatalf("still waiting once its checks ran:\n%s", scr)
		}
	}
	var waited *verdictlog.Waited
	for _, v := range s.Verdicts() {
		if v.SessionID == second && v.Event == "Stop" {
			waited = v.Waited
		}
	}
	if waited == nil || waited.SessionID != first || waited.PID != holderPID || waited.MS < 100 {
		t.Fatalf("the second's verdict notes the wait %+v", waited)
	}
	t.Logf("the second waited %.0f ms; between the first's end and the second's start: %s", waited.MS, r[2].at.Sub(r[1].at))
}

// The session holding the project's checks is killed (SIGKILL) in the middle of its check: the
// waiting session takes over at once, ends what the dead one's check left running, and runs its
// own checks.
func TestDeadSessionsCheckLockIsTakenOver(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	runs, firstDir := filepath.Join(s.Project, "runs"), filepath.Join(s.Project, "first")
	runDir := filepath.Join(filepath.Dir(s.Home), "run")
	tms := twoSimSessions(t, s, `echo "start $HOOKSUP_SESSION_ID $(date +%s%N)" >> `+runs+`
if mkdir `+firstDir+` 2>/dev/null; then echo $$ > `+firstDir+`/pgid; sleep 60; fi
echo "end $HOOKSUP_SESSION_ID $(date +%s%N)" >> `+runs)
	const wait = 30 * time.Second

	first := waitRuns(t, runs, wait, "no check started", func(r []lockRun) bool { return len(r) > 0 })[0].session
	holderPID := pidOf(t, runDir, first)
	sentence := fmt.Sprintf("waiting for session %s (claude, pid %d)", first[:8], holderPID)
	var waiter *e2e.Tmux
	for deadline := time.Now().Add(wait); waiter == nil; time.Sleep(100 * time.Millisecond) {
		for _, tm := range tms {
			if strings.Contains(tm.Screen(), sentence) {
				waiter = tm
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no session says %q", sentence)
		}
	}
	pgid, err := strconv.Atoi(strings.TrimSpace(string(must(os.ReadFile(filepath.Join(firstDir, "pgid"))))))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(holderPID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	r := waitRuns(t, runs, 10*time.Second, "the second's check did not start after the first was killed",
		func(r []lockRun) bool { return len(r) >= 2 && r[len(r)-1].what == "end" })
	if r[0].session != first || r[1].what != "start" || r[1].session == first || len(r) != 3 {
		t.Fatalf("runs %+v: want the first's start, then the second's start and end", r)
	}
	took := r[1].at.Sub(killed)
	if took > 5*time.Second {
		t.Fatalf("the second's check started %s after the holder was killed", took)
	}
	// (A zombie's is not running: this machine's init may not reap them.)
	if live, err := procinfo.Group(pgid); err != nil || len(live) > 0 {
		t.Fatalf("the killed session's check (group %d) still runs: %+v %v", pgid, live, err)
	}
	scr := waiter.WaitText(wait, "let stop (checks passed)")
	if strings.Contains(scr, "waiting for session") {
		t.Fatalf("still waiting:\n%s", scr)
	}
	t.Logf("the second's check started %s after the holder was killed", took)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// `hooksup check` takes its turn in the project too: a second one says on stderr that it
// waits and for whom, and runs once the first is done.
func TestHooksupCheckWaitsForTheProjectsRun(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	runs, release := filepath.Join(s.Project, "runs"), filepath.Join(s.Project, "release")
	cfg := s.Config("[[stop.checks]]\nname = \"build\"\ncommand = '''\n" + `echo "start $$ $(date +%s%N)" >> ` + runs + `
while [ ! -e ` + release + ` ]; do sleep 0.05; done
echo "end $$ $(date +%s%N)" >> ` + runs + "\n'''\n")
	start := func(name string) (*exec.Cmd, string) {
		errPath := filepath.Join(t.TempDir(), name)
		f, err := os.Create(errPath)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd := e2e.ExecHooksup(s, "--config", cfg, "check")
		cmd.Stderr = f
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd, errPath
	}
	first, _ := start("first")
	waitRuns(t, runs, 30*time.Second, "the first check did not start", func(r []lockRun) bool { return len(r) == 1 })
	second, secondErr := start("second")
	want := fmt.Sprintf("hooksup check: waiting for hooksup check (pid %d) to finish its checks in this project\n", first.Process.Pid)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(secondErr); string(b) == want {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("the second hooksup check's stderr %q, want %q", b, want)
		}
	}
	if r := readRuns(t, runs); len(r) != 1 {
		t.Fatalf("the second ran while the first did: %+v", r)
	}
	os.WriteFile(release, nil, 0o600)
	for _, c := range []*exec.Cmd{first, second} {
		if err := c.Wait(); err != nil {
			t.Fatalf("hooksup check: %v", err)
		}
	}
	r := readRuns(t, runs)
	if len(r) != 4 || r[0].what != "start" || r[1].what != "end" || r[2].what != "start" || r[1].session != r[0].session || r[2].at.Before(r[1].at) {
		t.Fatalf("runs %+v: want one run, then the other", r)
	}
}

// Escape in the waiting session's TUI ends its wait at once: its stop is allowed by Escape and
// its checks never run, while the first session's go on.
func TestEscapeEndsTheWaitForAnotherSessionsChecks(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	runs, release := filepath.Join(s.Project, "runs"), filepath.Join(s.Project, "release")
	runDir := filepath.Join(filepath.Dir(s.Home), "run")
	tms := twoSimSessions(t, s, `echo "start $HOOKSUP_SESSION_ID $(date +%s%N)" >> `+runs+`
while [ ! -e `+release+` ]; do sleep 0.05; done
echo "end $HOOKSUP_SESSION_ID $(date +%s%N)" >> `+runs)
	defer os.WriteFile(release, nil, 0o600)
	const wait = 30 * time.Second
	first := waitRuns(t, runs, wait, "no check started", func(r []lockRun) bool { return len(r) > 0 })[0].session
	sentence := fmt.Sprintf("waiting for session %s (claude, pid %d)", first[:8], pidOf(t, runDir, first))
	var waiter *e2e.Tmux
	for deadline := time.Now().Add(wait); waiter == nil; time.Sleep(100 * time.Millisecond) {
		for _, tm := range tms {
			if strings.Contains(tm.Screen(), sentence) {
				waiter = tm
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no session says %q", sentence)
		}
	}
	waiter.Keys("Escape")
	scr := waiter.WaitText(5*time.Second, "let stop (Escape)")
	if strings.Contains(scr, "waiting for session") {
		t.Fatalf("still waiting after Escape:\n%s", scr)
	}
	if r := readRuns(t, runs); len(r) != 1 {
		t.Fatalf("runs after Escape: %+v, want the first's start alone", r)
	}
}
