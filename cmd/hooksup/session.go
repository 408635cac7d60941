package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent/agents"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/buildinfo"
	"github.com/hooksup/hooksup/internal/notify"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/runtimedir"
	"github.com/hooksup/hooksup/supervisor"
)

// An agentSession is one supervised agent, assembled here for a front end: the supervisor, how the
// agent starts (in a pty the TUI shows, or on hooksup's own stdio) and the environment it gets.
// The TUI and the headless printer are two front ends over the same assembly; `hooksup demo`
// is the TUI's with the simulated agent.
type agentSession struct {
	sup    *supervisor.Supervisor
	logger *slog.Logger
	pty    *supervisor.PTY // the agent's terminal in a pane; nil headless
	o      supervisor.Options
	// escapes carries the control socket's interrupt to the TUI, which presses Escape for it;
	// nil headless (the supervisor is told directly).
	escapes chan struct{}
}

// hubSession is the session as its control socket serves it: an interrupt is Escape pressed in
// the session's TUI while it runs (the supervisor is told first, then the agent gets the key),
// else the supervisor's Interrupt.
type hubSession struct {
	*supervisor.Supervisor
	escapes chan<- struct{}
}

// escapeHandover bounds the wait for the TUI to take an interrupt: past it (the TUI has ended)
// the supervisor is told directly.
const escapeHandover = time.Second

func (h hubSession) Interrupt() {
	if h.escapes != nil {
		select {
		case h.escapes <- struct{}{}:
			return
		case <-time.After(escapeHandover):
		}
	}
	h.Supervisor.Interrupt()
}

// newPaneSession assembles a session whose agent runs in a cols×rows pty, answered by a person.
func newPaneSession(so supervisor.Options, cols, rows int) (*agentSession, error) {
	pt, err := supervisor.OpenPTY(so.Agent.Name(), cols, rows)
	if err != nil {
		return nil, err
	}
	so.Interactive = true
	so.Stdin, so.Stdout, so.Stderr = nil, nil, nil
	so.ForwardSignals = false // runTUI ends the session on a signal
	so.Start = pt.Start
	so.Env = supervisor.PaneEnv(so.Env)
	s, err := newSession(so)
	if err != nil {
		pt.Close()
		return nil, err
	}
	s.pty = pt
	return s, nil
}

// newHeadlessSession assembles a session whose agent runs on stdin, stdout and stderr and gets
// the signals hooksup gets; nobody answers questions, so ask and manual apply the proposal.
func newHeadlessSession(so supervisor.Options, stdin, stdout, stderr *os.File) (*agentSession, error) {
	so.Interactive = false
	so.Stdin, so.Stdout, so.Stderr = stdin, stdout, stderr
	so.ForwardSignals = true
	so.Start = nil
	return newSession(so)
}

func newSession(so supervisor.Options) (*agentSession, error) {
	sweepRuntimeDir(so.RuntimeDir)
	sup, err := supervisor.New(so)
	if err != nil {
		return nil, err
	}
	logger := so.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &agentSession{sup: sup, logger: logger, o: so}, nil
}

// sweepRuntimeDir removes what sessions killed with SIGKILL left in the runtime directory, as
// the next one starts: their registrations and control sockets, their hook sockets and what any
// agent's injection wrote beside them (the list's leftovers: the dead session's agent may be
// another than this one's). Their checks' process groups go in supervisor.New.
func sweepRuntimeDir(dir string) {
	hub.Sweep(dir)
	runtimedir.SweepStale(dir, agents.Leftovers()...)
}

// run runs the agent until it exits while front shows the session, and returns the agent's
// exit status. front returns when the person is done (the TUI), the terminal went away, or the
// events ended (headless); if the agent still runs then, it is ended: SIGTERM, or SIGHUP when
// the terminal hung up (front's error wraps supervisor.ErrHangup), then SIGKILL after a grace
// period.
func (s *agentSession) run(ctx context.Context, front func(context.Context) error) (int, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	type result struct {
		code int
		err  error
	}
	done := make(chan result, 1)
	// Every session is listed (hooksup ls, status, watch) and can be interrupted from another
	// terminal; one a person answers is answered from there too.
	defer s.announce()()
	go func() {
		code, err := s.sup.Run(ctx)
		done <- result{code, err}
	}()
	ferr := front(ctx)
	cancel(ferr)
	r := <-done
	if s.pty != nil {
		s.pty.Close()
	}
	if errors.Is(ferr, supervisor.ErrHangup) {
		// Nobody is left to read it: the log says why the session ended.
		s.logger.Info("session ended", "why", ferr)
		ferr = nil
	}
	return r.code, errors.Join(r.err, ferr)
}

// announce serves the session's control socket beside its hook socket and registers it in the
// runtime directory, for hooksup ls, approve, deny and halt; the function returned undoes both.
// A session that cannot be announced runs on unlisted (and the log says why).
func (s *agentSession) announce() func() {
	hookSock := s.sup.SocketPath()
	id := strings.TrimSuffix(filepath.Base(hookSock), ".sock")
	e := hub.Entry{ID: id, Agent: s.sup.Agent().Name(), Cwd: s.o.ProjectDir, PID: os.Getpid(),
		Started: time.Now(), Mode: string(s.o.Config.Mode), Control: hub.ControlPath(hookSock),
		Hooksup: buildinfo.Version(version, commit)}
	srv, err := hub.Listen(e, hubSession{s.sup, s.escapes}, s.logger)
	if err != nil {
		s.logger.Error("the session is not listed (hooksup ls)", "err", err)
		return func() {}
	}
	go srv.Serve()
	unregister, err := hub.Register(filepath.Dir(hookSock), e)
	if err != nil {
		s.logger.Error("the session is not listed (hooksup ls)", "err", err)
		unregister = func() {}
	}
	return func() {
		unregister()
		srv.Close()
		os.Remove(e.Control)
	}
}

// newNotifier chooses how notify alerts reach the person at this terminal, and logs why.
func newNotifier(cfg config.Config, so supervisor.Options) notify.Notifier {
	n := notify.New(cfg.Notifications.Notifier)
	n.Title = present.NotificationTitle(so.ProjectDir)
	if so.Logger != nil {
		so.Logger.Info("notifications", "method", n.Choice.Method, "why", n.Choice.Why)
	}
	return n
}

// printVerdicts is the headless front end: one line per verdict on w until the events end,
// and the alerts on term (nil: none), notifications carried by n; the main agent's stops go to
// stops (nil: nowhere).
func (s *agentSession) printVerdicts(w, term io.Writer, n notify.Notifier, stops *lastStop) func(context.Context) error {
	return func(context.Context) error {
		printEvents(w, term, n, s.sup.Events(), stops)
		return nil
	}
}
