package web

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// Connections that carried a credential keep the caps in all and per address: one over them,
// with none without a credential to close instead, is closed at once; one that closes makes
// room again.
func TestLimitListenerCapsConnectionsPerAddress(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := LimitListener(inner, 10, 2)
	defer ln.Close()
	hs := HTTPServer(nil)
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	first, _ := dial(), dial()
	a, b := <-accepted, <-accepted
	for _, c := range []net.Conn{a, b} {
		markCredentialed(hs.ConnContext(context.Background(), c))
	}
	third := dial()
	third.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := third.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("a third connection from one address: %v, want it closed (EOF)", err)
	}
	select {
	case <-accepted:
		t.Fatal("a connection over the cap was accepted")
	default:
	}
	a.Close() // the server closes one: room for another
	first.Close()
	dial()
	select {
	case <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("no room after a connection closed")
	}
}

// fakeConn is a connection from an address that knows whether it was closed.
type fakeConn struct {
	net.Conn
	name   string
	from   net.IP
	closed bool
}

func (c *fakeConn) RemoteAddr() net.Addr     { return &net.TCPAddr{IP: c.from, Port: 40000} }
func (c *fakeConn) Close() error             { c.closed = true; return nil }
func (c *fakeConn) Read([]byte) (int, error) { return 0, io.EOF }

// fakeTimers are a limitListener's lifetimes, fired by hand.
type fakeTimers struct{ fire []func() }

func (f *fakeTimers) after(d time.Duration, fn func()) func() bool {
	stopped := false
	f.fire = append(f.fire, func() {
		if !stopped {
			fn()
		}
	})
	return func() bool { was := !stopped; stopped = true; return was }
}

// limitHarness is a limitListener whose connections are fakes, handed to it one by one.
type limitHarness struct {
	ln     *limitListener
	timers *fakeTimers
	hs     *http.Server
}

func newLimitHarness(lim limits) *limitHarness {
	h := &limitHarness{timers: &fakeTimers{}, hs: HTTPServer(nil)}
	h.ln = newLimitListener(nil, lim, h.timers.after)
	return h
}

// accept is c as accepted, nil when it was closed at once.
func (h *limitHarness) accept(c *fakeConn) net.Conn {
	if lc := h.ln.admit(c); lc != nil {
		return lc
	}
	return nil
}

// credential is what the API's guard does on a valid credential.
func (h *limitHarness) credential(c net.Conn) {
	markCredentialed(h.hs.ConnContext(context.Background(), c))
}

func closedOnes(cs ...*fakeConn) []string {
	var names []string
	for _, c := range cs {
		if c.closed {
			names = append(names, c.name)
		}
	}
	return names
}

// A new connection over the caps of those without a credential closes the oldest of them: from
// its own address when that address is over its cap, else from any. A connection that carried
// a credential is never closed to make room, and while the room is taken by those with a
// credential a new one is closed at once.
func TestLimitListenerClosesTheOldestUncredentialed(t *testing.T) {
	h := newLimitHarness(limits{total: 6, perAddr: 5, uncredentialed: 4, uncredentialedPerAddr: 3, lifetime: time.Minute})
	a, b := net.IPv4(192, 0, 2, 1), net.IPv4(192, 0, 2, 2)
	conn := func(name string, from net.IP) *fakeConn { return &fakeConn{name: name, from: from} }
	a1, a2, a3, a4 := conn("a1", a), conn("a2", a), conn("a3", a), conn("a4", a)
	for _, c := range []*fakeConn{a1, a2, a3} {
		h.accept(c)
	}
	h.accept(a4)
	if got := closedOnes(a1, a2, a3, a4); len(got) != 1 || got[0] != "a1" {
		t.Fatalf("a fourth connection from one address (cap 3) closed %v, want a1", got)
	}
	b1, b2 := conn("b1", b), conn("b2", b)
	h.accept(b1) // 4 in all: at the cap
	if got := closedOnes(a2, a3, a4, b1); len(got) != 0 {
		t.Fatalf("b1 closed %v", got)
	}
	h.accept(b2) // over the cap in all: the oldest of any address goes
	if got := closedOnes(a2, a3, a4, b1, b2); len(got) != 1 || got[0] != "a2" {
		t.Fatalf("a fifth connection in all (cap 4) closed %v, want a2", got)
	}

	// a3 and a4 carry a credential: a flood from a and b churns through b1, b2 and itself.
	h.credential(h.ln.waiting.Front().Value.(*limitConn)) // a3, the oldest still waiting
	h.credential(h.ln.waiting.Front().Value.(*limitConn)) // a4
	var flood []*fakeConn
	for i := range 40 {
		c := conn(fmt.Sprintf("flood%d", i), []net.IP{a, b}[i%2])
		flood = append(flood, c)
		if h.accept(c) == nil {
			t.Fatalf("%s was closed at once: a new connection should close an older one instead", c.name)
		}
	}
	if a3.closed || a4.closed {
		t.Fatalf("a connection with a credential was closed to make room (a3 %v, a4 %v)", a3.closed, a4.closed)
	}
	if !b1.closed || !b2.closed || len(closedOnes(flood...)) != 36 {
		t.Fatalf("after 40 more: b1 closed %v, b2 %v, %d of the 40 closed, want the 36 oldest", b1.closed, b2.closed, len(closedOnes(flood...)))
	}
	for _, c := range flood[36:] {
		if c.closed {
			t.Fatalf("%s, one of the newest, was closed", c.name)
		}
	}

	// The newest four carry a credential too: 6 with one, the cap in all; another is closed at
	// once, and one that closes makes room again.
	var held []net.Conn
	for h.ln.waiting.Len() > 0 {
		c := h.ln.waiting.Front().Value.(*limitConn)
		h.credential(c)
		held = append(held, c)
	}
	if over := conn("over", b); h.accept(over) != nil || !over.closed {
		t.Fatalf("a connection over the cap in all, with none without a credential to close: accepted")
	}
	held[0].Close()
	if again := conn("again", b); h.accept(again) == nil {
		t.Fatal("no room after a connection closed")
	}
}

// Among those without a credential, one idle between requests (answered already) is closed
// before older ones the server has not read yet.
func TestLimitListenerClosesAnIdleOneFirst(t *testing.T) {
	h := newLimitHarness(limits{total: 10, perAddr: 10, uncredentialed: 3, uncredentialedPerAddr: 3, lifetime: time.Minute})
	from := net.IPv4(127, 0, 0, 1)
	a1, a2, a3, a4 := &fakeConn{name: "a1", from: from}, &fakeConn{name: "a2", from: from}, &fakeConn{name: "a3", from: from}, &fakeConn{name: "a4", from: from}
	h.accept(a1)
	answered := h.accept(a2)
	h.accept(a3)
	answered.Read(nil) // the server reads it and answers its request
	h.hs.ConnState(answered, http.StateActive)
	h.hs.ConnState(answered, http.StateIdle)
	h.accept(a4)
	if got := closedOnes(a1, a2, a3, a4); len(got) != 1 || got[0] != "a2" {
		t.Fatalf("a fourth connection (cap 3) closed %v, want a2, the idle one", got)
	}
}

// A connection without a credential is closed its lifetime after its accept, however it is
// used; one that carried a credential in that time is kept.
func TestLimitListenerEndsUncredentialedAfterTheirLifetime(t *testing.T) {
	h := newLimitHarness(limits{total: 10, perAddr: 10, uncredentialed: 10, uncredentialedPerAddr: 10, lifetime: 10 * time.Second})
	from := net.IPv4(127, 0, 0, 1)
	idle, owner := &fakeConn{name: "idle", from: from}, &fakeConn{name: "owner", from: from}
	h.accept(idle)
	h.credential(h.accept(owner))
	if len(h.timers.fire) != 2 {
		t.Fatalf("%d lifetimes started, want one per connection", len(h.timers.fire))
	}
	for _, fire := range h.timers.fire {
		fire()
	}
	if !idle.closed || owner.closed {
		t.Fatalf("at the end of the lifetime: idle closed %v, owner closed %v; want idle only", idle.closed, owner.closed)
	}
	if h.ln.all != 1 || h.ln.waiting.Len() != 0 {
		t.Fatalf("after the lifetime: %d open, %d waiting; want 1 and 0", h.ln.all, h.ln.waiting.Len())
	}
}

// One credential holds at most MaxStreamsPerCredential event streams; the next is refused (429)
// until one closes, and another credential is not held up by it.
func TestEventStreamsPerCredentialAreBounded(t *testing.T) {
	ts, _ := newTestServer(t)
	open := func(tok string) (*http.Response, context.CancelFunc) {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		r, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/events", nil)
		r.Header.Set("Authorization", "Bearer "+tok)
		resp, err := ts.Client().Do(r)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cancel(); resp.Body.Close() })
		return resp, cancel
	}
	var first context.CancelFunc
	for i := range MaxStreamsPerCredential {
		resp, cancel := open(testToken)
		if resp.StatusCode != 200 {
			t.Fatalf("stream %d: %s", i+1, resp.Status)
		}
		if i == 0 {
			first = cancel
		}
	}
	if resp, _ := open(testToken); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("stream %d of one credential: %s, want 429", MaxStreamsPerCredential+1, resp.Status)
	}
	first()
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, _ := open(testToken)
		if resp.StatusCode == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no stream after one closed: %s", resp.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
