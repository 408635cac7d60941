package supervisor

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// stormSession is a whole Supervisor (socket, engine, verdict log, transcript feed, event bus)
// running a stand-in agent that only sleeps, so that tests can fire hook calls at it.
type stormSession struct {
	sup      *Supervisor
	dir      string
	env      map[string]string
	cancel   context.CancelFunc
	ran      chan int
	mu       sync.Mutex
	received map[string]int // HookReceived events by hook
}

func startStorm(tb testing.TB) *stormSession {
	tb.Helper()
	dir, err := os.MkdirTemp("", "hs") // short: the socket path must fit
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	agent := filepath.Join(dir, "agent")
	if err := os.WriteFile(agent, []byte("#!/bin/sh\nexec sleep 3600\n"), 0o700); err != nil {
		tb.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	os.Mkdir(run, 0o700)
	os.WriteFile(filepath.Join(dir, "transcript.jsonl"), nil, 0o600)
	cfg := config.Defaults()
	cfg.Mode = config.ModeAuto
	sup, err := New(Options{Config: cfg, Agent: claude.Agent{}, Bin: agent, HooksupBin: "/bin/false", ProjectDir: dir,
		StateDir: filepath.Join(dir, "state"), RuntimeDir: run, Start: (*exec.Cmd).Start})
	if err != nil {
		tb.Fatal(err)
	}
	ss := &stormSession{sup: sup, dir: dir, ran: make(chan int, 1), received: map[string]int{},
		env: map[string]string{hooks.EnvSocket: sup.SocketPath(), hooks.EnvToken: sup.token, hooks.EnvLog: filepath.Join(dir, "client.log")}}
	var ctx context.Context
	ctx, ss.cancel = context.WithCancel(context.Background())
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		for ev := range sup.Events() {
			if h, ok := ev.(session.HookReceived); ok {
				ss.mu.Lock()
				ss.received[h.Input.HookEventName]++
				ss.mu.Unlock()
			}
		}
	}()
	go func() {
		code, _ := sup.Run(ctx)
		<-drained
		ss.ran <- code
	}()
	return ss
}

// stop ends the session: the agent is signalled, the socket closed, the logs flushed.
func (ss *stormSession) stop(tb testing.TB) {
	tb.Helper()
	ss.cancel()
	select {
	case <-ss.ran:
	case <-time.After(20 * time.Second):
		tb.Fatal("the supervisor did not stop")
	}
}

// call is one hook call through the real hook client; ok is false when it failed open.
func (ss *stormSession) call(event string, payload []byte) (time.Duration, []byte) {
	var out bytes.Buffer
	start := time.Now()
	hooks.Client{Getenv: func(k string) string { return ss.env[k] }}.Run(event, bytes.NewReader(payload), &out, io.Discard)
	return time.Since(start), out.Bytes()
}

// storm fires agents×perAgent SubagentStop calls (each agent's one after another, as claude
// does) and notifications Notification calls, all at once, and returns every call's latency.
func (ss *stormSession) storm(agents, perAgent, notifications int, round string) []time.Duration {
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	add := func(d time.Duration) {
		mu.Lock()
		lat = append(lat, d)
		mu.Unlock()
	}
	transcript := filepath.Join(ss.dir, "transcript.jsonl")
	start := make(chan struct{})
	for a := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for k := range perAgent {
				in := fmt.Sprintf(`{"session_id":"storm","transcript_path":%q,"cwd":%q,"hook_event_name":"SubagentStop","agent_id":"%s-agent-%d","agent_type":"general-purpose","stop_hook_active":false,"last_assistant_message":"call %d"}`,
					transcript, ss.dir, round, a, k)
				d, _ := ss.call(hooks.SubagentStop, []byte(in))
				add(d)
			}
		}()
	}
	for n := range notifications {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			in := fmt.Sprintf(`{"session_id":"storm","transcript_path":%q,"cwd":%q,"hook_event_name":"Notification","message":"n%d","notification_type":"idle_prompt"}`, transcript, ss.dir, n)
			d, _ := ss.call(hooks.Notification, []byte(in))
			add(d)
		}()
	}
	close(start)
	wg.Wait()
	return lat
}

func openFDs(tb testing.TB) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		tb.Skip("no /proc/self/fd")
	}
	return len(ents)
}

// steady polls f until it gives the same value for 200ms (what a finished session closes in
// the background is closed), and returns it.
func steady(f func() int) int {
	n, same := f(), 0
	for deadline := time.Now().Add(30 * time.Second); same < 10 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		if m := f(); m == n {
			same++
		} else {
			n, same = m, 0
		}
	}
	return n
}

// settle polls until f() ≤ want, and returns the last value.
func settle(want int, f func() int) int {
	n := f()
	for deadline := time.Now().Add(30 * time.Second); n > want && time.Now().Before(deadline); n = f() {
		time.Sleep(20 * time.Millisecond)
	}
	return n
}

// 500 concurrent hook calls against one supervisor: every call is answered (none fails open),
// every SubagentStop gets exactly one verdict line, each agent's verdicts are in the order of its
// calls, and afterwards no goroutine and no file descriptor is left behind.
func TestHookStorm(t *testing.T) {
	// A first, small session warms up what the runtime keeps for good (the network poller).
	warm := startStorm(t)
	warm.storm(2, 2, 2, "warm")
	warm.stop(t)

	fds, goroutines := steady(func() int { return openFDs(t) }), steady(runtime.NumGoroutine)
	const agents, perAgent, notifications = 50, 6, 200 // 500 calls
	ss := startStorm(t)
	start := time.Now()
	lat := ss.storm(agents, perAgent, notifications, "r")
	elapsed := time.Since(start)
	ss.stop(t)
	slices.Sort(lat)
	t.Logf("%d calls in %v: %.0f calls/s, p50 %v, p99 %v", len(lat), elapsed.Round(time.Millisecond),
		float64(len(lat))/elapsed.Seconds(), lat[len(lat)/2].Round(time.Microsecond), lat[len(lat)*99/100].Round(time.Microsecond))

	if b, err := os.ReadFile(ss.env[hooks.EnvLog]); err == nil {
		t.Fatalf("hook calls failed open:\n%s", b)
	}
	if got := ss.received[hooks.Notification]; got != notifications {
		t.Errorf("the supervisor received %d notifications of %d", got, notifications)
	}
	if got := ss.received[hooks.SubagentStop]; got != agents*perAgent {
		t.Errorf("the supervisor received %d SubagentStops of %d", got, agents*perAgent)
	}
	f, err := os.Open(filepath.Join(verdictlog.SessionsDir(filepath.Join(ss.dir, "state")), "storm", "verdicts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	vs, errs := verdictlog.Read(f)
	f.Close()
	if len(errs) > 0 {
		t.Fatalf("verdict log: %v", errs)
	}
	if len(vs) != agents*perAgent {
		t.Fatalf("%d verdicts for %d SubagentStop calls", len(vs), agents*perAgent)
	}
	next := map[string]int{}
	for _, v := range vs {
		want := fmt.Sprintf("call %d", next[v.AgentID])
		if v.Event != hooks.SubagentStop || v.Decision != "allow" || v.Observation == nil || v.Observation.LastMessage != want {
			t.Fatalf("agent %s: verdict %+v, want its %q next", v.AgentID, v, want)
		}
		next[v.AgentID]++
	}
	if len(next) != agents {
		t.Fatalf("verdicts for %d agents, want %d", len(next), agents)
	}

	// Nothing left behind: the goroutines and descriptors of 500 calls are gone.
	if n := settle(goroutines+3, runtime.NumGoroutine); n > goroutines+3 {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines after the storm, %d before:\n%s", n, goroutines, buf[:runtime.Stack(buf, true)])
	}
	if n := settle(fds, func() int { return openFDs(t) }); n > fds {
		t.Fatalf("%d open file descriptors after the storm, %d before", n, fds)
	}
}

// BenchmarkHookStorm: storms of 500 concurrent calls (300 SubagentStop from 50 agents, 200
// Notification) through the real hook client against one supervisor.
//
//	go test -run X -bench HookStorm -benchtime 5x ./supervisor/
func BenchmarkHookStorm(b *testing.B) {
	ss := startStorm(b)
	defer ss.stop(b)
	var lat []time.Duration
	var busy time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		lat = append(lat, ss.storm(50, 6, 200, fmt.Sprint("r", i))...)
		busy += time.Since(start)
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(len(lat))/busy.Seconds(), "calls/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
