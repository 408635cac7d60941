package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/hooksup/hooksup/checks"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/atomicfile"
	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/verdictlog"
)

// EngineState is what an engine must remember between hook processes in standalone mode.
type EngineState struct {
	Turn                 int            `json:"turn"`
	TurnContinuations    int            `json:"turn_continuations"`
	SessionContinuations int            `json:"session_continuations"`
	Steers               map[string]int `json:"steers"`
	CheckBlocks          map[string]int `json:"check_blocks"`
}

// State exports the engine's counters.
func (e *Engine) State() EngineState {
	e.mu.Lock()
	defer e.mu.Unlock()
	return EngineState{Turn: e.turn, TurnContinuations: e.turnConts, SessionContinuations: e.sessionConts,
		Steers: cloneCounts(e.steers), CheckBlocks: cloneCounts(e.checkBlocks)}
}

// Restore imports counters saved by State.
func (e *Engine) Restore(s EngineState) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.turn, e.turnConts, e.sessionConts = s.Turn, s.TurnContinuations, s.SessionContinuations
	e.steers, e.checkBlocks = cloneCounts(s.Steers), cloneCounts(s.CheckBlocks)
}

func cloneCounts(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// StandaloneOptions locate what standalone mode reads and writes.
type StandaloneOptions struct {
	StateDir  string
	ConfigDir string
	Getenv    func(string) string
	Logger    *slog.Logger
	// Dialect is the hook's agent's: its input read and its answer written as it speaks. Nil
	// when the hook does not know its agent: hooks' own input and codec, and "agent" for those
	// who wait for its checks.
	Dialect hooks.Dialect
}

// StandaloneHook is the installed Stop and SubagentStop hook with no supervisor running, as
// hooksup-hook and `hooksup hook` run it: RunStandalone with the state and configuration
// directories of the environment, hooksup's log for warnings and errors (opened only when there is
// one: each check's run is in the verdict log), and the checks ended when claude ends the hook
// (SIGINT, SIGTERM, SIGHUP).
func StandaloneHook(d hooks.Dialect, event string, payload []byte, stdout io.Writer) int {
	stateDir, err := hooks.StateDir(os.Getenv)
	if err != nil {
		// Nowhere to read trust from or to keep counts: the agent may stop, and is told why.
		if !hooks.IsStop(event) {
			return 0
		}
		out, code := encode(d, hooks.Answer{Decision: hooks.Allow, SystemMessage: "hooksup: checks skipped: " + err.Error()})
		stdout.Write(out)
		return code
	}
	configDir, _ := config.UserConfigDir(os.Getenv) // the state's home is absolute, so is this
	log := &lazyLog{path: filepath.Join(stateDir, "hooksup.log")}
	defer log.close()
	ctx, stop := endOnSignal(context.Background(), signalDelay)
	defer stop()
	return RunStandalone(ctx, event, payload, stdout, StandaloneOptions{
		StateDir: stateDir, ConfigDir: configDir, Getenv: os.Getenv, Dialect: d,
		Logger: slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
}

// signalDelay is how long the standalone hook runs before it arms endOnSignal.
const signalDelay = 20 * time.Millisecond

// endOnSignal returns ctx ended by SIGINT, SIGTERM or SIGHUP (claude ends a hook past its
// timeout), so that a check's whole process group ends with the hook. Arming os/signal costs
// about a fifth of a stop decided at once (it starts the runtime's signal loop, a thread), so it
// is armed after delay: a stop decided sooner never pays for it, and a check that runs long
// enough to be timed out is always covered. (Before that, a signal ends the hook as it would any
// program; on Linux a check's shell dies with it, PR_SET_PDEATHSIG.)
func endOnSignal(ctx context.Context, delay time.Duration) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	var stopSignals func()
	var mu sync.Mutex
	arm := time.AfterFunc(delay, func() {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		var sctx context.Context
		sctx, stopSignals = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		context.AfterFunc(sctx, cancel)
	})
	return ctx, func() {
		arm.Stop()
		cancel()
		mu.Lock()
		defer mu.Unlock()
		if stopSignals != nil {
			stopSignals()
		}
	}
}

// lazyLog is hooksup's log file, opened for append at the first write: a hook that has nothing
// to say does not open it. A log that cannot be opened drops what is written.
type lazyLog struct {
	path   string
	f      *os.File
	failed bool
}

func (l *lazyLog) Write(p []byte) (int, error) {
	if l.f == nil && !l.failed {
		if os.MkdirAll(filepath.Dir(l.path), 0o700) == nil {
			l.f, _ = os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		}
		l.failed = l.f == nil
	}
	if l.f == nil {
		return len(p), nil
	}
	return l.f.Write(p)
}

func (l *lazyLog) close() {
	if l.f != nil {
		l.f.Close()
	}
}

// RunStandalone decides a Stop or SubagentStop with no supervisor running: it is `hooksup hook`
// registered by `hooksup install` in plain claude. It loads the (trusted) configuration, runs
// the checks, keeps its counts per session in the state directory, writes the verdict log and
// prints the answer. Anything broken fails open with a systemMessage that says what to fix.
func RunStandalone(ctx context.Context, event string, payload []byte, stdout io.Writer, o StandaloneOptions) int {
	if !hooks.IsStop(event) {
		return 0
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	say := func(msg string) int {
		out, code := encode(o.Dialect, hooks.Answer{Decision: hooks.Allow, SystemMessage: msg})
		stdout.Write(out)
		return code
	}
	in, err := hooks.ParseInput(payload)
	if err != nil {
		logger.Warn("standalone: bad hook input", "err", err)
		return 0
	}
	if o.Dialect != nil {
		o.Dialect.Input(in)
		// The dialect read another event than a stop in it (Copilot's agentStop, which also
		// runs when a subagent ends, decided at its subagentStop): not one to decide.
		if e := in.HookEventName; e != "" && e != event && !hooks.IsStop(e) {
			return 0
		}
		// The stop's reply is provisional (the agent's log did not have the stop yet) and
		// nothing here follows the log to learn it: no reply is recorded rather than another's.
		if in.StopMark != "" {
			in.LastAssistantMessage = ""
		}
	}
	// The hook is registered for hooksup's event under the agent's own name (Gemini CLI's
	// AfterAgent runs `… Stop --installed`): it is decided as that event.
	in.HookEventName = event
	start := in.Cwd
	if start == "" && o.Dialect != nil {
		start = o.Dialect.ProjectDir(o.Getenv)
	}
	// The nearest configuration from the agent's directory up, as hooksup check finds it; none
	// without a directory (never one relative to wherever the hook was started).
	var projectDir string
	if filepath.IsAbs(start) {
		projectDir, _ = config.FindProject(start)
	}
	trust := config.TrustStore{Path: filepath.Join(o.StateDir, "trusted")}
	cfg, layers, err := config.Load(config.LoadOptions{UserConfigDir: o.ConfigDir, ProjectDir: projectDir, Trusted: trust.Trusted})
	if err != nil {
		logger.Error("standalone: config", "err", err)
		return say(fmt.Sprintf("hooksup: checks skipped: %v", err))
	}

	statePath := filepath.Join(o.StateDir, "standalone", verdictlog.SafeName(in.SessionID)+".json")
	unlock, st, err := lockState(statePath)
	if err != nil {
		logger.Error("standalone: state", "err", err)
		return say(fmt.Sprintf("hooksup: checks skipped: %v (is %s writable?)", err, filepath.Dir(statePath)))
	}
	defer unlock()

	var warning string
	for _, l := range layers {
		if l.Note != "" && !st.Warned {
			warning = fmt.Sprintf("hooksup: ignoring %s: %s", l.Path, l.Note)
			st.Warned = true
		}
	}
	vlog := &verdictlog.Writer{Dir: verdictlog.SessionsDir(o.StateDir)}
	if projectDir != "" { // a session of the plain agent: its start is its first stop's
		vlog.Meta = verdictlog.Meta{Project: projectDir, Cwd: start, Agent: agentName(o.Dialect)}
	}
	defer vlog.Close()
	groups, runDir, swept := standaloneGroups(&cfg, o.Getenv, logger)
	for _, s := range swept {
		if warning != "" {
			warning += "\n"
		}
		warning += "hooksup: " + s.Notice()
	}
	e := New(Options{Config: cfg, ProjectDir: projectDir, Record: vlog.Append, Logger: logger,
		Groups: groups, LockDir: runDir, Agent: agentName(o.Dialect)})
	e.Restore(st.EngineState)
	switch {
	case in.PromptID != "" && in.PromptID != st.PromptID:
		e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit, SessionID: in.SessionID})
		st.PromptID = in.PromptID
	case in.PromptID == "" && event == hooks.Stop && !in.Active():
		// An agent that names no prompt (Gemini CLI): a stop that follows no block starts a turn.
		e.Observe(&hooks.Input{HookEventName: hooks.UserPromptSubmit, SessionID: in.SessionID})
	}
	a := e.Decide(ctx, in)
	st.EngineState = e.State()
	if err := st.save(statePath); err != nil {
		logger.Error("standalone: save state", "err", err)
	}
	if warning != "" {
		if a.SystemMessage != "" {
			a.SystemMessage += "\n"
		}
		a.SystemMessage += warning
	}
	out, code := encode(o.Dialect, a)
	stdout.Write(out)
	return code
}

// standaloneState is a session's file in standalone mode.
type standaloneState struct {
	EngineState
	PromptID string `json:"prompt_id"`        // the turn's prompt; a new one starts a new turn
	Warned   bool   `json:"warned,omitempty"` // the untrusted-config warning was shown

	read []byte // the file as read, if it was
}

// save writes the state to path, unless it is what was read from there (a stop that changed
// no count: the file is left alone).
func (s standaloneState) save(path string) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if s.read != nil && bytes.Equal(b, s.read) {
		return nil
	}
	return atomicfile.Write(path, b, 0o600)
}

// lockState takes an exclusive lock for the session (concurrent SubagentStops) and reads its
// saved state.
func lockState(path string) (func(), standaloneState, error) {
	var st standaloneState
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, st, err
	}
	lf, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, st, err
	}
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		lf.Close()
		return nil, st, err
	}
	unlock := func() {
		syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
		lf.Close()
	}
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		unlock()
		return nil, st, err
	}
	if len(b) > 0 && json.Unmarshal(b, &st) == nil { // a corrupt state starts afresh
		st.read = b
	}
	return unlock, st, nil
}

// standaloneGroups records the checks' process groups as a supervisor does, in the same runtime
// directory, so that a hook killed with SIGKILL (claude past its timeout, a person) together
// with its checks' watchdogs leaves no check running for long: the next hook or hooksup to
// start sweeps what it left, and the hook that swept tells the person in its systemMessage.
// Only a configuration with checks pays for it (the directory, a sweep, a record per check).
// The directory also holds the project locks, which the hook's checks take as a session's do.
func standaloneGroups(cfg *config.Config, getenv func(string) string, logger *slog.Logger) (*checks.Groups, string, []checks.Ended) {
	if len(cfg.Stop.Checks) == 0 && len(cfg.SubagentStop.Checks) == 0 {
		return nil, "", nil
	}
	dir, err := runtimedir.Dir(getenv)
	if err != nil {
		logger.Warn("checks' process groups are not recorded and run without the project lock: no runtime directory", "err", err)
		return nil, "", nil
	}
	swept := checks.Sweep(dir, logger)
	return checks.NewGroups(dir, logger), dir, swept
}

// agentName names the agent that ran the installed hook, for those who wait for its checks.
func agentName(d hooks.Dialect) string {
	if d == nil {
		return "agent"
	}
	return d.Name()
}
