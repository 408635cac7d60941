package hub

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hooksup/hooksup/session"
)

// Client talks to one session's control socket.
type Client struct{ Path string }

// ErrAnswered: the question was answered already, elsewhere or by the timeout or Escape.
var ErrAnswered = errors.New("already answered")

// VersionError: the session speaks another version of the hub protocol than this hooksup, so
// nothing it says is understood here.
type VersionError struct {
	Ours, Theirs int    // this hooksup's protocol and the session's
	PID          int    // the session's process, when known (its registration says)
	Hooksup      string // the version of the hooksup that started it, when known
}

func (e *VersionError) Error() string {
	var about []string
	if e.PID > 0 {
		about = append(about, fmt.Sprintf("pid %d", e.PID))
	}
	if e.Hooksup != "" {
		about = append(about, "started by hooksup "+e.Hooksup)
	}
	theirs := "the session's"
	if len(about) > 0 {
		theirs += " (" + strings.Join(about, ", ") + ")"
	}
	todo := "restart that session with this hooksup, or reach it with the hooksup that started it"
	if e.Theirs > e.Ours {
		todo = "upgrade this hooksup, or reach that session with the hooksup that started it"
	}
	return fmt.Sprintf("this hooksup speaks hub protocol %d, %s speaks %d: %s", e.Ours, theirs, e.Theirs, todo)
}

// understood is nil for an answer in this protocol, else the VersionError that says so.
func understood(r Response) error {
	if v := protocolOf(r.Protocol); v != Protocol {
		return &VersionError{Ours: Protocol, Theirs: v}
	}
	return nil
}

// callTimeout bounds a snapshot, resolve or interrupt call.
const callTimeout = 5 * time.Second

func (c Client) call(req Request) (Response, error) {
	r, err := c.exchange(req)
	if err != nil {
		return Response{}, err
	}
	return interpret(r)
}

// exchange sends req and reads the one answer line as it is, whatever its version says.
func (c Client) exchange(req Request) (Response, error) {
	conn, err := dial(c.Path)
	if err != nil {
		return Response{}, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(callTimeout))
	req.Protocol = Protocol
	if err := json.NewEncoder(conn).Encode(req); err != nil {
		return Response{}, err
	}
	var r Response
	if err := json.NewDecoder(bufio.NewReader(conn)).Decode(&r); err != nil {
		if errors.Is(err, io.EOF) {
			return Response{}, fmt.Errorf("the session at %s closed the connection (another user's session?)", c.Path)
		}
		return Response{}, err
	}
	return r, nil
}

// interpret is what an answer line says to a client: a VersionError, ErrAnswered, the
// session's error, or the answer.
func interpret(r Response) (Response, error) {
	if err := understood(r); err != nil {
		return Response{}, err
	}
	if r.Code == CodeAnswered {
		return r, fmt.Errorf("%w: %s", ErrAnswered, r.Error)
	}
	if r.Error != "" {
		return r, errors.New(r.Error)
	}
	return r, nil
}

// Snapshot asks the session how it is.
func (c Client) Snapshot() (Snapshot, error) {
	r, err := c.call(Request{Op: OpSnapshot})
	if err != nil {
		return Snapshot{}, err
	}
	if r.Snapshot == nil {
		return Snapshot{}, errors.New("the session sent no snapshot")
	}
	return *r.Snapshot, nil
}

// Resolve answers question id with decision (allow, block, halt); by says where, e.g.
// "hooksup approve". A question answered already is ErrAnswered.
func (c Client) Resolve(id int, decision, reason, by string) error {
	_, err := c.call(Request{Op: OpResolve, Question: id, Decision: decision, Reason: reason, By: by})
	return err
}

// Interrupt is Escape, as if pressed in the session: its stops are allowed, and its agent, at
// work, is sent the key where the session has a TUI.
func (c Client) Interrupt() error {
	_, err := c.call(Request{Op: OpInterrupt})
	return err
}

// ResumeGoal continues the session's goal, out of budget or paused, with budget b.
func (c Client) ResumeGoal(b session.GoalBudget) error {
	_, err := c.call(Request{Op: OpGoalResume, Goal: &b})
	return err
}

// Events streams the session's events to f until the session ends, f returns false, or the
// connection fails.
func (c Client) Events(f func(Event) bool) error {
	conn, err := dial(c.Path)
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := json.NewEncoder(conn).Encode(Request{Protocol: Protocol, Op: OpEvents}); err != nil {
		return err
	}
	dec := json.NewDecoder(bufio.NewReader(conn))
	var first Response
	if err := dec.Decode(&first); err != nil {
		return err
	}
	if err := understood(first); err != nil {
		return err
	}
	if first.Error != "" {
		return errors.New(first.Error)
	}
	for {
		var r Response
		if err := dec.Decode(&r); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if r.Event != nil && !f(*r.Event) {
			return nil
		}
	}
}
