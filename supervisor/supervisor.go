// Package supervisor runs one supervised agent session (any agent of agent/agents: package
// agent says what differs between them): it starts the agent, owns the hook
// socket, decides every stop (checks, counters, questions, the Escape override), writes the
// verdict log and publishes events for a front end. It imports no UI package.
package supervisor

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/engine"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/clip"
	"github.com/hooksup/hooksup/internal/hangup"
	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
	"github.com/hooksup/hooksup/verdictlog"
)

// Options configure a Supervisor.
type Options struct {
	Config     config.Config
	Agent      agent.Agent // which agent runs; required
	Bin        string      // the agent's binary (already resolved, or a name found on PATH)
	Args       []string    // passed to the agent, with hooksup's hooks injected as the agent takes them
	HooksupBin string      // hooksup itself: the injected hooks run `HooksupBin hook EVENT`…
	HookClient string      // …or this dedicated client (cmd/hooksup-hook) as `HookClient EVENT`, when set
	ProjectDir string      // where the agent runs
	// ChecksDir is the directory of the project's configuration (config.FindProject): checks
	// run there, a relative cwd of theirs taken from it. ProjectDir when "".
	ChecksDir  string
	StateDir   string   // $XDG_STATE_HOME/hooksup
	RuntimeDir string   // the private socket directory
	Env        []string // the agent's environment before hooksup's variables (os.Environ when nil)
	Events     []string // the hook events to inject (the agent's Events); nil injects every one hooksup uses
	Logger     *slog.Logger

	// Start starts the agent's command; nil starts it with the stdio set in Stdin/Stdout/Stderr.
	// A session shown in a pane passes PTY.Start.
	Start          func(*exec.Cmd) error
	Stdin          *os.File
	Stdout, Stderr *os.File
	ForwardSignals bool          // relay SIGINT/SIGTERM/SIGHUP to the agent (headless)
	KillGrace      time.Duration // after SIGTERM or SIGHUP, how long before SIGKILL (10s when 0)
	// Interactive: a person answers questions through Resolve (the TUI). Headless, ask and
	// manual apply the checks' proposal.
	Interactive bool
	// Goal puts the session in goal mode (nil: none): the main agent's stops are decided for
	// the goal until it ends (engine.Goal).
	Goal *engine.Goal
	// ConfigWatch, when set, follows the project's configuration files during the session
	// (configwatch.go).
	ConfigWatch *ConfigWatch
}

// Supervisor is one supervised session.
type Supervisor struct {
	o        Options
	logger   *slog.Logger
	engine   *engine.Engine
	server   *Server
	bus      *bus
	out      *engine.Outbox // the order of the verdict log's lines and the bus's events
	vlog     *verdictlog.Writer
	state    *stateTracker
	activity activity
	lastKey  atomic.Int64 // unix nanoseconds of the person's last key at the terminal (Typed)
	perms    permissions
	ledger   *ledger
	others   *stopHooks
	feed     *transcriptFeed
	stopFeed context.CancelFunc
	token    string
	agent    agent.Agent
	launch   agent.Launch
	watch    *hookWatch
	config   *configWatch // nil: the configuration stays as the session started
}

// ErrHangup is the cause to end Run's context with when the person's terminal went away: the
// agent gets SIGHUP, as from a terminal that hung up, instead of SIGTERM. It is hangup's, which
// a long-running command's context ends with when its terminal hangs up.
var ErrHangup = hangup.ErrHangup

// ErrAgentNotFound is returned when the agent's binary cannot be found.
var ErrAgentNotFound = agent.ErrNotFound

// ErrNoAgent is returned by New when Options name no agent: the caller picks it.
var ErrNoAgent = errors.New("no agent given to the session")

// New prepares a session: the socket, the token and the injected settings. Nothing runs yet.
func New(o Options) (*Supervisor, error) {
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if o.Agent == nil {
		return nil, ErrNoAgent
	}
	// The hooks run hooksup's binaries by their paths: a path no agent's settings can hold is
	// refused before the agent starts, naming it and the fix.
	for _, b := range []string{o.HooksupBin, o.HookClient} {
		if err := hooks.CheckProgramPath(b); err != nil {
			return nil, err
		}
	}
	bin, err := agent.Find(o.Agent, o.Bin)
	if err != nil {
		return nil, err
	}
	o.Bin = bin
	token, err := NewToken()
	if err != nil {
		return nil, err
	}
	swept := checks.Sweep(o.RuntimeDir, logger)
	idb := make([]byte, runtimedir.IDBytes)
	_, _ = rand.Read(idb)
	id := hex.EncodeToString(idb)

	s := &Supervisor{o: o, logger: logger, bus: newBus(), out: engine.NewOutbox(), token: token, agent: o.Agent,
		vlog: &verdictlog.Writer{Dir: verdictlog.SessionsDir(o.StateDir)}}
	s.state = newStateTracker(s.stateChanged, nil)
	s.ledger = newLedger(s.publish)
	feedCtx, stopFeed := context.WithCancel(context.Background())
	s.feed, s.stopFeed = newTranscriptFeed(feedCtx, s.publish, logger, o.Agent.Transcript(), o.HooksupBin, o.HookClient), stopFeed
	s.others = newStopHooks()
	capEnd, _ := o.Agent.(agent.CapEnd)
	s.feed.onRecord = func(r transcript.Record) {
		s.activity.record(r)
		s.state.record(r)
		if capEnd != nil && capEnd.CapEnded(r) {
			s.logger.Info("the agent's own cap ended a turn", "text", r.Text)
			s.engine.Capped(o.Agent.Product())
		}
	}
	s.feed.onSnapshot, s.feed.onStopHooks = s.ledger.usage, s.otherHooks
	checksDir := o.ChecksDir
	if checksDir == "" {
		checksDir = o.ProjectDir
	}
	s.vlog.Meta = verdictlog.Meta{Project: checksDir, Cwd: o.ProjectDir, Agent: o.Agent.Name(), Started: time.Now()}
	s.engine = engine.New(engine.Options{
		Config: o.Config, ProjectDir: checksDir, Emit: s.bus.publish, Record: s.record, Dialect: o.Agent,
		Logger: logger, Interactive: o.Interactive, Transcript: s.feed.read,
		Groups: checks.NewGroups(o.RuntimeDir, logger), Outbox: s.out,
		LockDir: o.RuntimeDir, Agent: o.Agent.Name(), Goal: o.Goal,
	})

	command := func(ev string) string { return hooks.Command(o.HooksupBin, ev) }
	if o.HookClient != "" {
		command = func(ev string) string { return hooks.ClientCommand(o.HookClient, ev) }
	}
	s.launch, err = o.Agent.Inject(agent.Hooks{Events: o.Events, Command: command,
		StopTimeout: o.Config.StopHookTimeout(), OtherTimeout: 30 * time.Second,
		Getenv: func(k string) string { return envValue(s.agentEnv(), k) }, Blocks: blockBudget(o.Config, o.Goal)}, o.Args, o.RuntimeDir, id)
	if err != nil {
		stopFeed()
		return nil, err
	}
	s.server, err = Listen(filepath.Join(o.RuntimeDir, id+".sock"), token, logger)
	if err != nil {
		s.removeFiles()
		stopFeed()
		return nil, err
	}
	for _, e := range swept {
		s.publish(session.Notice{At: session.At{Time: time.Now()}, Level: session.NoticeWarn, Text: e.Notice()})
	}
	for _, w := range s.launch.Warnings {
		logger.Warn("injection", "warning", w)
		s.publish(session.Notice{At: session.At{Time: time.Now()}, Level: session.NoticeWarn, Text: w})
	}
	s.server.Adapt = o.Agent.Input
	s.watch = newHookWatch(o.Agent.Transcripts(func(k string) string { return envValue(s.agentEnv(), k) }, o.ProjectDir), o.Agent.Reply)
	s.server.OnProblem = func(msg string) {
		s.publish(session.Notice{At: session.At{Time: time.Now()}, Level: session.NoticeError, Text: msg})
	}
	if o.ConfigWatch != nil {
		s.config = newConfigWatch(*o.ConfigWatch, o.ProjectDir, o.Config, logger, s.publish, s.engine.Reconfigure)
	}
	s.server.Handle(hooks.Stop, s.decide)
	s.server.Handle(hooks.SubagentStop, s.decide)
	s.server.Handle(hooks.PermissionRequest, s.permissionRequest)
	s.server.HandleDefault(s.observe)
	return s, nil
}

// Events delivers the session's events in order; it is closed after the agent exits. The front
// end must keep reading it.
func (s *Supervisor) Events() <-chan session.Event { return s.bus.events() }

// Interrupt applies Escape while the agent works or a stop is being decided (see
// Engine.Interrupt). Escape at an idle prompt (clearing input, closing a menu) interrupts
// nothing: it is neither recorded nor a change of state.
func (s *Supervisor) Interrupt() {
	switch s.state.get() {
	case session.StateWorking, session.StateStopping, session.StatePermission, session.StateQuestion:
	default:
		if len(s.engine.Pending()) == 0 {
			return
		}
	}
	s.engine.Interrupt()
	s.state.set(session.StateInterrupted, "Escape", fromKeyboard)
}

// Resolve answers a pending question (see Engine.Resolve; a permission question takes allow,
// deny or always).
func (s *Supervisor) Resolve(id int, d hooks.Decision, reason string) error {
	return s.ResolveBy(id, d, reason, verdictlog.SourceManual)
}

// ResumeGoal continues the goal, out of budget or paused, with a larger budget (engine.ResumeGoal).
func (s *Supervisor) ResumeGoal(b session.GoalBudget) error { return s.engine.ResumeGoal(b) }

// Goal is the goal's latest record, its end once it ended; false outside goal mode.
func (s *Supervisor) Goal() (verdictlog.Goal, bool) { return s.engine.GoalState() }

// Counts returns the engine's counters.
func (s *Supervisor) Counts() session.Counts { return s.engine.Counts() }

// SocketPath is where the hooks connect.
func (s *Supervisor) SocketPath() string { return s.server.Path }

// Agent is the agent this session runs.
func (s *Supervisor) Agent() agent.Agent { return s.agent }

// ResumeID is the session the agent's resume brings back: the latest session's, once the agent
// has written its transcript, else "".
func (s *Supervisor) ResumeID() string {
	p := s.feed.followed()
	if p == "" {
		return ""
	}
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return s.agent.ResumeID(p)
}

// publish puts an event on the bus in its turn: after the verdicts decided before it, even
// those whose observation is not complete yet.
func (s *Supervisor) publish(ev session.Event) { s.out.Do(func() { s.bus.publish(ev) }) }

// decided keeps the agent state, the subagent ledger and the other hooks' record in step with
// a verdict as it is decided, before the agent has its answer (its place in the outbox is held
// already: what they publish comes after it).
func (s *Supervisor) decided(v verdictlog.Verdict) {
	s.state.verdict(v)
	s.ledger.verdict(v)
	s.others.verdict(v)
}

// record writes a verdict to the log, naming the agent.
func (s *Supervisor) record(v verdictlog.Verdict) error {
	v.Agent = s.agent.Name()
	return s.vlog.Append(v)
}

// otherHooks records what the other hooks at a stop did, once claude's transcript says: an
// OtherHooks entry in the verdict log, an event for the front end, and, when one of them made
// claude continue after the latest stop hooksup allowed, the state: claude works on.
func (s *Supervisor) otherHooks(agentID string, r transcript.Record) {
	entry, latest, ok := s.others.summary(agentID, r, time.Now())
	if !ok {
		return
	}
	s.reportOtherHooks(entry, agentID == "" && latest)
}

// joinedStopReasons records what the other Stop hooks said in a prompt the agent continues its
// turn with (agent.JoinedStopReasons), as an OtherHooks entry for the stop before it.
func (s *Supervisor) joinedStopReasons(in *hooks.Input) {
	ja, ok := s.agent.(agent.JoinedStopReasons)
	if !ok || in.HookEventName != hooks.UserPromptSubmit || !in.Continuing || in.AgentID != "" || strings.TrimSpace(in.Prompt) == "" {
		return
	}
	entry, ok := s.others.joined(func(sent string) string { return ja.OtherStopReasons(in.Prompt, sent) }, time.Now())
	if ok {
		s.reportOtherHooks(entry, true)
	}
}

// reportOtherHooks writes an OtherHooks entry to the verdict log and tells the front ends; when
// one of those hooks made the main agent continue after the latest stop hooksup allowed
// (latestMain: the entry is of that stop), the agent works on.
func (s *Supervisor) reportOtherHooks(entry verdictlog.Verdict, latestMain bool) {
	entry.Agent = s.agent.Name()
	// Its stop's verdict is written; a later stop's may be waiting for its observation: the
	// entry goes before it.
	s.out.DoForStop(entry.Stop, func() {
		if err := s.vlog.Append(entry); err != nil {
			s.logger.Error("verdict log", "err", err)
		}
		s.bus.publish(session.OtherHooksReported{At: session.At{Time: entry.Time}, Entry: entry})
	})
	if latestMain && entry.Decision == hooks.Block {
		s.state.otherHookBlocked()
	}
}

// stateChanged publishes a state change and the alert [notifications] asks for.
func (s *Supervisor) stateChanged(ev session.Event) {
	s.publish(ev)
	if c, ok := ev.(session.StateChanged); ok {
		if c.State != session.StatePermission {
			// The dialog closed: answered at the agent's terminal, or the turn moved on.
			s.withdrawPermissions("state " + string(c.State) + ": " + c.Reason)
		}
		s.logger.Debug("state", "state", c.State, "source", c.Source, "reason", c.Reason)
		if a, ok := alertFor(s.o.Config.Notifications, c); ok {
			if s.agent != nil {
				a.Agent = s.agent.Name()
			}
			s.publish(a)
		}
	}
}

// track follows the transcript a hook names: a new session's on SessionStart (/clear starts
// one), else the first one seen. A hook that names a subagent, and a Stop, wake the tail: a
// subagent transcript it let go may have grown. A hook that names a subagent's own transcript
// (Codex's SubagentStop: its rollout lies beside the session's) has the tail follow it.
func (s *Supervisor) track(in *hooks.Input) {
	if in.HookEventName == hooks.SessionStart {
		s.feed.follow(in.TranscriptPath)
		return
	}
	if s.feed.watcher() == nil {
		s.feed.follow(in.TranscriptPath)
	}
	switch {
	case in.AgentID != "" && in.AgentTranscriptPath != "":
		s.feed.followAgent(in.AgentID, in.AgentTranscriptPath)
	case in.AgentID != "":
		s.feed.wake(in.AgentID)
	case in.HookEventName == hooks.Stop:
		s.feed.wake("")
	}
}

func (s *Supervisor) decide(ctx context.Context, in *hooks.Input) ([]byte, int) {
	s.logHook(in)
	s.watch.hook()
	s.track(in)
	s.feed.stopReply(ctx, in)
	s.publish(session.HookReceived{At: session.At{Time: time.Now()}, Input: in})
	s.activity.hook(in)
	s.state.hook(in)
	s.ledger.hook(in)
	if s.config != nil {
		s.config.atStop() // what the watch has not told yet (or cannot, where it misses events)
	}
	r := s.engine.Stop(ctx, in)
	s.decided(r.Verdict)
	s.cappedByCount(r.Verdict)
	return r.Stdout, r.Exit
}

// cappedByCount: in the TUI, the main agent's stop just blocked one past what its own cap on
// blocked stops honours, for an agent whose cap's end hooksup cannot read: the agent overrides
// this block, ends its turn and waits at its prompt, and no hook says so. hooksup's count of the
// turn's blocks tells it, as the agent's own count does: Copilot CLI 1.0.102 counts every block
// of a turn, tool calls between them included, as hooksup does, and Qwen Code 0.24.4 every block
// of its prompt. The screen would not do for both: Copilot CLI writes its cap's end in its
// process log alone, and Qwen Code's line on its screen comes after the turn ended, in a wording
// its next version may change. The goal records the cap's end (never a pass) and the agent
// waits: the front end types the goal's next turn once the agent's prompt box is empty.
func (s *Supervisor) cappedByCount(v verdictlog.Verdict) {
	if v.Event != hooks.Stop || v.AgentID != "" || v.Decision != hooks.Block || !s.o.Interactive {
		return
	}
	if _, ok := s.agent.(agent.CapEnd); ok {
		return
	}
	if s.engine.CappedByCount(s.agent.Product(), s.BlockCap()) {
		s.state.set(session.StateWaiting, "the agent's own cap on blocked stops ended its turn", fromHook)
	}
}

func (s *Supervisor) observe(_ context.Context, in *hooks.Input) ([]byte, int) {
	s.logHook(in)
	s.watch.hook()
	s.track(in)
	s.engine.Observe(in)
	s.joinedStopReasons(in)
	s.publish(session.HookReceived{At: session.At{Time: time.Now()}, Input: in})
	s.activity.hook(in)
	s.state.hook(in)
	s.ledger.hook(in)
	return nil, 0
}

func (s *Supervisor) logHook(in *hooks.Input) {
	s.logger.Debug("hook", "event", in.HookEventName, "notification", in.NotificationType, "tool", in.ToolName, "agent", in.AgentID)
}

// TerminalStatus takes a report claude wrote to its terminal about itself (see the type). The
// front end that owns claude's terminal calls it as reports arrive; it never blocks.
func (s *Supervisor) TerminalStatus(ts session.TerminalStatus) {
	if ts.Title != "" {
		ta, ok := s.agent.(agent.TitleState)
		if !ok {
			return
		}
		state, kind, msg, ok := ta.TitleState(ts.Title)
		if !ok {
			return
		}
		ts = session.TerminalStatus{State: session.TerminalState(state), Kind: session.BlockedKind(kind), Msg: msg}
	}
	s.logger.Debug("terminal status", "state", ts.State, "kind", ts.Kind, "msg", clip.Head(ts.Msg, 120))
	s.state.terminal(ts)
}

// State is the agent's state now.
func (s *Supervisor) State() session.AgentState { return s.state.get() }

// Command returns the agent's command as Run will start it.
func (s *Supervisor) Command() *exec.Cmd {
	cmd := exec.Command(s.o.Bin, s.launch.Args...)
	cmd.Env = append(hooks.ScrubEnv(s.agentEnv(), hooks.SessionVars), s.launch.Env...)
	cmd.Env = append(cmd.Env,
		hooks.EnvSocket+"="+s.server.Path,
		hooks.EnvToken+"="+s.token,
		hooks.EnvLog+"="+filepath.Join(s.o.StateDir, "hooksup.log"),
	)
	cmd.Dir = s.o.ProjectDir
	return cmd
}

// BlockCap is the agent's limit on stops blocked in a row, as the agent's environment sets it
// (hooksup's launch included: it may raise the cap to its budget).
func (s *Supervisor) BlockCap() int {
	env := append(slices.Clip(s.agentEnv()), s.launch.Env...)
	return s.agent.BlockCap(func(k string) string { return envValue(env, k) })
}

// blockBudget is the most stops hooksup blocks in a row in a session of cfg (and goal): the
// goal's turns, max_continuations per turn, max_steers per subagent. The agent's own cap is
// raised to it at launch where it can be (agent.Hooks.Blocks): hooksup's budget decides. A
// change of the configuration during the session does not reach the running agent.
func blockBudget(cfg config.Config, goal *engine.Goal) int {
	n := max(cfg.Stop.MaxContinuations, cfg.SubagentStop.MaxSteers)
	if goal != nil {
		n = max(n, goal.MaxTurns)
	}
	return n
}

// hooksNotRunning tells the person that the agent replied without running hooksup's hooks.
func (s *Supervisor) hooksNotRunning(path string) {
	msg := NotRunning(s.agent.Name()) + ": its transcript shows a reply, but no hook reached hooksup, so nothing is checked or recorded " +
		"(hooksup doctor lists the hooks " + s.agent.Name() + "'s settings define and its version)"
	s.logger.Warn("no hook arrived", "transcript", path)
	s.publish(session.Notice{At: session.At{Time: time.Now()}, Level: session.NoticeError, Text: msg})
}

// Run starts the agent, serves its hooks until it exits, and returns its exit status (128+N
// when a signal N ended it). When ctx ends first the agent gets SIGTERM (SIGHUP when ctx's
// cause is ErrHangup), then SIGKILL after KillGrace. It always cleans up the socket and the
// settings file.
func (s *Supervisor) Run(ctx context.Context) (int, error) {
	defer s.cleanup()
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		if err := s.server.Serve(sctx); err != nil {
			s.logger.Error("hook socket", "err", err)
		}
	}()

	// A goal is held to what it starts from: taken before the agent can change it.
	s.engine.StartGoal(sctx)
	cmd := s.Command()
	start := s.o.Start
	if start == nil {
		cmd.Stdin, cmd.Stdout, cmd.Stderr = s.o.Stdin, s.o.Stdout, s.o.Stderr
		start = (*exec.Cmd).Start
	}
	if err := start(cmd); err != nil {
		err = fmt.Errorf("start %s: %w", s.o.Bin, err)
		s.publish(session.AgentExited{At: session.At{Time: time.Now()}, Code: 127, Err: err})
		return 127, err
	}
	s.logger.Info("agent started", "pid", cmd.Process.Pid, "bin", s.o.Bin, "args", redactArgs(cmd.Args))
	go s.watch.run(sctx, s.hooksNotRunning)
	if s.config != nil {
		go s.config.run(sctx)
	}

	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	var sigs chan os.Signal
	if s.o.ForwardSignals {
		sigs = make(chan os.Signal, 4)
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
		defer signal.Stop(sigs)
	}
	grace := s.o.KillGrace
	if grace == 0 {
		grace = 10 * time.Second
	}
	var killTimer <-chan time.Time
	ctxDone := ctx.Done()
	var werr error
loop:
	for {
		select {
		case werr = <-waited:
			break loop
		case sig := <-sigs:
			s.logger.Info("forwarding signal", "signal", sig)
			_ = cmd.Process.Signal(sig)
			if sig != syscall.SIGINT && killTimer == nil {
				killTimer = time.After(grace)
			}
		case <-ctxDone:
			ctxDone = nil
			sig := syscall.SIGTERM
			if errors.Is(context.Cause(ctx), ErrHangup) {
				sig = syscall.SIGHUP
			}
			s.logger.Info("ending the agent", "signal", sig, "why", context.Cause(ctx))
			_ = cmd.Process.Signal(sig)
			killTimer = time.After(grace)
		case <-killTimer:
			s.logger.Warn("agent did not exit after being signalled; killing it")
			_ = cmd.Process.Kill()
		}
	}
	code := exitCode(cmd, werr)
	s.logger.Info("agent exited", "code", code)
	s.watch.exited(s.hooksNotRunning)
	if n, ok := s.agent.(agent.NoHooksExit); ok && !s.watch.arrived.Load() {
		if why := n.NoHooksWhy(code); why != "" {
			s.logger.Warn("no hook arrived", "exit", code)
			s.publish(session.Notice{At: session.At{Time: time.Now()}, Level: session.NoticeError, Text: NotRunning(s.agent.Name()) + ": " + why})
		}
	}
	// An agent whose cap's end hooksup cannot read exited after one block too many: its cap
	// ended the goal's turn.
	if _, ok := s.agent.(agent.CapEnd); !ok {
		s.engine.CappedAtExit(s.agent.Product(), s.BlockCap())
	}
	s.state.set(session.StateExited, fmt.Sprintf("process exited (%d)", code), fromProcess)
	s.summarize()
	// The transcript is read to its end: the verdicts still waiting for it complete now.
	s.engine.Flush()
	s.publish(session.AgentExited{At: session.At{Time: time.Now()}, Code: code})
	cancel()
	return code, nil
}

// summarize writes what the session used beside its verdict log and publishes it.
func (s *Supervisor) summarize() {
	snap, ok := s.feed.settle(time.Second)
	if !ok {
		return
	}
	sum := summaryOf(snap)
	// The session as its hooks name it, which its verdicts are filed under: a transcript's name
	// is not always the id (gemini's chat, Codex's rollout).
	if id := s.engine.Counts().SessionID; id != "" {
		sum.SessionID = id
	}
	sum.Verdicts = s.engine.Counts().Verdicts
	if err := verdictlog.WriteSummary(s.vlog.Dir, sum.SessionID, sum); err != nil {
		s.logger.Warn("session summary", "err", err)
	}
	s.publish(session.SessionSummary{At: session.At{Time: time.Now()}, Summary: sum})
}

func (s *Supervisor) cleanup() {
	s.stopFeed()
	if err := s.server.Close(); err != nil {
		s.logger.Warn("close socket", "err", err)
	}
	os.Remove(s.server.Path)
	s.removeFiles()
	// No verdict is lost: those answered just before the end are logged and published first.
	s.engine.Flush()
	if err := s.vlog.Close(); err != nil {
		s.logger.Warn("close verdict log", "err", err)
	}
	s.bus.close()
}

func exitCode(cmd *exec.Cmd, err error) int {
	if cmd.ProcessState == nil {
		return 1
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return cmd.ProcessState.ExitCode()
}

// removeFiles removes the files the injection wrote for the session.
func (s *Supervisor) removeFiles() {
	for _, f := range s.launch.Files {
		os.Remove(f)
	}
	if c := s.launch.Cleanup; c != nil {
		s.launch.Cleanup = nil
		if err := c(); err != nil {
			s.logger.Warn("injection cleanup", "err", err)
		}
	}
}

// redactArgs keeps the log free of prompts' bulk.
func redactArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = clip.Head(a, 80)
	}
	return out
}
