package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/engine"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/procinfo"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// engineSession is a real engine behind the control socket, as a supervisor puts it there.
type engineSession struct {
	*engine.Engine
	mu     sync.Mutex
	subs   []chan session.Event
	asked  chan session.Question
	record []verdictlog.Verdict
	act    session.Activity
}

func (s *engineSession) Subscribe() (<-chan session.Event, func()) {
	ch := make(chan session.Event, 64)
	s.mu.Lock()
	s.subs = append(s.subs, ch)
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		for i, c := range s.subs {
			if c == ch {
				s.subs = append(s.subs[:i], s.subs[i+1:]...)
				close(ch)
				return
			}
		}
	}
}

func (s *engineSession) State() session.AgentState { return session.StateWorking }

func (s *engineSession) Activity() session.Activity { return s.act }

func (s *engineSession) emit(ev session.Event) {
	if q, ok := ev.(session.QuestionAsked); ok {
		s.asked <- q.Question
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range s.subs {
		select {
		case ch <- ev:
		default:
		}
	}
}

func newEngineSession(t testing.TB) *engineSession {
	t.Helper()
	cfg := config.Defaults()
	cfg.Mode = config.ModeAsk
	cfg.DecisionTimeout = config.Duration{D: time.Minute}
	cfg.Stop.Checks = []config.Check{{Name: "tests", Command: "echo 'FAIL: hub'; exit 1"}}
	s := &engineSession{asked: make(chan session.Question, 4)}
	s.Engine = engine.New(engine.Options{Config: cfg, ProjectDir: t.TempDir(), Interactive: true,
		Emit: s.emit, Record: func(v verdictlog.Verdict) error {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.record = append(s.record, v)
			return nil
		}})
	return s
}

func (s *engineSession) verdicts() []verdictlog.Verdict {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]verdictlog.Verdict(nil), s.record...)
}

// shortDir is a directory whose socket paths fit in sun_path.
func shortDir(t testing.TB) string {
	t.Helper()
	d, err := os.MkdirTemp("", "hub")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func serve(t testing.TB, dir, id string, sess Session, logger *slog.Logger, peer ...func(*net.UnixConn) (int, error)) (*Server, Entry) {
	t.Helper()
	e := Entry{ID: id, Agent: "claude", Cwd: "/src/" + id, PID: os.Getpid(), Started: time.Now(), Mode: "ask",
		Control: filepath.Join(dir, id+".ctl")}
	srv, err := Listen(e, sess, logger)
	if err != nil {
		t.Fatal(err)
	}
	if len(peer) > 0 {
		srv.peerUID = peer[0]
	}
	go srv.Serve()
	t.Cleanup(srv.Close)
	unregister, err := Register(dir, e)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(unregister)
	return srv, e
}

func stopIn() *hooks.Input {
	f := false
	return &hooks.Input{SessionID: "sess-1", HookEventName: hooks.Stop, StopHookActive: &f}
}

// Two terminals answer one question at once, approve and deny: exactly one wins, the other is
// told it was already answered, and there is one verdict, the winner's, with where it came from.
func TestConcurrentApproveDenyOneVerdict(t *testing.T) {
	for range 20 {
		dir := shortDir(t)
		sess := newEngineSession(t)
		_, e := serve(t, dir, "aaaa", sess, nil)
		ans := make(chan hooks.Answer, 1)
		go func() { ans <- sess.Decide(context.Background(), stopIn()) }()
		q := <-sess.asked

		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, d := range []hooks.Decision{hooks.Block, hooks.Allow} {
			wg.Go(func() {
				errs[i] = Client{Path: e.Control}.Resolve(q.ID, string(d), "", []string{"hooksup approve", "hooksup deny"}[i])
			})
		}
		wg.Wait()
		a := <-ans
		won := -1
		for i, err := range errs {
			switch {
			case err == nil:
				if won >= 0 {
					t.Fatalf("both answers won: %v", errs)
				}
				won = i
			case !errors.Is(err, ErrAnswered):
				t.Fatalf("answer %d: %v, want ErrAnswered", i, err)
			}
		}
		if won < 0 {
			t.Fatalf("no answer won: %v", errs)
		}
		vs := sess.verdicts()
		want := []struct {
			d   hooks.Decision
			src verdictlog.Source
		}{{hooks.Block, "manual (hooksup approve)"}, {hooks.Allow, "manual (hooksup deny)"}}[won]
		if len(vs) != 1 || vs[0].Decision != want.d || vs[0].Source != want.src || a.Decision != want.d {
			t.Fatalf("winner %d; answer %+v; verdicts %+v", won, a, vs)
		}
		// Once it is decided, answering again is still "already answered", not "no such question".
		if err := (Client{Path: e.Control}).Resolve(q.ID, "allow", "", "hooksup deny"); !errors.Is(err, ErrAnswered) {
			t.Fatalf("a late answer: %v", err)
		}
		if err := (Client{Path: e.Control}).Resolve(q.ID+1, "allow", "", "hooksup deny"); err == nil || errors.Is(err, ErrAnswered) {
			t.Fatalf("an unknown question: %v", err)
		}
	}
}

// The snapshot lists the pending question with what the checks said and when it times out.
func TestSnapshotAndList(t *testing.T) {
	dir := shortDir(t)
	sess := newEngineSession(t)
	sess.act = session.Activity{LastMessage: "All done.\nThe tests pass.", Permission: &session.Permission{Tool: "Bash", Command: "go test ./..."},
		LastKey: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	_, e := serve(t, dir, "bbbb", sess, nil)
	go sess.Decide(context.Background(), stopIn())
	q := <-sess.asked
	t.Cleanup(func() { sess.Resolve(q.ID, hooks.Allow, "") })

	live, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 1 || live[0].Entry.Control != e.Control {
		t.Fatalf("listed %+v", live)
	}
	s := live[0].Snapshot
	if s.SessionID != "sess-1" || s.Agent != "claude" || s.Cwd != "/src/bbbb" || len(s.Pending) != 1 ||
		s.LastMessage != sess.act.LastMessage || s.Permission == nil || *s.Permission != *sess.act.Permission || !s.LastKey.Equal(sess.act.LastKey) {
		t.Fatalf("snapshot %+v", s)
	}
	p := s.Pending[0]
	if p.ID != q.ID || p.Event != hooks.Stop || p.Proposal != "block" || p.Source != "check:tests" ||
		!strings.Contains(p.Reason, "FAIL: hub") || !p.Deadline.Equal(q.Deadline) {
		t.Fatalf("pending %+v, asked %+v", p, q)
	}
}

// A killed supervisor's registration is never listed, and is removed: one whose process is gone,
// and one whose process runs but whose socket nobody listens on.
func TestStaleRegistrationNotListed(t *testing.T) {
	dir := shortDir(t)
	sess := newEngineSession(t)
	serve(t, dir, "live", sess, nil)

	dead := exec.Command("sleep", "60")
	if err := dead.Start(); err != nil {
		t.Fatal(err)
	}
	deadPID := dead.Process.Pid
	dead.Process.Kill()
	dead.Wait()
	// A socket left behind with nobody listening: what a SIGKILLed supervisor leaves.
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, "gone.ctl"), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	stale := []Entry{
		{ID: "killed", PID: deadPID, Started: time.Now(), Control: filepath.Join(dir, "killed.ctl")},
		{ID: "gone", PID: os.Getpid(), Started: time.Now(), Control: filepath.Join(dir, "gone.ctl")},
	}
	for _, e := range stale {
		if _, err := Register(dir, e); err != nil {
			t.Fatal(err)
		}
	}
	live, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 1 || live[0].Entry.ID != "live" {
		t.Fatalf("listed %+v, want only the live session", live)
	}
	for _, e := range stale {
		if _, err := os.Stat(filepath.Join(dir, e.ID+entrySuffix)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s's registration is still there: %v", e.ID, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "gone.ctl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dead session's socket is still there: %v", err)
	}
}

// Another user is refused before a byte is read: nothing is answered, nothing resolved, and the
// log says so.
func TestOtherUserRefused(t *testing.T) {
	dir := shortDir(t)
	sess := newEngineSession(t)
	var logBuf syncBuffer
	_, e := serve(t, dir, "cccc", sess, slog.New(slog.NewTextHandler(&logBuf, nil)),
		func(*net.UnixConn) (int, error) { return os.Getuid() + 1, nil })
	go sess.Decide(context.Background(), stopIn())
	q := <-sess.asked
	t.Cleanup(func() { sess.Resolve(q.ID, hooks.Allow, "") })

	c := Client{Path: e.Control}
	if _, err := c.Snapshot(); err == nil {
		t.Fatal("another user got a snapshot")
	}
	if err := c.Resolve(q.ID, "allow", "", "hooksup deny"); err == nil {
		t.Fatal("another user answered a question")
	}
	if len(sess.Pending()) != 1 {
		t.Fatal("another user's answer resolved the question")
	}
	if !strings.Contains(logBuf.String(), "refused a control connection from another user") {
		t.Fatalf("log: %s", logBuf.String())
	}
}

// The event stream carries the session's events as they happen.
func TestEventStream(t *testing.T) {
	dir := shortDir(t)
	sess := newEngineSession(t)
	_, e := serve(t, dir, "dddd", sess, nil)
	got := make(chan Event, 16)
	go Client{Path: e.Control}.Events(func(ev Event) bool { got <- ev; return ev.Type != "VerdictDecided" })
	// The stream is up once the server has subscribed.
	for deadline := time.Now().Add(10 * time.Second); ; {
		sess.mu.Lock()
		n := len(sess.subs)
		sess.mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stream never subscribed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	go sess.Decide(context.Background(), stopIn())
	q := <-sess.asked
	if err := (Client{Path: e.Control}).Resolve(q.ID, "allow", "", "hooksup deny"); err != nil {
		t.Fatal(err)
	}
	var types []string
	for ev := range got {
		types = append(types, ev.Type)
		if ev.Type == "VerdictDecided" {
			break
		}
	}
	s := strings.Join(types, " ")
	if !strings.Contains(s, "QuestionAsked") || !strings.Contains(s, "QuestionResolved") {
		t.Fatalf("events %s", s)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// A session's start sweeps the registrations of supervisors that are verifiably gone, with
// their control sockets: no process has the pid, or the one that has it started at another
// time. A live one stays, and so does one of an older hooksup (no start time) whose pid runs.
func TestSweepRemovesOnlyTheDead(t *testing.T) {
	dir := shortDir(t)
	serve(t, dir, "live", newEngineSession(t), nil)
	dead := exec.Command("sleep", "60")
	if err := dead.Start(); err != nil {
		t.Fatal(err)
	}
	deadPID := dead.Process.Pid
	dead.Process.Kill()
	dead.Wait()
	p, err := procinfo.Read(os.Getpid())
	start := p.Start
	if err != nil {
		t.Skipf("process start times are not readable here: %v", err)
	}
	entries := map[string]Entry{
		"killed":  {PID: deadPID},
		"reused":  {PID: os.Getpid(), PIDStart: start + 1}, // our pid, another process's start
		"older":   {PID: os.Getpid()},                      // no start time: the pid runs
		"zeropid": {PID: 0},
	}
	for id, e := range entries {
		e.ID, e.Started, e.Control = id, time.Now(), filepath.Join(dir, id+".ctl")
		if id == "older" {
			// Register records the start; an older hooksup wrote none.
			b, _ := json.Marshal(e)
			if err := os.WriteFile(filepath.Join(dir, id+entrySuffix), b, 0o600); err != nil {
				t.Fatal(err)
			}
		} else if _, err := Register(dir, e); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(e.Control, nil, 0o600); err != nil { // what a socket leaves
			t.Fatal(err)
		}
	}
	Sweep(dir)
	for id, want := range map[string]bool{"live": true, "older": true, "killed": false, "reused": false, "zeropid": false} {
		for _, p := range []string{id + entrySuffix, id + ".ctl"} {
			_, err := os.Stat(filepath.Join(dir, p))
			if got := err == nil; got != want {
				t.Errorf("%s there after the sweep: %v, want %v (%v)", p, got, want, err)
			}
		}
	}
}
