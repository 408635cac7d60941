// Package engine decides each Stop and SubagentStop: the turn and its counts, the project's
// checks, the mode's say, the person's questions, Escape's override and the limits; it publishes
// its events and verdict log lines in order through its Outbox. The supervisor runs one engine
// per session; the hook that `hooksup install` registers runs one per stop (standalone.go), so
// this package links nothing of the terminal, the agent or the transcript tail.
package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/checks/failure"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/clip"
	"github.com/hooksup/hooksup/internal/projectlock"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// Engine decides every Stop and SubagentStop of one supervised session: the Escape override,
// observe mode, the continuation limits, the checks, and the mode's say on the checks'
// proposal. It keeps the per-turn and per-session counts.
type Engine struct {
	cfg        config.Config
	projectDir string
	// emit publishes an event in its turn (through out); emitNow and record, called only by
	// out's items, publish an event and write a log line.
	emit    func(session.Event)
	emitNow func(session.Event)
	record  func(verdictlog.Verdict) error
	out     *Outbox
	logger  *slog.Logger
	now     func() time.Time
	// dialect encodes the answer as the agent reads it (nil: hooks' own codec).
	dialect hooks.Dialect
	// interactive: a person can answer questions (the TUI); otherwise proposals apply.
	interactive bool
	// transcript waits until the transcript has the message a stop names, or ctx ends, and
	// returns what it says then (nil: no transcript is followed).
	transcript func(ctx context.Context, in *hooks.Input) *verdictlog.Observation
	groups     *checks.Groups // records the checks' process groups while they run
	// flushed ends when Flush is called: every wait for the transcript ends with it.
	flushed context.Context
	flush   context.CancelFunc

	checkSlot chan struct{} // one check run at a time; waiting for it honours the context
	// lockDir holds the project locks (none: the checks run without one); agent and pid say
	// who holds one, for those who wait.
	lockDir string
	agent   string
	pid     int

	mu           sync.Mutex
	sessionID    string
	model        string
	turn         int
	turnStarted  time.Time
	turnConts    int
	sessionConts int
	escapedTurn  int            // the turn in which Escape was pressed; -1 for none
	steers       map[string]int // the steers of each subagent not yet let stop
	subConts     int            // all subagents' steers in the session
	checkBlocks  map[string]int
	deciding     map[int]context.CancelFunc // the stops being decided now, by decision number
	decideSeq    int
	runSeq       int
	verdicts     int
	questionSeq  int
	pending      map[int]*pendingQuestion
	waiting      *session.Waiting // the checks wait for another run of checks in the project
	goal         *goalRun         // goal mode's goal (nil: none)
	next         *nextConfig      // the configuration the next stop switches to (Reconfigure)

	// sentBack is the reason of the main agent's latest block as the agent received it, until
	// its next prompt: an agent that fires UserPromptSubmit for the reason it is sent back,
	// alone or joined with other hooks' (Gemini CLI's BeforeAgent), is continuing its turn, not
	// starting one.
	sentBack string
}

// Options wire an Engine.
type Options struct {
	Config     config.Config
	ProjectDir string
	// Emit publishes an event and Record writes a line to the verdict log. Both are called one
	// at a time, in the order things happened: a verdict's line and its VerdictDecided come once
	// its observation is complete, perhaps after the agent has its answer, and what happened
	// after the decision comes after them.
	Emit   func(session.Event)
	Record func(verdictlog.Verdict) error
	Logger *slog.Logger
	Now    func() time.Time
	// Dialect is the agent's: Stop's reply is its answer as that agent reads it (nil: hooks'
	// own codec).
	Dialect hooks.Dialect
	// Interactive says a person can answer questions; without one, ask and manual apply the
	// checks' proposal.
	Interactive bool
	// Transcript is the one read of the transcript for a stop: it returns once the transcript
	// has the message the stop names (it lags behind the hook), or ctx ends, with what the
	// transcript says then. The engine waits for it at most catchUpWait, and never before the
	// answer; with ctx ended already, it is what the transcript says now.
	Transcript func(ctx context.Context, in *hooks.Input) *verdictlog.Observation
	// Groups records the checks' process groups while they run (nil: not recorded).
	Groups *checks.Groups
	// Outbox orders the engine's events and log lines with the rest of the session's (nil: the
	// engine's own).
	Outbox *Outbox
	// LockDir is where the project locks are (the runtime directory): the checks of a stop run
	// while no other hooksup runs checks in the project (ProjectDir). Empty: no lock is taken.
	// Agent (the agent's name, as `hooksup NAME` takes it: claude, codex, …) and PID (this
	// process's when 0) say who holds it.
	LockDir string
	Agent   string
	PID     int
	// Goal puts the session in goal mode (nil: none): the main agent's stops are decided for
	// the goal until it ends (goal.go).
	Goal *Goal
}

// New makes an engine.
func New(o Options) *Engine {
	e := &Engine{
		cfg: o.Config, projectDir: o.ProjectDir, emitNow: o.Emit, record: o.Record, out: o.Outbox, dialect: o.Dialect,
		logger: o.Logger, now: o.Now, interactive: o.Interactive, transcript: o.Transcript, groups: o.Groups,
		escapedTurn: -1, steers: map[string]int{}, checkBlocks: map[string]int{},
		pending: map[int]*pendingQuestion{}, deciding: map[int]context.CancelFunc{}, checkSlot: make(chan struct{}, 1),
		lockDir: o.LockDir, agent: o.Agent, pid: o.PID,
	}
	if e.pid == 0 {
		e.pid = os.Getpid()
	}
	e.flushed, e.flush = context.WithCancel(context.Background())
	if e.emitNow == nil {
		e.emitNow = func(session.Event) {}
	}
	if e.record == nil {
		e.record = func(verdictlog.Verdict) error { return nil }
	}
	if e.out == nil {
		e.out = NewOutbox()
	}
	e.emit = func(ev session.Event) { e.out.Do(func() { e.emitNow(ev) }) }
	if e.logger == nil {
		e.logger = slog.New(slog.DiscardHandler)
	}
	if e.now == nil {
		e.now = time.Now
	}
	if o.Goal != nil {
		e.goal = &goalRun{Goal: *o.Goal, started: e.now()}
	}
	return e
}

// Observe takes note of a hook that decides nothing (SessionStart, UserPromptSubmit, …).
func (e *Engine) Observe(in *hooks.Input) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if in.SessionID != "" && in.HookEventName != hooks.SubagentStart {
		e.sessionID = in.SessionID
	}
	switch in.HookEventName {
	case hooks.SessionStart:
		if in.Model != "" {
			e.model = in.Model
		}
	case hooks.UserPromptSubmit:
		sent := e.sentBack
		e.sentBack = ""
		// An agent that joins other Stop hooks' reasons with the one sent back (Qwen Code) is
		// continuing too, as is one whose dialect says it sent the prompt itself.
		if in.Continuing || sent != "" && strings.Contains(in.Prompt, sent) {
			return
		}
		e.turn++
		e.turnConts = 0
		e.turnStarted = e.now()
	}
}

// Interrupt is Escape: every further Stop and SubagentStop of this turn is allowed at once and
// running checks are killed.
func (e *Engine) Interrupt() {
	now := e.now()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.escapedTurn = e.turn
	// Claude fires no hook on an interrupt: hooksup records it itself, first, under the lock,
	// so the stops it cuts short are logged after it.
	if e.sessionID != "" {
		v := verdictlog.Verdict{Time: now, SessionID: e.sessionID, Event: verdictlog.EventInterrupted, Turn: e.turn, Decision: hooks.Allow,
			Source: verdictlog.SourceEscape, Reason: "Escape: the rest of this turn may stop", Continuations: e.turnConts,
			MaxContinuations: e.cfg.Stop.MaxContinuations, SessionContinuations: e.sessionConts}
		e.out.Do(func() {
			if err := e.record(v); err != nil {
				e.logger.Error("verdict log", "err", err)
			}
		})
	}
	for _, q := range e.pending {
		q.resolve(resolution{decision: hooks.Allow, by: verdictlog.SourceEscape})
	}
	// Every stop being decided now, subagents' too: their checks are killed.
	for _, cancel := range e.deciding {
		cancel()
	}
	e.emit(session.Interrupted{At: session.At{Time: now}, Turn: e.turn})
}

// Counts returns the current counters.
func (e *Engine) Counts() session.Counts {
	e.mu.Lock()
	defer e.mu.Unlock()
	return session.Counts{SessionID: e.sessionID, Verdicts: e.verdicts, Turn: e.turn, TurnContinuations: e.turnConts, MaxContinuations: e.cfg.Stop.MaxContinuations,
		SessionContinuations: e.sessionConts, SubagentContinuations: e.subConts, MaxSteers: e.cfg.SubagentStop.MaxSteers,
		Escaped: e.escapedTurn == e.turn, Waiting: e.waiting, Goal: e.goalRecord()}
}

// stop is one Stop or SubagentStop being decided, with what the engine knew as it arrived.
type stop struct {
	in      *hooks.Input
	start   time.Time
	sub     bool // a SubagentStop
	turn    int
	escaped bool // Escape was pressed in this turn already
	limited bool // the turn's continuations (or this subagent's steers) are used up
	goal    bool // the goal decides it (goal mode's main agent, before the goal's end)
	seq     int  // its key in e.deciding
	// caughtUp is closed once the transcript has the stop's last message, or the wait for it
	// is over, seen then being what it said; stopWait ends the wait.
	caughtUp chan struct{}
	seen     *verdictlog.Observation
	stopWait context.CancelFunc
	// known is what the engine knew of the observation at the decision: the model the session
	// started with, the final text and, when timed, the turn's duration.
	known verdictlog.Observation
	timed bool
	// ctx ends when Escape comes or the hook goes away: it kills the checks and ends a
	// question.
	ctx    context.Context
	cancel context.CancelFunc
}

// proposal is what the checks (or the rule that comes before them) said.
type proposal struct {
	decision hooks.Decision
	source   verdictlog.Source
	reason   string
	warnings []string
	blocking string // the check that proposes the block
	records  []verdictlog.CheckRecord
	waited   *verdictlog.Waited   // the checks waited for another run of checks in the project
	final    bool                 // Escape, observe mode, the limit or a goal's end: no mode or person changes it
	done     *session.CheckResult // a goal's done command's run, once the checks passed
	// goal is the goal's say, in goal mode (nil: none).
	goal *goalVerdict
	// tests is, in goal mode, how many tests each check that ran said it ran (goalguard.go).
	tests map[string]testsRun
}

// outcome is the decision after the mode (and perhaps the person) had their say.
type outcome struct {
	decision hooks.Decision
	source   verdictlog.Source
	reason   string
}

// Decide answers one Stop or SubagentStop and records the verdict, in steps: admit it (what
// the engine knows now), propose (Escape, observe mode, the limit, else the checks), ask (the
// mode's say, perhaps the person's), conclude (Escape or a vanished hook overrides; the counts
// and the verdict, which takes its place in the outbox), then complete (the observation, the
// verdict log and the front end): at once when the transcript has caught up, else after the
// answer, which never waits for it.
func (e *Engine) Decide(ctx context.Context, in *hooks.Input) hooks.Answer {
	return answer(e.decide(ctx, in))
}

// Reply is a stop's answer as the hook prints it for the agent, and the verdict it answers
// (its Observation not yet complete: nil), for what keeps count of the agent's state in step
// with the hooks.
type Reply struct {
	Stdout  []byte
	Exit    int
	Verdict verdictlog.Verdict
}

// Stop decides a stop as Decide does and returns the hook's reply in the agent's dialect.
func (e *Engine) Stop(ctx context.Context, in *hooks.Input) Reply {
	v := e.decide(ctx, in)
	out, code := encode(e.dialect, answer(v))
	return Reply{Stdout: out, Exit: code, Verdict: v}
}

func (e *Engine) decide(ctx context.Context, in *hooks.Input) verdictlog.Verdict {
	s := e.admit(ctx, in)
	defer s.cancel()
	p := e.propose(s)
	o := e.ask(s, p)
	v, place := e.conclude(ctx, s, p, o)
	// Escape's verdict does not wait for the transcript.
	e.complete(s, v, place, o.source != verdictlog.SourceEscape)
	return v
}

// admit notes the stop as being decided and takes what it is decided on: the turn, Escape,
// the limit.
func (e *Engine) admit(ctx context.Context, in *hooks.Input) *stop {
	s := &stop{in: in, start: e.now(), sub: in.HookEventName == hooks.SubagentStop}
	e.mu.Lock()
	defer e.mu.Unlock()
	if in.SessionID != "" {
		e.sessionID = in.SessionID
	}
	e.takeNext()
	s.turn = e.turn
	s.escaped = e.escapedTurn == e.turn
	s.goal = e.goal.active(s.sub)
	switch {
	case s.sub:
		s.limited = e.steers[in.AgentID] >= e.cfg.SubagentStop.MaxSteers
	case s.goal: // the goal's budget bounds it, not max_continuations
	default:
		s.limited = e.cfg.Stop.MaxContinuations > 0 && e.turnConts >= e.cfg.Stop.MaxContinuations // 0: no limit
	}
	s.ctx, s.cancel = context.WithCancel(ctx)
	e.decideSeq++
	s.seq = e.decideSeq
	e.deciding[s.seq] = s.cancel
	s.caughtUp = make(chan struct{})
	if e.transcript == nil {
		s.stopWait = func() {}
		close(s.caughtUp)
		return s
	}
	// The wait outlives the hook's call: it ends at its bound, with Escape's verdict or at Flush.
	var wait context.Context
	wait, s.stopWait = context.WithTimeout(e.flushed, catchUpWait)
	go e.awaitTranscript(wait, s)
	return s
}

// catchUpWait bounds how long a verdict's observation waits for the transcript to have the
// stop's last message, so that it counts the turn's tokens. Claude writes the line within
// milliseconds of the hook; the checks usually take longer. The answer does not wait for it.
const catchUpWait = 500 * time.Millisecond

// awaitTranscript waits, from the stop's arrival, until the transcript has the message the
// stop names, or ctx ends, keeps what it says then and closes s.caughtUp.
func (e *Engine) awaitTranscript(ctx context.Context, s *stop) {
	defer close(s.caughtUp)
	defer s.stopWait()
	start := e.now()
	s.seen = e.transcript(ctx, s.in)
	e.logger.Debug("transcript caught up", "event", s.in.HookEventName, "waited", e.now().Sub(start), "timed_out", ctx.Err() != nil)
}

// complete takes the transcript's observation into the verdict and publishes it in its place:
// now if the transcript has caught up (or with wait false), else once it has, or its wait is
// over.
func (e *Engine) complete(s *stop, v verdictlog.Verdict, place *outItem, wait bool) {
	finish := func() {
		v.Observation = e.observation(s)
		e.out.fill(place, func() { e.publish(v) })
	}
	if !wait {
		s.stopWait() // the read returns what the transcript says now
		<-s.caughtUp
		finish()
		return
	}
	select {
	case <-s.caughtUp:
		finish()
		return
	default:
	}
	go func() {
		<-s.caughtUp
		finish()
	}()
}

// Flush ends every wait for the transcript: the verdicts answered but not yet complete take
// what the transcript says now, and are logged and published before it returns. The session
// ends: nothing more will come.
func (e *Engine) Flush() {
	e.flush()
	e.out.wait() // each verdict still waiting holds its place there until it is complete
}

// propose applies the rules that come before the checks (Escape, observe mode, the limit),
// else runs the checks.
func (e *Engine) propose(s *stop) proposal {
	switch {
	case s.escaped:
		return proposal{decision: hooks.Allow, source: verdictlog.SourceEscape, final: true}
	case e.cfg.Mode == config.ModeObserve:
		return proposal{decision: hooks.Allow, source: verdictlog.SourceObserve, final: true}
	case s.limited:
		what := fmt.Sprintf("the continuation limit (%d per turn)", e.cfg.Stop.MaxContinuations)
		if s.sub {
			what = fmt.Sprintf("the steer limit (%d for this subagent)", e.cfg.SubagentStop.MaxSteers)
		}
		return proposal{decision: hooks.Allow, source: verdictlog.SourceLimit, final: true,
			warnings: []string{"hooksup: reached " + what + "; letting it stop"}}
	}
	if !s.goal {
		return e.runChecks(s.ctx, s.in, nil)
	}
	var done *config.Check
	if e.goal.Done != "" {
		c := e.goal.DoneCheck()
		done = &c
	}
	p := e.runChecks(s.ctx, s.in, done)
	// The goal's budget counts the tokens the transcript has now: the stop's own read comes
	// after the answer.
	tokens := int64(0)
	if e.transcript != nil {
		now, cancel := context.WithCancel(context.Background())
		cancel()
		tokens = goalTokens(e.transcript(now, s.in))
	}
	return e.decideGoal(s, p, tokens)
}

// ask gives the mode its say on the proposal, asking the person when it says so.
func (e *Engine) ask(s *stop, p proposal) outcome {
	if p.final || s.ctx.Err() != nil {
		return outcome{p.decision, p.source, p.reason}
	}
	return e.applyMode(s.ctx, s.in, p)
}

// conclude lets Escape and a vanished hook override the outcome, counts a block, and makes
// the verdict (its observation still to come), and its place in the outbox.
func (e *Engine) conclude(ctx context.Context, s *stop, p proposal, o outcome) (verdictlog.Verdict, *outItem) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.escapedTurn == s.turn && e.turn == s.turn && o.source != verdictlog.SourceEscape:
		// Escape came while the checks ran or the person was asked: it wins.
		o = outcome{hooks.Allow, verdictlog.SourceEscape, ""}
	case ctx.Err() != nil:
		// The hook went away (claude's timeout, claude gone) or hooksup is shutting down before
		// a decision: claude lets it stop, and so does the record.
		o = outcome{hooks.Allow, verdictlog.SourceFailOpen, ""}
		p.warnings = append(p.warnings, "hooksup: the hook went away before the stop was decided")
	}
	goal := e.concludeGoal(s, p, o)
	if o.decision == hooks.Block {
		e.sessionConts++
		if s.sub {
			e.steers[s.in.AgentID]++ // a subagent's steers have their own budget
			e.subConts++
		} else {
			e.turnConts++
			e.sentBack = hooks.Answer{Decision: hooks.Block, Reason: o.reason}.SentReason()
		}
		if p.blocking != "" && o.source == verdictlog.CheckSource(p.blocking) {
			e.checkBlocks[p.blocking]++
		}
	}
	in := s.in
	v := verdictlog.Verdict{
		Time: e.now(), Asked: s.start, SessionID: e.sessionID, Event: in.HookEventName, AgentID: in.AgentID,
		AgentType: in.AgentType, Turn: s.turn, Stop: s.seq, Decision: o.decision, Source: o.source,
		Reason: o.reason, Warning: strings.Join(p.warnings, "\n"), StopHookActive: in.Active(),
		Continuations: e.turnConts, MaxContinuations: e.cfg.Stop.MaxContinuations,
		SessionContinuations: e.sessionConts, Checks: p.records, Waited: p.waited, Goal: goal,
	}
	if !p.final && o.source != p.source {
		// The person (or the timeout, Escape, a vanished hook) decided, not the checks: keep
		// what they proposed, so a denied continuation shows what was denied.
		v.Proposal = &verdictlog.Proposal{Decision: p.decision, Source: p.source, Reason: p.reason}
	}
	v.LatencyMS = checks.Millis(v.Time.Sub(s.start))
	s.known = verdictlog.Observation{Model: e.model, LastMessage: clip.Head(in.LastAssistantMessage, 500)}
	if s.timed = !e.turnStarted.IsZero(); s.timed {
		s.known.TurnMS = v.Time.Sub(e.turnStarted).Milliseconds()
	}
	if s.sub {
		v.Steers, v.MaxSteers = e.steers[in.AgentID], e.cfg.SubagentStop.MaxSteers
		if o.decision != hooks.Block {
			// It stops: its budget is spent with it, and the map stays as small as the number of
			// subagents at work, however many the session runs.
			delete(e.steers, in.AgentID)
		}
	}
	delete(e.deciding, s.seq)
	e.verdicts++
	return v, e.out.hold(s.seq)
}

// publish writes the verdict to the log and tells the front end; it runs in the outbox.
func (e *Engine) publish(v verdictlog.Verdict) {
	if err := e.record(v); err != nil {
		e.logger.Error("verdict log", "err", err)
		e.emitNow(session.Notice{At: session.At{Time: e.now()}, Level: session.NoticeError, Text: "the verdict log cannot be written: " + err.Error()})
	}
	e.emitNow(session.VerdictDecided{At: session.At{Time: e.now()}, Verdict: v})
}

// encode is a's answer as d's agent reads it (hooks' codec when d is nil): the one place the
// hook's reply is written, for a supervised stop and a standalone one alike.
func encode(d hooks.Dialect, a hooks.Answer) ([]byte, int) {
	if d == nil {
		return a.Encode()
	}
	return d.Answer(a)
}

// answer is what the hook answers for a verdict, before its agent's encoding.
func answer(v verdictlog.Verdict) hooks.Answer {
	a := hooks.Answer{Decision: v.Decision, Reason: v.Reason, SystemMessage: v.Warning}
	if v.Decision == hooks.Halt {
		a.Reason, a.StopReason = "", v.Reason
		if a.StopReason == "" {
			a.StopReason = "Stopped by the person supervising this session."
		}
	}
	return a
}

// observation is the session as a stop's verdict records it: what the transcript knows at this
// moment (it lags: the final text comes from the hook input), with what the engine knew at the
// decision: the model, the turn's duration up to it.
func (e *Engine) observation(s *stop) *verdictlog.Observation {
	o := &verdictlog.Observation{}
	if s.seen != nil {
		o = s.seen
	}
	if o.Model == "" {
		o.Model = s.known.Model
	}
	if s.timed {
		o.TurnMS = s.known.TurnMS
	}
	o.LastMessage = s.known.LastMessage
	return o
}

// applyMode turns the checks' proposal into the decision, asking a person when the mode says so
// and someone is there to ask.
func (e *Engine) applyMode(ctx context.Context, in *hooks.Input, p proposal) outcome {
	askNow := e.cfg.Mode == config.ModeManual || (e.cfg.Mode == config.ModeAsk && p.decision == hooks.Block)
	if !askNow || !e.interactive {
		return outcome{p.decision, p.source, p.reason}
	}
	r := e.askPerson(ctx, session.Question{Event: in.HookEventName, AgentID: in.AgentID, AgentType: in.AgentType,
		Proposal: p.decision, Source: p.source, Reason: p.reason, Warning: strings.Join(p.warnings, "\n"),
		LastMessage: clip.Head(in.LastAssistantMessage, 2000)})
	switch r.by {
	case verdictlog.SourceTimeout:
		if e.cfg.OnTimeout == config.TimeoutAllow {
			return outcome{hooks.Allow, verdictlog.SourceTimeout, ""}
		}
		return outcome{p.decision, verdictlog.SourceTimeout, p.reason}
	case verdictlog.SourceEscape, verdictlog.SourceFailOpen:
		return outcome{hooks.Allow, r.by, ""}
	}
	switch r.decision {
	case hooks.Allow:
		return outcome{hooks.Allow, r.by, ""}
	case hooks.Halt:
		return outcome{hooks.Halt, r.by, r.reason}
	}
	if r.reason == "" {
		r.reason = p.reason
	}
	if r.reason == "" {
		r.reason = "The person supervising you asks you to continue."
	}
	return outcome{hooks.Block, r.by, r.reason}
}

// runChecks runs the checks that apply, in order, and proposes what they say: block on the
// first failing check that may still make the agent continue, allow otherwise. They run one
// run at a time in the session, and in the project (lockProject).
func (e *Engine) runChecks(ctx context.Context, in *hooks.Input, done *config.Check) proposal {
	list := e.checksFor(in)
	p := proposal{decision: hooks.Allow, source: verdictlog.SourceChecks}
	if len(list) == 0 {
		p.source = verdictlog.SourceNoChecks
		if done == nil {
			return p
		}
	}
	select {
	case e.checkSlot <- struct{}{}:
		defer func() { <-e.checkSlot }()
	case <-ctx.Done():
		return p
	}
	// The project's directory, where its configuration is: not the agent's cwd of the moment,
	// which a Bash tool's cd may have moved.
	lock, ok := e.lockProject(ctx, in, &p)
	if !ok {
		return p
	}
	defer lock.Release()
	dir := e.projectDir
	for _, c := range list {
		if ctx.Err() != nil {
			break
		}
		lock.Running(c.Name)
		res := e.runOne(ctx, c, dir, in)
		p.records = append(p.records, checks.Record(res))
		e.noteTests(&p, res)
		if e.judge(&p, c, res) {
			return p
		}
	}
	if done != nil && ctx.Err() == nil {
		// A goal's done command runs once the checks pass, under the same lock.
		lock.Running(done.Name)
		res := e.runOne(ctx, *done, dir, in)
		p.done = &res
	}
	return p
}

// lockProject takes the project's lock for a stop's checks, waiting while another hooksup
// runs checks in the project, and telling the front end for whom (CheckWaiting, then
// CheckWaitEnded). It waits at most the time one run of this configuration's checks may take
// (config.Config.ChecksTimeout), which the stop hook's timeout leaves room for: past it, the
// stop is let go with a warning rather than its checks run beside the other's or the hook
// killed. ok is false when the checks are not to run: Escape, the hook gone, the wait too long
// (p says why). A lock that cannot be taken (a runtime directory gone wrong) is logged and the
// checks run without it: hooksup never holds an agent up for its own fault. A lock whose holder
// died holding it is taken at once, and what that holder's checks left running is ended first.
func (e *Engine) lockProject(ctx context.Context, in *hooks.Input, p *proposal) (*projectlock.Lock, bool) {
	if e.lockDir == "" {
		return nil, true
	}
	budget := e.cfg.ChecksTimeout()
	wctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	var since time.Time
	waiting := func(h projectlock.Holder) {
		if since.IsZero() {
			since = e.now()
		}
		e.setWaiting(&session.Waiting{Holder: h, Since: since})
		e.emit(session.CheckWaiting{At: session.At{Time: e.now()}, Event: in.HookEventName, AgentID: in.AgentID, Holder: h, Since: since})
		e.logger.Info("checks wait for another run of checks in the project", "holder_session", h.SessionID, "holder_agent", h.Agent,
			"holder_pid", h.PID, "holder_check", h.Check, "project", h.Project)
	}
	me := projectlock.Holder{SessionID: in.SessionID, Agent: e.agent, PID: e.pid, Project: e.projectDir}
	lock, w, err := projectlock.Acquire(wctx, e.lockDir, me, waiting)
	if w.For != nil {
		e.setWaiting(nil)
		e.emit(session.CheckWaitEnded{At: session.At{Time: e.now()}, Event: in.HookEventName, AgentID: in.AgentID, Waited: w.Waited})
		p.waited = &verdictlog.Waited{MS: checks.Millis(w.Waited), SessionID: w.For.SessionID, Agent: w.For.Agent, PID: w.For.PID}
	}
	switch {
	case err == nil:
	case ctx.Err() != nil: // Escape, or the hook went away: conclude says which
		return nil, false
	case errors.Is(err, context.DeadlineExceeded):
		who := "another hooksup"
		if w.For != nil {
			who = w.For.Name()
		}
		p.warnings = append(p.warnings, fmt.Sprintf("hooksup: checks skipped: %s still ran its checks in this project after %s; letting it stop",
			who, budget.Round(time.Second)))
		return nil, false
	default:
		e.logger.Error("checks run without the project lock", "err", err)
		return nil, true
	}
	if h := w.TookOver; h != nil {
		e.logger.Warn("took over the project lock of a hooksup that died running checks", "holder_session", h.SessionID,
			"holder_pid", h.PID, "holder_check", h.Check, "project", h.Project)
		checks.Sweep(e.lockDir, e.logger) // its checks may have left their process groups running
	}
	return lock, true
}

// setWaiting notes whether a stop's checks wait, for Counts.
func (e *Engine) setWaiting(w *session.Waiting) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.waiting = w
}

// checksFor is the checks that apply to a stop: a SubagentStop's by agent type.
func (e *Engine) checksFor(in *hooks.Input) []config.Check {
	if in.HookEventName != hooks.SubagentStop {
		return e.cfg.Stop.Checks
	}
	var list []config.Check
	for _, c := range e.cfg.SubagentStop.Checks {
		if len(c.AgentTypes) == 0 || slices.Contains(c.AgentTypes, in.AgentType) {
			list = append(list, c)
		}
	}
	return list
}

// runOne runs one check, telling the front end as it starts, prints and ends.
func (e *Engine) runOne(ctx context.Context, c config.Check, dir string, in *hooks.Input) session.CheckResult {
	e.mu.Lock()
	e.runSeq++
	run := e.runSeq
	e.mu.Unlock()
	e.emit(session.CheckStarted{At: session.At{Time: e.now()}, Run: run, Name: c.Name, Command: c.Command, Event: in.HookEventName, AgentID: in.AgentID})
	res := checks.Run(ctx, e.groups, c, dir, stopEnv(in), func(b []byte) {
		e.emit(session.CheckOutput{At: session.At{Time: e.now()}, Run: run, Name: c.Name, Chunk: b})
	})
	e.emit(session.CheckFinished{At: session.At{Time: e.now()}, Run: run, Result: res})
	e.logger.Info("check", "name", c.Name, "exit", res.ExitCode, "duration", res.Duration, "timed_out", res.TimedOut, "left_running", res.LeftRunning)
	return res
}

// judge weighs one check's result into the proposal and reports whether it decides the stop
// (a block); a failure that may not block adds a warning instead.
func (e *Engine) judge(p *proposal, c config.Check, res session.CheckResult) bool {
	switch {
	case res.Passed() || res.Canceled:
		return false
	case res.StartErr != nil:
		msg := fmt.Sprintf("hooksup: check \"%s\" could not start: %v", termsafe.String(c.Name), res.StartErr)
		if c.Required {
			msg += " (required: fix the command in your hooksup config)"
			e.emit(session.Notice{At: session.At{Time: e.now()}, Level: session.NoticeError, Text: msg})
		}
		p.warnings = append(p.warnings, msg)
		return false
	case !c.Retries():
		p.warnings = append(p.warnings, fmt.Sprintf("hooksup: check \"%s\" failed (%s)", termsafe.String(c.Name), howFailed(res)))
		return false
	}
	e.mu.Lock()
	blocked := e.checkBlocks[c.Name]
	e.mu.Unlock()
	if c.MaxRetries > 0 && blocked >= c.MaxRetries {
		p.warnings = append(p.warnings, fmt.Sprintf("hooksup: check \"%s\" still fails (%s); its %d retries are used up", termsafe.String(c.Name), howFailed(res), c.MaxRetries))
		return false
	}
	p.decision, p.source, p.blocking = hooks.Block, verdictlog.CheckSource(c.Name), c.Name
	p.reason = BlockReason(res, e.cfg.ReasonLines)
	return true
}

// stopEnv tells a check about the stop it decides.
func stopEnv(in *hooks.Input) []string {
	env := []string{
		"HOOKSUP_EVENT=" + in.HookEventName,
		"HOOKSUP_SESSION_ID=" + in.SessionID,
		fmt.Sprintf("HOOKSUP_STOP_HOOK_ACTIVE=%t", in.Active()),
	}
	if in.AgentID != "" {
		env = append(env, "HOOKSUP_AGENT_ID="+in.AgentID, "HOOKSUP_AGENT_TYPE="+in.AgentType)
	}
	return env
}

func howFailed(r session.CheckResult) string {
	if r.TimedOut {
		return fmt.Sprintf("timed out after %s", r.Duration.Round(time.Second))
	}
	if r.LeftRunning {
		return fmt.Sprintf("exit %d; %s", r.ExitCode, checks.LeftRunningNote())
	}
	return fmt.Sprintf("exit %d", r.ExitCode)
}

// maxReasonOutput bounds the check output quoted in a reason, leaving room for the heading
// under Claude Code's 10,000-character cap.
const maxReasonOutput = 8000

// BlockReason is what the agent reads when a check makes it continue, in plain text: one line
// with the check's name and how it failed, then what failed as package failure reads it from the
// output (each failing test's name and first message, the linters' findings, the runner's
// summary; what passed left out), within failure.DefaultBudget or maxLines lines if more, when
// the output is longer than maxLines (DefaultReasonLines when 0); else, or when no runner's
// output is recognised, at most maxLines lines of the end of the output. The command is named,
// as hooksup trust shows it, when it helps: when it is short enough to run again by hand, when
// it printed nothing, when it timed out.
func BlockReason(r session.CheckResult, maxLines int) string {
	if maxLines <= 0 {
		maxLines = config.DefaultReasonLines
	}
	text := checks.Text(r)
	var lines []string
	if text != "" {
		lines = strings.Split(text, "\n")
	}
	total := max(r.Lines, len(lines))
	var shown []string
	var report failure.Report
	if total > maxLines { // else the whole output fits, and is quoted
		report = failure.Read(text)
	}
	if report.Found() {
		b := failure.DefaultBudget
		if maxLines > b.Lines {
			b = failure.Budget{Lines: maxLines, Bytes: min(b.Bytes*maxLines/b.Lines, maxReasonOutput)}
		}
		shown = report.Lines(b)
	} else {
		shown = lastLines(lines, maxLines)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "The check \"%s\"", termsafe.String(r.Name))
	// The command as hooksup trust shows it: on one line, its line breaks as \n. Joined with
	// " ; " it read as another command ("make lint && ; make test" is not even shell).
	if cmd := termsafe.String(r.Command); len(cmd) <= 60 || len(lines) == 0 || r.TimedOut {
		fmt.Fprintf(&b, " (`%s`)", termsafe.String(clip.Head(r.Command, 300)))
	}
	fmt.Fprintf(&b, " failed (%s)", howFailed(r))
	switch {
	case len(lines) == 0:
		b.WriteString(" and printed nothing. Find out why, fix it, then finish.")
	case report.Found():
		fmt.Fprintf(&b, ". Fix what it reports, then finish. %s%s), from its %d lines of output:",
			session.WhatFailed, strings.Join(report.Runners, ", "), total)
	case len(shown) < total:
		fmt.Fprintf(&b, ". Fix what it reports, then finish. The last %d of its %d lines of output:", len(shown), total)
	default:
		b.WriteString(". Fix what it reports, then finish. Its output:")
	}
	for _, l := range shown {
		b.WriteString("\n")
		b.WriteString(l)
	}
	return hooks.Truncate(b.String(), hooks.MaxOutputChars)
}

// lastLines is at most maxLines whole lines from the end of lines, under maxReasonOutput bytes;
// a single line too long keeps its end.
func lastLines(lines []string, maxLines int) []string {
	shown := lines[max(0, len(lines)-maxLines):]
	size := 0
	for i := len(shown) - 1; i >= 0; i-- {
		size += len(shown[i]) + 1
		if size > maxReasonOutput {
			if i == len(shown)-1 {
				return []string{"…" + clip.Tail(shown[i], maxReasonOutput)}
			}
			return shown[i+1:]
		}
	}
	return shown
}
