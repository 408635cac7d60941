package hub

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"

	"github.com/hooksup/hooksup/internal/peercred"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"

	"github.com/hooksup/hooksup/hooks"
)

// Session is what the control socket needs of a session: what the TUI needs, and a second
// stream of its events.
type Session interface {
	Subscribe() (<-chan session.Event, func())
	Pending() []session.Question
	ResolveBy(id int, d hooks.Decision, reason string, by verdictlog.Source) error
	Interrupt()
	Counts() session.Counts
	State() session.AgentState
	Activity() session.Activity
}

// Server is a session's control socket.
type Server struct {
	ln      *net.UnixListener
	sess    Session
	entry   Entry
	logger  *slog.Logger
	peerUID func(*net.UnixConn) (int, error) // the kernel's word; a seam for tests

	mu         sync.Mutex
	state      string
	stateSince time.Time
	tokens     int64

	cancel func()
	wg     sync.WaitGroup
}

// requestDeadline bounds reading a request: a client writes one line at once.
const requestDeadline = 5 * time.Second

// Listen serves sess's control socket at e.Control (a file in the 0700 runtime directory, like
// the hook socket). Only this user's processes are answered.
func Listen(e Entry, sess Session, logger *slog.Logger) (*Server, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	os.Remove(e.Control)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: e.Control, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	if err := os.Chmod(e.Control, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("control socket: %w", err)
	}
	s := &Server{ln: ln, sess: sess, entry: e, logger: logger, peerUID: peercred.UID,
		state: string(sess.State()), stateSince: e.Started}
	events, cancel := sess.Subscribe()
	s.cancel = cancel
	s.wg.Add(1)
	go s.follow(events)
	return s, nil
}

// follow keeps what no accessor of the session says: since when it is in its state, its tokens.
func (s *Server) follow(events <-chan session.Event) {
	defer s.wg.Done()
	for ev := range events {
		s.mu.Lock()
		switch e := ev.(type) {
		case session.StateChanged:
			if string(e.State) != s.state {
				s.state, s.stateSince = string(e.State), e.Time
			}
		case session.TranscriptUpdated:
			s.tokens = int64(e.Snapshot.Usage.Total())
		}
		s.mu.Unlock()
	}
}

// Serve answers connections until Close.
func (s *Server) Serve() {
	for {
		c, err := s.ln.AcceptUnix()
		if err != nil {
			return
		}
		go s.serveConn(c)
	}
}

// Close stops serving and removes the socket.
func (s *Server) Close() {
	s.ln.Close()
	s.cancel()
	s.wg.Wait()
}

func (s *Server) serveConn(c *net.UnixConn) {
	defer c.Close()
	if uid, err := s.peerUID(c); err != nil || uid != os.Getuid() {
		s.logger.Warn("refused a control connection from another user", "peer_uid", uid, "err", err)
		return
	}
	_ = c.SetReadDeadline(time.Now().Add(requestDeadline))
	line, err := bufio.NewReader(c).ReadBytes('\n')
	if err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	enc := json.NewEncoder(c)
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		_ = send(enc, Response{Error: "bad request: " + err.Error(), Code: CodeBadRequest})
		return
	}
	if v := protocolOf(req.Protocol); v != Protocol {
		_ = send(enc, Response{Code: CodeVersion,
			Error: fmt.Sprintf("the request speaks hub protocol %d, this session (pid %d) speaks %d", v, s.entry.PID, Protocol)})
		return
	}
	switch req.Op {
	case OpSnapshot:
		snap := s.snapshot()
		_ = send(enc, Response{Snapshot: &snap})
	case OpResolve:
		_ = send(enc, s.resolve(req))
	case OpInterrupt:
		s.sess.Interrupt()
		_ = send(enc, Response{})
	case OpEvents:
		s.stream(c, enc)
	case OpGoalResume:
		_ = send(enc, s.resumeGoal(req))
	default:
		_ = send(enc, Response{Error: fmt.Sprintf("unknown op %q", req.Op), Code: CodeBadRequest})
	}
}

// send writes one answer line, in this protocol's version.
func send(enc *json.Encoder, r Response) error {
	r.Protocol = Protocol
	return enc.Encode(r)
}

func (s *Server) resolve(req Request) Response {
	by := verdictlog.SourceManual
	if req.By != "" {
		by = session.ManualSource(req.By)
	}
	err := s.sess.ResolveBy(req.Question, hooks.Decision(req.Decision), req.Reason, by)
	switch {
	case err == nil:
		return Response{}
	case errors.Is(err, session.ErrAnswered):
		return Response{Error: err.Error(), Code: CodeAnswered}
	case errors.Is(err, session.ErrNoSuchQuestion):
		return Response{Error: err.Error(), Code: CodeNoQuestion}
	}
	return Response{Error: err.Error(), Code: CodeBadRequest}
}

// GoalResumer is a session in which a goal can be resumed (OpGoalResume).
type GoalResumer interface {
	ResumeGoal(session.GoalBudget) error
}

func (s *Server) resumeGoal(req Request) Response {
	r, ok := s.sess.(GoalResumer)
	if !ok || req.Goal == nil {
		return Response{Error: "this session resumes no goal", Code: CodeBadRequest}
	}
	if err := r.ResumeGoal(*req.Goal); err != nil {
		return Response{Error: err.Error(), Code: CodeBadRequest}
	}
	return Response{}
}

func (s *Server) snapshot() Snapshot {
	counts := s.sess.Counts()
	s.mu.Lock()
	snap := Snapshot{ID: s.entry.ID, SessionID: counts.SessionID, Agent: s.entry.Agent, Cwd: s.entry.Cwd,
		PID: s.entry.PID, Started: s.entry.Started, Mode: s.entry.Mode, State: s.state, StateSince: s.stateSince,
		Continuations: counts.SessionContinuations, TurnContinuations: counts.TurnContinuations,
		MaxContinuations: counts.MaxContinuations, Verdicts: counts.Verdicts, Tokens: s.tokens,
		Pending: []Question{}}
	s.mu.Unlock()
	act := s.sess.Activity()
	snap.LastMessage, snap.Permission, snap.LastKey = act.LastMessage, act.Permission, act.LastKey
	snap.Goal = counts.Goal
	if w := counts.Waiting; w != nil {
		snap.Waiting = &Waiting{SessionID: w.Holder.SessionID, Agent: w.Holder.Agent, PID: w.Holder.PID, Check: w.Holder.Check, Since: w.Since}
	}
	for _, q := range s.sess.Pending() {
		snap.Pending = append(snap.Pending, Question{ID: q.ID, Event: q.Event, AgentID: q.AgentID,
			AgentType: q.AgentType, Proposal: string(q.Proposal), Source: string(q.Source), Reason: q.Reason,
			Asked: q.Asked, Deadline: q.Deadline, Permission: q.Permission})
	}
	return snap
}

// stream writes the session's events to c until the session ends or the client hangs up.
func (s *Server) stream(c *net.UnixConn, enc *json.Encoder) {
	events, cancel := s.sess.Subscribe()
	defer cancel()
	if send(enc, Response{}) != nil {
		return
	}
	gone := make(chan struct{})
	go func() { // the client sends nothing more: a read returns when it hangs up
		var b [1]byte
		_, _ = c.Read(b[:])
		close(gone)
	}()
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return
			}
			name, ok := EventName(ev)
			if !ok {
				s.logger.Warn("an event the control socket has no name for is not sent", "event", fmt.Sprintf("%T", ev))
				continue
			}
			data, err := json.Marshal(ev)
			if err != nil {
				continue
			}
			if send(enc, Response{Event: &Event{Type: name, Time: session.Time(ev), Data: data}}) != nil {
				return
			}
		case <-gone:
			return
		}
	}
}
