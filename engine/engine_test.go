package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

type recorder struct {
	mu       sync.Mutex
	verdicts []verdictlog.Verdict
	events   []session.Event
}

func (r *recorder) record(v verdictlog.Verdict) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.verdicts = append(r.verdicts, v)
	return nil
}

func (r *recorder) emit(e session.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

// snapshot is what was logged and published so far.
func (r *recorder) snapshot() ([]verdictlog.Verdict, []session.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.verdicts), slices.Clone(r.events)
}

// waitVerdicts waits until n lines are logged (a verdict is complete after its answer).
func (r *recorder) waitVerdicts(t *testing.T, n int) ([]verdictlog.Verdict, []session.Event) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		vs, evs := r.snapshot()
		if len(vs) >= n {
			return vs, evs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d verdict lines, want %d", len(vs), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// eventsOf is the events of type T.
func eventsOf[T session.Event](evs []session.Event) []T {
	var out []T
	for _, ev := range evs {
		if e, ok := ev.(T); ok {
			out = append(out, e)
		}
	}
	return out
}

func newTestEngine(t *testing.T, cfg config.Config) (*Engine, *recorder) {
	t.Helper()
	r := &recorder{}
	return New(Options{Config: cfg, ProjectDir: t.TempDir(), Emit: r.emit, Record: r.record}), r
}

func stopIn(active bool) *hooks.Input {
	return &hooks.Input{SessionID: "s", HookEventName: hooks.Stop, StopHookActive: &active}
}

func subIn(agent string) *hooks.Input {
	f := false
	return &hooks.Input{SessionID: "s", HookEventName: hooks.SubagentStop, AgentID: agent, AgentType: "general-purpose", StopHookActive: &f}
}

func check(name, cmd string) config.Check { return config.Check{Name: name, Command: cmd} }

func cfgWith(mode config.Mode, checks ...config.Check) config.Config {
	c := config.Defaults()
	c.Mode = mode
	c.Stop.Checks = checks
	return c
}

func TestNoChecksAllows(t *testing.T) {
	e, r := newTestEngine(t, cfgWith(config.ModeAuto))
	a := e.Decide(context.Background(), stopIn(false))
	if a.Decision != hooks.Allow {
		t.Fatalf("got %+v", a)
	}
	if len(r.verdicts) != 1 || r.verdicts[0].Source != verdictlog.SourceNoChecks || r.verdicts[0].Decision != "allow" {
		t.Fatalf("verdicts %+v", r.verdicts)
	}
	// Checks that all pass are another source.
	e, r = newTestEngine(t, cfgWith(config.ModeAuto, check("ok", "true")))
	e.Decide(context.Background(), stopIn(false))
	if r.verdicts[0].Source != verdictlog.SourceChecks {
		t.Fatalf("verdicts %+v", r.verdicts)
	}
}

// The verdict's time is when it was decided; when the hook asked is kept beside it.
func TestVerdictTimes(t *testing.T) {
	clock := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	var mu sync.Mutex
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Second) // every look at the clock is a second later
		return clock
	}
	r := &recorder{}
	e := New(Options{Config: cfgWith(config.ModeAuto, check("ok", "true")), ProjectDir: t.TempDir(), Emit: r.emit, Record: r.record, Now: now})
	e.Decide(context.Background(), stopIn(false))
	v := r.verdicts[0]
	if v.Asked.IsZero() || !v.Time.After(v.Asked) {
		t.Fatalf("asked %v, decided %v", v.Asked, v.Time)
	}
}

// The answer never waits for the transcript: a stop whose last message the transcript does
// not show yet is answered at once. Its verdict is logged and published once the transcript
// has caught up, with the turn's tokens, and what happened after the decision (here Escape)
// comes after it, in the log and among the events.
func TestAnswerDoesNotWaitForTheTranscript(t *testing.T) {
	var mu sync.Mutex
	tokens := int64(0)
	shown := make(chan struct{}) // closed when claude has written its last message
	var once sync.Once
	show := func() { once.Do(func() { close(shown) }) }
	t.Cleanup(show)
	r := &recorder{}
	e := New(Options{Config: cfgWith(config.ModeAuto), ProjectDir: t.TempDir(), Emit: r.emit, Record: r.record,
		Transcript: func(ctx context.Context, in *hooks.Input) *verdictlog.Observation {
			<-shown
			mu.Lock()
			defer mu.Unlock()
			return &verdictlog.Observation{OutputTokens: tokens}
		}})
	e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit, SessionID: "s"})
	in := stopIn(false)
	in.LastAssistantMessage = "Done."
	answered := make(chan hooks.Answer, 1)
	go func() { answered <- e.Decide(context.Background(), in) }()
	select {
	case a := <-answered:
		if a.Decision != hooks.Allow {
			t.Fatalf("answer %+v", a)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stop was not answered while the transcript lacked its last message")
	}
	if vs, evs := r.snapshot(); len(vs) != 0 || len(eventsOf[session.VerdictDecided](evs)) != 0 {
		t.Fatalf("the verdict was published before its observation was complete: %+v", vs)
	}
	e.Interrupt() // after the decision: logged and published after its verdict
	mu.Lock()
	tokens = 222
	mu.Unlock()
	show()
	vs, evs := r.waitVerdicts(t, 2)
	if vs[0].Event != hooks.Stop || vs[0].Observation == nil || vs[0].Observation.OutputTokens != 222 || vs[0].Observation.LastMessage != "Done." {
		t.Fatalf("first line %+v, observation %+v: want the stop with the turn's tokens", vs[0], vs[0].Observation)
	}
	if vs[1].Event != verdictlog.EventInterrupted {
		t.Fatalf("second line %+v: want Escape's", vs[1])
	}
	var order []string
	for _, ev := range evs {
		switch ev.(type) {
		case session.VerdictDecided, session.Interrupted:
			order = append(order, fmt.Sprintf("%T", ev))
		}
	}
	if got := strings.Join(order, " "); got != "session.VerdictDecided session.Interrupted" {
		t.Fatalf("events %s", got)
	}
}

// A transcript that never shows the last message holds the verdict at most catchUpWait; Flush
// (the session ends) completes the verdicts still waiting at once; Escape's verdict does not
// wait.
func TestVerdictCompletesWithoutTheTranscript(t *testing.T) {
	r := &recorder{}
	e := New(Options{Config: cfgWith(config.ModeAuto), ProjectDir: t.TempDir(), Emit: r.emit, Record: r.record,
		Transcript: func(ctx context.Context, in *hooks.Input) *verdictlog.Observation { <-ctx.Done(); return nil }})
	e.Decide(context.Background(), stopIn(false))
	r.waitVerdicts(t, 1)
	e.Decide(context.Background(), stopIn(false))
	e.Flush()
	if vs, evs := r.snapshot(); len(vs) != 2 || vs[1].Observation == nil || len(eventsOf[session.VerdictDecided](evs)) != 2 {
		t.Fatalf("after Flush: %d lines, %d events", len(vs), len(eventsOf[session.VerdictDecided](evs)))
	}
	e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit, SessionID: "s"})
	e.Interrupt()
	never := make(chan struct{})
	t.Cleanup(func() { close(never) })
	e.transcript = func(ctx context.Context, in *hooks.Input) *verdictlog.Observation {
		select { // a transcript that never shows the message: Escape's verdict ends the wait
		case <-never:
		case <-ctx.Done():
		}
		return nil
	}
	if a := e.Decide(context.Background(), stopIn(false)); a.Decision != hooks.Allow {
		t.Fatalf("%+v", a)
	}
	if vs, _ := r.snapshot(); vs[len(vs)-1].Source != verdictlog.SourceEscape {
		t.Fatalf("last line %+v", vs[len(vs)-1])
	}
}

func TestCheckFailingOnceBlocksThenAllows(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	e, r := newTestEngine(t, cfgWith(config.ModeAuto, check("tests", fmt.Sprintf(`test -f %s || { touch %s; echo "FAIL: TestAdd expected 3 got 4"; exit 1; }`, marker, marker))))
	a := e.Decide(context.Background(), stopIn(false))
	if a.Decision != hooks.Block || !strings.Contains(a.Reason, `"tests" failed (exit 1)`) || !strings.Contains(a.Reason, "FAIL: TestAdd expected 3 got 4") {
		t.Fatalf("first stop: %+v", a)
	}
	a = e.Decide(context.Background(), stopIn(true))
	if a.Decision != hooks.Allow {
		t.Fatalf("second stop: %+v", a)
	}
	v := r.verdicts
	if v[0].Source != "check:tests" || v[0].Continuations != 1 || v[1].Decision != "allow" || !v[1].StopHookActive {
		t.Fatalf("verdicts %+v", v)
	}
	if len(v[0].Checks) != 1 || v[0].Checks[0].ExitCode != 1 || v[0].Checks[0].Name != "tests" {
		t.Fatalf("check record %+v", v[0].Checks)
	}
}

func TestContinuationLimitPerTurn(t *testing.T) {
	e, r := newTestEngine(t, cfgWith(config.ModeAuto, check("lint", "echo bad; exit 1")))
	var got []string
	for i := 0; i < 5; i++ {
		a := e.Decide(context.Background(), stopIn(i > 0))
		got = append(got, string(a.Decision))
		if a.Decision == hooks.Allow {
			break
		}
	}
	if strings.Join(got, ",") != "block,block,block,allow" {
		t.Fatalf("decisions %v", got)
	}
	last := r.verdicts[len(r.verdicts)-1]
	if last.Source != verdictlog.SourceLimit || last.Continuations != 3 || !strings.Contains(last.Warning, "limit") {
		t.Fatalf("last verdict %+v", last)
	}
	// A new prompt starts a new turn with a fresh budget.
	e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit, SessionID: "s"})
	if a := e.Decide(context.Background(), stopIn(false)); a.Decision != hooks.Block {
		t.Fatalf("new turn: %+v", a)
	}
	if c := e.Counts(); c.Turn != 1 || c.TurnContinuations != 1 || c.SessionContinuations != 4 {
		t.Fatalf("counts %+v", c)
	}
}

// max_continuations = 0 is no limit, as the manual says: a check that keeps failing keeps the
// agent working, turn after turn, never let stop by a limit.
func TestNoContinuationLimitAtZero(t *testing.T) {
	cfg := cfgWith(config.ModeAuto, check("lint", "echo bad; exit 1"))
	cfg.Stop.MaxContinuations = 0
	e, r := newTestEngine(t, cfg)
	for i := range 12 {
		if a := e.Decide(context.Background(), stopIn(i > 0)); a.Decision != hooks.Block {
			t.Fatalf("stop %d with max_continuations = 0: %+v (%+v)", i+1, a, r.verdicts[len(r.verdicts)-1])
		}
	}
}

// An agent that fires UserPromptSubmit for the reason a block sent it (Gemini CLI's BeforeAgent)
// continues its turn: the limit still holds. A prompt of the person's starts a new turn.
func TestPromptOfTheBlocksReasonContinuesTheTurn(t *testing.T) {
	e, r := newTestEngine(t, cfgWith(config.ModeAuto, check("lint", "echo bad; exit 1")))
	e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit, SessionID: "s", Prompt: "fix it"})
	var got []string
	for i := 0; i < 5; i++ {
		a := e.Decide(context.Background(), stopIn(i > 0))
		got = append(got, string(a.Decision))
		if a.Decision == hooks.Allow {
			break
		}
		e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit, SessionID: "s", Prompt: a.SentReason()})
	}
	if strings.Join(got, ",") != "block,block,block,allow" || r.verdicts[len(r.verdicts)-1].Source != verdictlog.SourceLimit {
		t.Fatalf("decisions %v, last %+v", got, r.verdicts[len(r.verdicts)-1])
	}
	e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit, SessionID: "s", Prompt: "fix it"})
	if c := e.Counts(); c.Turn != 2 || c.TurnContinuations != 0 {
		t.Fatalf("counts after a new prompt %+v", c)
	}
}

// A prompt the agent's dialect says it sent itself (a tool's result, the reasons of other Stop
// hooks after hooksup allowed) continues the turn: the continuations in a row are still counted
// against the limit, and only the person's next prompt starts a turn.
func TestPromptTheAgentSentItselfContinuesTheTurn(t *testing.T) {
	e, r := newTestEngine(t, cfgWith(config.ModeAuto, check("lint", "echo bad; exit 1")))
	e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit, SessionID: "s", Prompt: "fix it"})
	var got []string
	for i := 0; i < 5; i++ {
		// A tool's result before each stop.
		e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit, SessionID: "s", Continuing: true})
		a := e.Decide(context.Background(), stopIn(i > 0))
		got = append(got, string(a.Decision))
		if a.Decision == hooks.Allow {
			break
		}
		e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit, SessionID: "s", Prompt: "another hook's reason\n" + a.SentReason(), Continuing: true})
	}
	if strings.Join(got, ",") != "block,block,block,allow" || r.verdicts[len(r.verdicts)-1].Source != verdictlog.SourceLimit {
		t.Fatalf("decisions %v, last %+v", got, r.verdicts[len(r.verdicts)-1])
	}
	// Another hook blocks after hooksup allowed: still the same turn.
	e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit, SessionID: "s", Prompt: "another hook's reason", Continuing: true})
	if c := e.Counts(); c.Turn != 1 {
		t.Fatalf("counts after the agent's own prompts %+v", c)
	}
	e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit, SessionID: "s", Prompt: "next"})
	if c := e.Counts(); c.Turn != 2 || c.TurnContinuations != 0 {
		t.Fatalf("counts after a new prompt %+v", c)
	}
}

func TestSubagentSteersCountPerAgent(t *testing.T) {
	cfg := config.Defaults()
	cfg.Mode = config.ModeAuto
	cfg.SubagentStop.MaxSteers = 2
	cfg.SubagentStop.Checks = []config.Check{check("sub", "exit 1")}
	e, r := newTestEngine(t, cfg)
	seq := func(agent string) []string {
		var out []string
		for i := 0; i < 4; i++ {
			a := e.Decide(context.Background(), subIn(agent))
			out = append(out, string(a.Decision))
			if a.Decision == hooks.Allow {
				break
			}
		}
		return out
	}
	if got := strings.Join(seq("a1"), ","); got != "block,block,allow" {
		t.Fatalf("a1: %s", got)
	}
	if got := strings.Join(seq("a2"), ","); got != "block,block,allow" {
		t.Fatalf("a2 shares a1's budget: %s", got)
	}
	last := r.verdicts[len(r.verdicts)-1]
	if last.AgentID != "a2" || last.Steers != 2 || last.MaxSteers != 2 || last.Source != verdictlog.SourceLimit {
		t.Fatalf("verdict %+v", last)
	}
	// Subagent steers do not eat the main agent's budget: the main stop still runs its checks.
	if c := e.Counts(); c.SubagentContinuations != 4 || c.TurnContinuations != 0 || c.SessionContinuations != 4 {
		t.Fatalf("counts %+v", c)
	}
	e.cfg.Stop.Checks = []config.Check{check("main", "exit 1")}
	if a := e.Decide(context.Background(), stopIn(false)); a.Decision != hooks.Block {
		t.Fatalf("the main stop was let go after subagent steers: %+v", a)
	}
}

// A subagent's steers are kept while it works and forgotten once it is let stop, so that a
// session running subagent after subagent does not grow the engine's (or the standalone
// state's) counts; the session's total stays.
func TestSubagentSteersForgottenWhenItStops(t *testing.T) {
	cfg := config.Defaults()
	cfg.Mode = config.ModeAuto
	cfg.SubagentStop.MaxSteers = 1
	cfg.SubagentStop.Checks = []config.Check{check("sub", "exit 1")}
	e, _ := newTestEngine(t, cfg)
	const n = 20
	for i := range n {
		agent := fmt.Sprintf("a%d", i)
		if a := e.Decide(context.Background(), subIn(agent)); a.Decision != hooks.Block {
			t.Fatalf("%s first stop: %+v", agent, a)
		}
		if a := e.Decide(context.Background(), subIn(agent)); a.Decision != hooks.Allow {
			t.Fatalf("%s second stop: %+v", agent, a)
		}
	}
	if a := e.Decide(context.Background(), subIn("working")); a.Decision != hooks.Block {
		t.Fatalf("working: %+v", a)
	}
	if st := e.State().Steers; len(st) != 1 || st["working"] != 1 {
		t.Errorf("steers kept %v, want only the subagent still at work", st)
	}
	if c := e.Counts(); c.SubagentContinuations != n+1 || c.SessionContinuations != n+1 {
		t.Errorf("counts %+v, want %d subagent continuations", c, n+1)
	}
	// The one at work still has its budget spent.
	if a := e.Decide(context.Background(), subIn("working")); a.Decision != hooks.Allow {
		t.Fatalf("working, past its steers: %+v", a)
	}
}

func TestSubagentChecksFilterByAgentType(t *testing.T) {
	cfg := config.Defaults()
	cfg.Mode = config.ModeAuto
	cfg.SubagentStop.Checks = []config.Check{{Name: "only-explore", Command: "exit 1", AgentTypes: []string{"Explore"}}}
	e, _ := newTestEngine(t, cfg)
	if a := e.Decide(context.Background(), subIn("x")); a.Decision != hooks.Allow {
		t.Fatalf("a general-purpose subagent ran an Explore-only check: %+v", a)
	}
}

func TestFailureWithoutRetryWarnsAndAllows(t *testing.T) {
	no := false
	e, r := newTestEngine(t, cfgWith(config.ModeAuto, config.Check{Name: "fmt", Command: "exit 3", RetryOnFailure: &no}))
	a := e.Decide(context.Background(), stopIn(false))
	if a.Decision != hooks.Allow || !strings.Contains(a.SystemMessage, `"fmt" failed (exit 3)`) {
		t.Fatalf("%+v", a)
	}
	if r.verdicts[0].Warning == "" {
		t.Fatal("no warning in the verdict")
	}
}

func TestFirstBlockingFailureEndsTheRun(t *testing.T) {
	dir := t.TempDir()
	e, _ := newTestEngine(t, cfgWith(config.ModeAuto, check("one", "exit 1"), check("two", "touch "+filepath.Join(dir, "two-ran"))))
	e.Decide(context.Background(), stopIn(false))
	if _, err := os.Stat(filepath.Join(dir, "two-ran")); err == nil {
		t.Fatal("the second check ran after the first blocked")
	}
}

func TestMaxRetries(t *testing.T) {
	e, r := newTestEngine(t, cfgWith(config.ModeAuto, config.Check{Name: "t", Command: "exit 1", MaxRetries: 1}))
	first := e.Decide(context.Background(), stopIn(false))
	second := e.Decide(context.Background(), stopIn(true))
	if first.Decision != hooks.Block || second.Decision != hooks.Allow {
		t.Fatalf("%v then %v", first.Decision, second.Decision)
	}
	if !strings.Contains(r.verdicts[1].Warning, "retries are used up") {
		t.Fatalf("warning %q", r.verdicts[1].Warning)
	}
}

func TestRequiredCheckThatCannotStart(t *testing.T) {
	e, r := newTestEngine(t, cfgWith(config.ModeAuto, config.Check{Name: "tool", Command: "no-such-binary-hooksup --x", Required: true}))
	a := e.Decide(context.Background(), stopIn(false))
	if a.Decision != hooks.Allow || !strings.Contains(a.SystemMessage, "could not start") {
		t.Fatalf("%+v", a)
	}
	var alerted bool
	for _, ev := range r.events {
		if n, ok := ev.(session.Notice); ok && n.Level == "error" && strings.Contains(n.Text, "tool") {
			alerted = true
		}
	}
	if !alerted {
		t.Fatal("a required check that cannot start did not alert the person")
	}
}

// A check that forks children and hangs is killed with its whole process group at its timeout.
func TestCheckTimeoutKillsTheWholeGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	cmd := fmt.Sprintf(`sh -c 'echo $$ > %s; exec sleep 300' & sleep 300`, pidFile)
	e, r := newTestEngine(t, cfgWith(config.ModeAuto, config.Check{Name: "hang", Command: cmd, Timeout: config.Duration{D: 300 * time.Millisecond}}))
	a := e.Decide(context.Background(), stopIn(false))
	if a.Decision != hooks.Block || !strings.Contains(a.Reason, "timed out") {
		t.Fatalf("%+v", a)
	}
	if !r.verdicts[0].Checks[0].TimedOut {
		t.Fatal("not recorded as timed out")
	}
	assertGone(t, pidFile)
}

func assertGone(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("child never started: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for i := 0; i < 100; i++ {
		if err := syscall.Kill(pid, 0); err != nil {
			return
		}
		// A zombie is gone for our purposes once its parent (reaped by init) is gone.
		if st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); strings.Contains(string(st), ") Z") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("child %d survived", pid)
}

func TestInterruptDuringCheckAllowsAtOnceAndKillsIt(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	e, r := newTestEngine(t, cfgWith(config.ModeAuto, check("slow", fmt.Sprintf(`sh -c 'echo $$ > %s; exec sleep 300' & wait`, pidFile))))
	done := make(chan hooks.Answer)
	go func() { done <- e.Decide(context.Background(), stopIn(false)) }()
	for i := 0; i < 200; i++ {
		if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
			break // the pid is written, not only the file created
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.Interrupt()
	a := <-done
	if a.Decision != hooks.Allow {
		t.Fatalf("%+v", a)
	}
	// The interrupt itself is recorded (no hook reports it), then the stop it cut short.
	if got := decisions(r.verdicts); got != "Interrupted:allow/escape Stop:allow/escape" {
		t.Fatalf("verdicts %s", got)
	}
	assertGone(t, pidFile)
	// The rest of the turn is allowed at once, whatever the checks say.
	if a := e.Decide(context.Background(), stopIn(false)); a.Decision != hooks.Allow || r.verdicts[2].Source != verdictlog.SourceEscape {
		t.Fatalf("after Escape: %+v %+v", a, r.verdicts[2])
	}
	// The next prompt ends the override.
	e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit})
	os.Remove(pidFile)
	e2 := cfgWith(config.ModeAuto, check("fail", "exit 1"))
	e.cfg = e2
	if a := e.Decide(context.Background(), stopIn(false)); a.Decision != hooks.Block {
		t.Fatalf("override outlived its turn: %+v", a)
	}
}

func TestObserveNeverBlocks(t *testing.T) {
	e, r := newTestEngine(t, cfgWith(config.ModeObserve, check("fail", "exit 1")))
	if a := e.Decide(context.Background(), stopIn(false)); a.Decision != hooks.Allow || r.verdicts[0].Source != verdictlog.SourceObserve {
		t.Fatalf("%+v %+v", a, r.verdicts)
	}
}

// Headless, nobody can be asked: ask mode applies the checks' proposal.
func TestAskWithoutAPersonAppliesTheProposal(t *testing.T) {
	e, r := newTestEngine(t, cfgWith(config.ModeAsk, check("fail", "exit 1")))
	if a := e.Decide(context.Background(), stopIn(false)); a.Decision != hooks.Block || r.verdicts[0].Source != "check:fail" {
		t.Fatalf("%+v", a)
	}
}

func TestBlockReasonStaysUnderClaudesCap(t *testing.T) {
	long := strings.Repeat("x", 300)
	out := strings.Repeat(long+"\n", 39) + "FINAL: 3 tests failed\n"
	reason := BlockReason(session.CheckResult{Name: "tests", Command: "go test ./...", ExitCode: 1, Output: []byte(out), Lines: 40}, 40)
	if n := len([]rune(reason)); n > hooks.MaxOutputChars {
		t.Fatalf("reason has %d characters", n)
	}
	if !strings.Contains(reason, "FINAL: 3 tests failed") || !strings.Contains(reason, `"tests" (`+"`go test ./...`"+`) failed (exit 1)`) {
		t.Fatalf("reason lost its head or tail:\n%s", reason[:200])
	}
	// One line longer than the cap keeps its end.
	reason = BlockReason(session.CheckResult{Name: "json", Command: "x", ExitCode: 1, Output: []byte(strings.Repeat("é", 20000) + "END"), Lines: 1}, 40)
	if n := len([]rune(reason)); n > hooks.MaxOutputChars || !strings.HasSuffix(reason, "END") {
		t.Fatalf("reason of %d characters ends %q", n, reason[len(reason)-10:])
	}
}

func TestBlockReasonIsConcise(t *testing.T) {
	var out strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&out, "line %d\n", i)
	}
	long := "sh -c 'for f in $(git ls-files); do some-long-linter --strict --config .linter.yml \"$f\" || exit 1; done'"
	for _, tc := range []struct {
		name      string
		r         session.CheckResult
		maxLines  int
		wantLines int
		head      []string // in the first line
		notHead   []string
		last      string
	}{
		{"long output", session.CheckResult{Name: "tests", Command: "go test ./...", ExitCode: 1, Output: []byte(out.String()), Lines: 3000}, 0, 41,
			[]string{`"tests"`, "exit 1", "`go test ./...`", "last 40 of its 3000 lines"}, nil, "line 3000"},
		{"reason_lines 5", session.CheckResult{Name: "tests", Command: "go test ./...", ExitCode: 2, Output: []byte(out.String()), Lines: 3000}, 5, 6,
			[]string{"exit 2", "last 5 of its 3000"}, nil, "line 3000"},
		{"short output", session.CheckResult{Name: "lint", Command: long, ExitCode: 1, Output: []byte("a.go:1: bad\n"), Lines: 1}, 40, 2,
			[]string{`"lint" failed (exit 1)`, "Its output:"}, []string{"some-long-linter"}, "a.go:1: bad"},
		{"no output", session.CheckResult{Name: "lint", Command: long, ExitCode: 1}, 40, 1,
			[]string{"some-long-linter", "printed nothing"}, nil, ""},
		{"timed out", session.CheckResult{Name: "lint", Command: long, ExitCode: -1, TimedOut: true, Duration: 2 * time.Minute, Output: []byte("waiting\n"), Lines: 1}, 40, 2,
			[]string{"some-long-linter", "timed out after 2m0s"}, nil, "waiting"},
		// A command of several lines is shown as hooksup trust shows it (termsafe.String): its
		// line breaks as \n, never joined into another command ("make lint && ; make test").
		{"multi-line command", session.CheckResult{Name: "m", Command: "set -e\ngo vet ./...\n", ExitCode: 1}, 40, 1,
			[]string{"(`set -e\\ngo vet ./...\\n`)"}, []string{" ; "}, ""},
		{"two-line command", session.CheckResult{Name: "m", Command: "make lint &&\nmake test", ExitCode: 1, Output: []byte("lint: 2 problems\n"), Lines: 1}, 40, 2,
			[]string{"(`make lint &&\\nmake test`)"}, []string{" ; "}, "lint: 2 problems"},
	} {
		reason := BlockReason(tc.r, tc.maxLines)
		lines := strings.Split(reason, "\n")
		if len(lines) != tc.wantLines {
			t.Errorf("%s: %d lines, want %d:\n%s", tc.name, len(lines), tc.wantLines, reason)
			continue
		}
		for _, w := range tc.head {
			if !strings.Contains(lines[0], w) {
				t.Errorf("%s: header %q lacks %q", tc.name, lines[0], w)
			}
		}
		for _, w := range tc.notHead {
			if strings.Contains(lines[0], w) {
				t.Errorf("%s: header %q has %q", tc.name, lines[0], w)
			}
		}
		if tc.last != "" && lines[len(lines)-1] != tc.last {
			t.Errorf("%s: ends %q, want %q", tc.name, lines[len(lines)-1], tc.last)
		}
	}
}

// What claude reads and what the verdict log keeps are plain text; the log keeps all the output
// hooksup kept.
func TestCheckOutputIsPlainAndKept(t *testing.T) {
	e, r := newTestEngine(t, cfgWith(config.ModeAuto, check("tests", `printf '\033[31mFAILED\033[0m\n'; i=0; while [ $i -lt 500 ]; do echo "row $i"; i=$((i+1)); done; exit 1`)))
	a := e.Decide(context.Background(), stopIn(false))
	if a.Decision != hooks.Block || strings.ContainsRune(a.Reason, 0x1b) || !strings.Contains(a.Reason, "last 40 of its 501 lines") {
		t.Fatalf("%q", a.Reason)
	}
	out := r.verdicts[0].Checks[0].Output
	if !strings.HasPrefix(out, "FAILED\nrow 0\n") || !strings.HasSuffix(out, "row 499") {
		t.Fatalf("recorded %q…", out[:min(len(out), 100)])
	}
}

func TestCheckCwdAndEnv(t *testing.T) {
	e, r := newTestEngine(t, cfgWith(config.ModeAuto, config.Check{Name: "where", Command: `test "$(basename "$PWD")" = sub && test "$MY_VAR" = 42 && test "$HOOKSUP_EVENT" = Stop && test -z "$HOOKSUP_TOKEN" || { echo "pwd=$PWD var=$MY_VAR"; exit 1; }`,
		Cwd: "sub", Env: map[string]string{"MY_VAR": "42"}}))
	os.MkdirAll(filepath.Join(e.projectDir, "sub"), 0o755)
	t.Setenv("HOOKSUP_TOKEN", "secret-must-not-reach-checks")
	if a := e.Decide(context.Background(), stopIn(false)); a.Decision != hooks.Allow {
		t.Fatalf("%+v (verdict %+v)", a, r.verdicts)
	}
}

func decisions(vs []verdictlog.Verdict) string {
	var d []string
	for _, v := range vs {
		d = append(d, v.Event+":"+string(v.Decision)+"/"+string(v.Source))
	}
	return strings.Join(d, " ")
}

// Escape kills the checks of every stop being decided, not only the last one, with every
// process they started, and a stop that waits for the check slot stops waiting.
func TestInterruptKillsParallelStops(t *testing.T) {
	pidsFile := filepath.Join(t.TempDir(), "pids")
	cfg := config.Defaults()
	cfg.Mode = config.ModeAuto
	// The check's shell and the job it started each write their pid.
	cfg.SubagentStop.Checks = []config.Check{{Name: "slow", Command: fmt.Sprintf(`sleep 300 & echo $! >> %[1]s; echo $$ >> %[1]s; wait`, pidsFile)}}
	e, r := newTestEngine(t, cfg)
	done := make(chan hooks.Answer, 2)
	go func() { done <- e.Decide(context.Background(), subIn("a1")) }()
	go func() { done <- e.Decide(context.Background(), subIn("a2")) }()
	pids := waitPIDs(t, pidsFile, 2)
	waitUntil(t, "both stops to be decided", func() bool {
		e.mu.Lock()
		defer e.mu.Unlock()
		return len(e.deciding) == 2
	})
	for _, pid := range pids {
		if !running(pid) {
			t.Fatalf("the check's process %d is not running before Escape", pid)
		}
	}
	start := time.Now()
	e.Interrupt()
	for i := 0; i < 2; i++ {
		select {
		case a := <-done:
			if a.Decision != hooks.Allow {
				t.Fatalf("%+v", a)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("a stop kept waiting after Escape")
		}
	}
	t.Logf("both stops answered %v after Escape", time.Since(start))
	if got, want := decisions(r.verdicts), "Interrupted:allow/escape SubagentStop:allow/escape SubagentStop:allow/escape"; got != want {
		t.Fatalf("verdicts %s, want %s", got, want)
	}
	waitUntil(t, fmt.Sprintf("the check's processes %v to be gone", pids), func() bool {
		return !slices.ContainsFunc(pids, running)
	})
	// The stop that waited for the slot never ran its check.
	if got := waitPIDs(t, pidsFile, 2); len(got) != 2 {
		t.Fatalf("the check ran again: pids %v", got)
	}
}

// waitPIDs waits until path lists at least n pids, one a line, and returns them.
func waitPIDs(t *testing.T, path string, n int) []int {
	t.Helper()
	var pids []int
	waitUntil(t, fmt.Sprintf("%d pids in %s", n, path), func() bool {
		b, _ := os.ReadFile(path)
		if !bytes.HasSuffix(b, []byte("\n")) {
			return false // a line still being written
		}
		pids = pids[:0]
		for _, f := range strings.Fields(string(b)) {
			pid, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("%s: %q", path, b)
			}
			pids = append(pids, pid)
		}
		return len(pids) >= n
	})
	return pids
}

// running reports a process that runs, as ps sees it: a zombie has ended.
func running(pid int) bool {
	out, err := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
	st := strings.TrimSpace(string(out))
	return err == nil && st != "" && !strings.HasPrefix(st, "Z")
}

// waitUntil polls ok until it holds, failing the test after 30 s.
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// A stop whose hook goes away before the decision is recorded as fail-open, not as passed
// checks or Escape.
func TestHookGoneIsFailOpen(t *testing.T) {
	e, r := newTestEngine(t, cfgWith(config.ModeAuto, check("slow", "sleep 300")))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(200 * time.Millisecond); cancel() }()
	if a := e.Decide(ctx, stopIn(false)); a.Decision != hooks.Allow {
		t.Fatalf("%+v", a)
	}
	if v := r.verdicts[0]; v.Source != verdictlog.SourceFailOpen || !strings.Contains(v.Warning, "went away") {
		t.Fatalf("%+v", v)
	}
}

// A failed check's output is kept in the verdict (its end), a passing one's is not.
func TestVerdictKeepsFailedCheckOutput(t *testing.T) {
	no := false
	e, r := newTestEngine(t, cfgWith(config.ModeAuto, config.Check{Name: "ok", Command: "echo fine"}, config.Check{Name: "bad", Command: "echo 'E: broken'; exit 2", RetryOnFailure: &no}))
	e.Decide(context.Background(), stopIn(false))
	c := r.verdicts[0].Checks
	if len(c) != 2 || c[0].Output != "" || c[1].Output != "E: broken" {
		t.Fatalf("%+v", c)
	}
}
