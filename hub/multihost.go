package hub

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
)

// Sessions is what a front end that shows sessions live (hooksup watch's model, hooksup web's
// server) needs of them: every host's listed, one session's snapshot, its questions answered, it
// interrupted, its events followed. Every call is I/O. MultiHost is the implementation; the
// front ends' tests fake it.
type Sessions interface {
	// List is every host's sessions, this machine's first, oldest first; each host that cannot
	// be reached is one entry with Err (its card).
	List() ([]Live, error)
	// ListHost is one host's ("" for this machine): an answer reaches no other host.
	ListHost(host string) ([]Live, error)
	// Snapshot asks one session how it is.
	Snapshot(l Live) (Snapshot, error)
	// Resolve answers one of its questions; the verdict says where it was answered.
	Resolve(l Live, id int, d hooks.Decision, reason string) error
	// Interrupt is Escape pressed in the session: its pending questions, and the rest of its
	// turn, may stop; its agent at work is interrupted.
	Interrupt(l Live) error
	// Events streams its events to f until it ends or f returns false.
	Events(l Live, f func(Event) bool) error
}

// MultiHost is the Sessions of this machine, through its runtime directory and the sessions'
// control sockets (List, Client), and of other hosts, each through one connection (Remote) made
// at the first list and made again after it fails or drops. Its answers say they come from by.
// Client is one session, Remote one host; MultiHost is them all for as long as a front end runs.
type MultiHost struct {
	dir   string
	hosts []*hostConn
	by    string
}

var _ Sessions = (*MultiHost)(nil)

// NewMultiHost is this machine's sessions in the runtime directory dir and those of hosts,
// reached through t, answered by by ("hooksup watch": "manual (hooksup watch)"). No host is
// dialled before the first list. Close ends the connections.
func NewMultiHost(dir string, t Transport, hosts []string, by string) *MultiHost {
	m := &MultiHost{dir: dir, by: by}
	for _, h := range hosts {
		m.hosts = append(m.hosts, &hostConn{name: h, t: t})
	}
	return m
}

func (m *MultiHost) List() ([]Live, error) {
	lists := make([][]Live, len(m.hosts))
	var wg sync.WaitGroup
	for i, c := range m.hosts {
		wg.Go(func() { lists[i] = c.list() })
	}
	out, err := List(m.dir)
	wg.Wait()
	for _, l := range lists {
		out = append(out, l...)
	}
	return out, err
}

// ListHost is one host's sessions ("" for this machine's), its card when it cannot be reached;
// none for a host it was not given.
func (m *MultiHost) ListHost(host string) ([]Live, error) {
	if host == "" {
		return List(m.dir)
	}
	for _, c := range m.hosts {
		if c.name == host {
			return c.list(), nil
		}
	}
	return nil, nil
}

// remote is the connection of l's host; nil for this machine's.
func (m *MultiHost) remote(l Live) (*Remote, error) {
	if l.Host == "" {
		return nil, nil
	}
	for _, c := range m.hosts {
		if c.name == l.Host {
			return c.remote()
		}
	}
	return nil, fmt.Errorf("no host %s", l.Host)
}

func (m *MultiHost) Snapshot(l Live) (Snapshot, error) {
	r, err := m.remote(l)
	if err != nil {
		return Snapshot{}, err
	}
	if r != nil {
		return r.Snapshot(l.Entry.ID)
	}
	return Client{Path: l.Entry.Control}.Snapshot()
}

func (m *MultiHost) Resolve(l Live, id int, d hooks.Decision, reason string) error {
	return m.ResolveAs(l, id, d, reason, m.by)
}

// ResolveAs is Resolve with the verdict saying where the person answered in words of its own:
// "hooksup web device 3f9c2a1e", the paired browser that answered.
func (m *MultiHost) ResolveAs(l Live, id int, d hooks.Decision, reason, by string) error {
	r, err := m.remote(l)
	if err != nil {
		return err
	}
	if r != nil {
		return r.Resolve(l.Entry.ID, id, string(d), reason, by)
	}
	return Client{Path: l.Entry.Control}.Resolve(id, string(d), reason, by)
}

func (m *MultiHost) Interrupt(l Live) error {
	r, err := m.remote(l)
	if err != nil {
		return err
	}
	if r != nil {
		return r.Interrupt(l.Entry.ID)
	}
	return Client{Path: l.Entry.Control}.Interrupt()
}

// ResumeGoal resumes l's goal, out of budget or paused, with budget b (each 0 keeps the goal's
// own), where l runs.
func (m *MultiHost) ResumeGoal(l Live, b session.GoalBudget) error {
	r, err := m.remote(l)
	if err != nil {
		return err
	}
	if r != nil {
		return r.ResumeGoal(l.Entry.ID, b)
	}
	return Client{Path: l.Entry.Control}.ResumeGoal(b)
}

func (m *MultiHost) Events(l Live, f func(Event) bool) error {
	r, err := m.remote(l)
	if err != nil {
		return err
	}
	if r != nil {
		return r.Events(l.Entry.ID, f)
	}
	return Client{Path: l.Entry.Control}.Events(f)
}

// Close ends every host's connection.
func (m *MultiHost) Close() {
	for _, c := range m.hosts {
		c.close()
	}
}

// Reconnection's backoff: the first wait after a host fails, doubled at each failure up to
// the last.
const (
	reconnectFirst = time.Second
	reconnectMax   = 30 * time.Second
)

// hostConn is one host's connection for a MultiHost's life: made at the first list, and, once
// it fails or drops, made again at a list after a wait that doubles at each failure. Lists may
// come at once (hooksup web's): one dials while the others wait for it.
type hostConn struct {
	name string
	t    Transport

	dial    sync.Mutex // held while dialling
	mu      sync.Mutex
	conn    *Remote
	err     error     // why there is no connection
	retryAt time.Time // no connection is tried before
	wait    time.Duration
}

func (c *hostConn) remote() (*Remote, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return nil, &HostError{Host: c.name, Err: ErrDropped}
	}
	return c.conn, nil
}

// list is the host's sessions, or, without a connection, its card: the host and why.
func (c *hostConn) list() []Live {
	c.dial.Lock()
	c.mu.Lock()
	conn, due := c.conn, time.Now().After(c.retryAt)
	c.mu.Unlock()
	if conn == nil && due {
		r, err := Dial(context.Background(), c.t, c.name)
		c.mu.Lock()
		if err != nil {
			c.failed(err)
		} else {
			c.conn, c.err, c.wait = r, nil, 0
		}
		conn = c.conn
		c.mu.Unlock()
	}
	c.dial.Unlock()
	if conn != nil {
		lives, err := conn.List()
		if err == nil {
			return lives
		}
		c.mu.Lock()
		if c.conn == conn {
			c.conn = nil
			c.failed(err)
		}
		c.mu.Unlock()
		go conn.Close()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.err
	var msg string
	if herr, ok := errors.AsType[*HostError](err); ok && herr.Host == c.name {
		msg = strings.TrimPrefix(herr.Error(), "host "+c.name+": ")
	} else {
		msg = err.Error()
	}
	wait := max(time.Until(c.retryAt), 0).Round(time.Second)
	card := fmt.Errorf("disconnected: %s; trying again in %v", msg, wait)
	return []Live{{Entry: Entry{ID: "host " + c.name}, Snapshot: Snapshot{ID: "host " + c.name, Pending: []Question{}},
		Err: card, Host: c.name}}
}

// failed records err and when to try again. c.mu is held.
func (c *hostConn) failed(err error) {
	c.err = err
	if c.wait == 0 {
		c.wait = reconnectFirst
	} else {
		c.wait = min(2*c.wait, reconnectMax)
	}
	c.retryAt = time.Now().Add(c.wait)
}

func (c *hostConn) close() {
	c.mu.Lock()
	conn := c.conn
	c.conn = nil
	c.mu.Unlock()
	if conn != nil {
		conn.Close()
	}
}
