package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// lockedProject is a project whose one check notes its start and end in runs and holds on
// until release exists.
type lockedProject struct {
	dir, lockDir, runs, release string
}

func newLockedProject(t *testing.T) lockedProject {
	dir := t.TempDir()
	return lockedProject{dir: dir, lockDir: t.TempDir(), runs: filepath.Join(dir, "runs"), release: filepath.Join(dir, "release")}
}

func (p lockedProject) check(timeout time.Duration) config.Check {
	return config.Check{Name: "tests", Timeout: config.Duration{D: timeout}, Command: `echo "start $HOOKSUP_SESSION_ID" >> runs
while [ ! -e release ]; do sleep 0.02; done
echo "end $HOOKSUP_SESSION_ID" >> runs`}
}

func (p lockedProject) engine(t *testing.T, timeout time.Duration) (*Engine, *recorder) {
	r := &recorder{}
	return New(Options{Config: cfgWith(config.ModeAuto, p.check(timeout)), ProjectDir: p.dir, Emit: r.emit, Record: r.record,
		LockDir: p.lockDir, Agent: "claude", PID: 4242}), r
}

func (p lockedProject) lines() string {
	b, _ := os.ReadFile(p.runs)
	return string(b)
}

// waitFor polls ok every 10 ms for at most 10 s.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stopOf is a Stop of session.
func stopOf(session string) *hooks.Input {
	return &hooks.Input{SessionID: session, HookEventName: hooks.Stop}
}

// waitingFor waits until r has published a CheckWaiting and returns it.
func waitingFor(t *testing.T, r *recorder) session.CheckWaiting {
	t.Helper()
	var w []session.CheckWaiting
	waitFor(t, "the second stop to say it waits", func() bool {
		_, evs := r.snapshot()
		w = eventsOf[session.CheckWaiting](evs)
		return len(w) > 0
	})
	return w[0]
}

// Two sessions stop at once in one project: the second's checks wait for the first's, say for
// whom, and run once the first's are done; its verdict notes the wait.
func TestTwoSessionsChecksInOneProjectTakeTurns(t *testing.T) {
	p := newLockedProject(t)
	first, _ := p.engine(t, time.Minute)
	second, r2 := p.engine(t, time.Minute)
	a1 := decideAsync(first, stopOf("aaaa1111-0000"))
	waitFor(t, "the first's check to start", func() bool { return strings.Contains(p.lines(), "start aaaa1111") })
	a2 := decideAsync(second, stopOf("bbbb2222-0000"))

	w := waitingFor(t, r2)
	if h := w.Holder; h.SessionID != "aaaa1111-0000" || h.Agent != "claude" || h.PID != 4242 || h.Check != "tests" || w.Event != hooks.Stop {
		t.Fatalf("the second waits for %+v", w)
	}
	if got := w.Holder.Name(); got != "session aaaa1111 (claude, pid 4242)" {
		t.Fatalf("the holder is named %q", got)
	}
	if c := second.Counts(); c.Waiting == nil || c.Waiting.Holder.SessionID != "aaaa1111-0000" {
		t.Fatalf("the second's counts say it waits for %+v", c.Waiting)
	}
	time.Sleep(200 * time.Millisecond) // the second must not start meanwhile
	if got := p.lines(); got != "start aaaa1111-0000\n" {
		t.Fatalf("runs while the first holds the project:\n%s", got)
	}
	os.WriteFile(p.release, nil, 0o600)
	for _, a := range []chan hooks.Answer{a1, a2} {
		if got := <-a; got.Decision != hooks.Allow {
			t.Fatalf("answer %+v", got)
		}
	}
	if got, want := p.lines(), "start aaaa1111-0000\nend aaaa1111-0000\nstart bbbb2222-0000\nend bbbb2222-0000\n"; got != want {
		t.Fatalf("runs:\n%s\nwant:\n%s", got, want)
	}
	vs, evs := r2.waitVerdicts(t, 1)
	if v := vs[0].Waited; v == nil || v.SessionID != "aaaa1111-0000" || v.PID != 4242 || v.MS < 200 || vs[0].Source != verdictlog.SourceChecks {
		t.Fatalf("the second's verdict: %+v, waited %+v", vs[0], v)
	}
	if ended := eventsOf[session.CheckWaitEnded](evs); len(ended) != 1 || ended[0].Waited < 200*time.Millisecond {
		t.Fatalf("wait ended: %+v", ended)
	}
	if c := second.Counts(); c.Waiting != nil {
		t.Fatalf("still waiting after its checks ran: %+v", c.Waiting)
	}
}

// Escape during the wait ends it at once: the stop is allowed by Escape, its checks never run,
// the first's run goes on.
func TestEscapeEndsTheWaitForAnotherSessionsChecks(t *testing.T) {
	p := newLockedProject(t)
	defer os.WriteFile(p.release, nil, 0o600)
	first, _ := p.engine(t, time.Minute)
	second, r2 := p.engine(t, time.Minute)
	a1 := decideAsync(first, stopOf("aaaa1111-0000"))
	waitFor(t, "the first's check to start", func() bool { return strings.Contains(p.lines(), "start aaaa1111") })
	second.Observe(&hooks.Input{SessionID: "bbbb2222-0000", HookEventName: hooks.UserPromptSubmit})
	a2 := decideAsync(second, stopOf("bbbb2222-0000"))
	waitingFor(t, r2)
	second.Interrupt()
	select {
	case a := <-a2:
		if a.Decision != hooks.Allow {
			t.Fatalf("after Escape: %+v", a)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Escape did not end the wait")
	}
	vs, _ := r2.waitVerdicts(t, 2)
	if got := decisions(vs); got != "Interrupted:allow/escape Stop:allow/escape" || vs[1].Waited == nil || len(vs[1].Checks) != 0 {
		t.Fatalf("verdicts %s, the stop's %+v", got, vs[1])
	}
	if got := p.lines(); got != "start aaaa1111-0000\n" {
		t.Fatalf("runs:\n%s", got)
	}
	os.WriteFile(p.release, nil, 0o600)
	<-a1
}

// A wait longer than one run of the checks may take (another session's longer checks) lets
// the stop go with a warning that names the holder, in time for the hook's timeout, rather
// than running its checks beside the other's.
func TestWaitLongerThanOneRunLetsTheStopGo(t *testing.T) {
	p := newLockedProject(t)
	defer os.WriteFile(p.release, nil, 0o600)
	first, _ := p.engine(t, time.Minute)
	second, r2 := p.engine(t, 300*time.Millisecond)
	decideAsync(first, stopOf("aaaa1111-0000"))
	waitFor(t, "the first's check to start", func() bool { return strings.Contains(p.lines(), "start aaaa1111") })
	start := time.Now()
	a := second.Decide(context.Background(), stopOf("bbbb2222-0000"))
	if took := time.Since(start); took < 300*time.Millisecond || took > 5*time.Second {
		t.Fatalf("decided after %s, want about the checks' 300ms", took)
	}
	if a.Decision != hooks.Allow || !strings.Contains(a.SystemMessage, "checks skipped: session aaaa1111 (claude, pid 4242) still ran its checks in this project") {
		t.Fatalf("answer %+v", a)
	}
	vs, _ := r2.waitVerdicts(t, 1)
	if vs[0].Waited == nil || len(vs[0].Checks) != 0 {
		t.Fatalf("verdict %+v", vs[0])
	}
	if got := p.lines(); got != "start aaaa1111-0000\n" {
		t.Fatalf("runs:\n%s", got)
	}
}
