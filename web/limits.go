package web

import (
	"container/list"
	"context"
	"crypto/sha256"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// The bounds of a client of hooksup web, whoever it is: a client that trickles its request, or
// holds a connection it does not use, is closed, and no number of them keeps the person out.
const (
	// ReadHeaderTimeout is how long a request's header may take to arrive.
	ReadHeaderTimeout = 5 * time.Second
	// ReadTimeout is how long a whole request, header and body, may take (an action's body is
	// a reason of at most 64 KiB).
	ReadTimeout = 15 * time.Second
	// IdleTimeout closes a kept-alive connection with no request.
	IdleTimeout = 20 * time.Second
	// MaxHeaderBytes bounds a request's header, its request line and fields as HTTP/1.1
	// writes them (see boundHeader).
	MaxHeaderBytes = 16 << 10
	// MaxConns and MaxConnsPerAddr bound the open connections, in all and from one address.
	// Both are well above what a person's devices open: the timeouts above are what ends a
	// slow client, these only bound a flood (and behind tailscale serve or ssh -L every client
	// is one loopback address).
	MaxConns        = 1024
	MaxConnsPerAddr = 512
)

// A connection that has not yet carried a valid credential (a device's token or the API
// token, which the API's guard accepted) is bounded apart, far below the connections in all:
// anyone can open one, and a credential must always get in. A new connection over these caps
// closes the oldest connection without a credential (from its address, when that address is
// over its cap; one idle between requests first, one the server has yet to read last) to make
// room, so a flood churns through its own connections while a person's fresh one, whose
// request comes at once, is read and served. One also lives at most UncredentialedLifetime
// from its accept unless a request on it brings a credential: keeping it alive with a request
// now and then does not keep it.
//
// A browser opens at most 6 connections to a host; the page's own files and its first API
// request come over a handful. 64 from one address leaves room for ten devices behind one
// address (tailscale serve, ssh -L), 256 for many, and at 16 KiB of header each the
// connections without a credential hold at most 4 MiB of buffers. 10 s is twice
// ReadHeaderTimeout: a slow phone's handshake and first request have time; a connection
// that only fetched the page's files is closed before IdleTimeout, and the browser opens
// another when it needs one.
const (
	MaxUncredentialedConns   = 256
	MaxUncredentialedPerAddr = 64
	UncredentialedLifetime   = 10 * time.Second
)

// MaxStreamsPerCredential bounds the event streams one device (or the API token) holds open at
// once: a tab of the page holds one.
const MaxStreamsPerCredential = 8

// streamCount counts the open event streams of each credential, by its hash.
type streamCount struct {
	mu sync.Mutex
	n  map[[sha256.Size]byte]int
}

// open takes a stream for credential, false when it has MaxStreamsPerCredential already.
func (c *streamCount) open(credential string) bool {
	k := sha256.Sum256([]byte(credential))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[[sha256.Size]byte]int{}
	}
	if c.n[k] >= MaxStreamsPerCredential {
		return false
	}
	c.n[k]++
	return true
}

func (c *streamCount) close(credential string) {
	k := sha256.Sum256([]byte(credential))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[k]--; c.n[k] <= 0 {
		delete(c.n, k)
	}
}

// HTTPServer is the server of handler with those bounds. No write timeout: an event stream
// lasts as long as its page. Each request's context carries its connection from
// LimitListener, which the API's guard marks credentialed.
func HTTPServer(handler http.Handler) *http.Server {
	return &http.Server{
		Handler:           boundHeader(handler),
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if lc, ok := c.(*limitConn); ok {
				return context.WithValue(ctx, connKey{}, lc)
			}
			return ctx
		},
		ConnState: func(c net.Conn, st http.ConnState) {
			if tc, ok := c.(interface{ NetConn() net.Conn }); ok { // TLS
				c = tc.NetConn()
			}
			if lc, ok := c.(*limitConn); ok {
				lc.l.setState(lc, st)
			}
		},
	}
}

type connKey struct{}

// markCredentialed says that the connection of the request of ctx carried a valid
// credential: it is no longer bounded as one without.
func markCredentialed(ctx context.Context) {
	if c, ok := ctx.Value(connKey{}).(*limitConn); ok {
		c.l.credentialed(c)
	}
}

// LimitListener bounds the connections of ln: total in all and perAddr from one address, and
// those without a credential by MaxUncredentialedConns, MaxUncredentialedPerAddr and
// UncredentialedLifetime. A new connection closes the oldest without a credential to make
// room; over total or perAddr with none to close, it is closed at once.
func LimitListener(ln net.Listener, total, perAddr int) net.Listener {
	return newLimitListener(ln, limits{
		total: total, perAddr: perAddr,
		uncredentialed: min(total, MaxUncredentialedConns), uncredentialedPerAddr: min(perAddr, MaxUncredentialedPerAddr),
		lifetime: UncredentialedLifetime,
	}, afterFunc)
}

type limits struct {
	total, perAddr                        int
	uncredentialed, uncredentialedPerAddr int
	lifetime                              time.Duration
}

// afterFunc is time.AfterFunc, its timer's Stop the func it returns.
func afterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

func newLimitListener(ln net.Listener, lim limits, after func(time.Duration, func()) func() bool) *limitListener {
	return &limitListener{Listener: ln, limits: lim, after: after, unread: make(chan struct{}, maxUnread),
		open: map[string]int{}, waitingFrom: map[string]int{}}
}

type limitListener struct {
	net.Listener
	limits
	after func(time.Duration, func()) func() bool
	// unread holds a place for each connection accepted that the server has not read yet.
	unread chan struct{}

	mu          sync.Mutex
	all         int
	open        map[string]int // by address
	waiting     list.List      // the connections without a credential, oldest first
	waitingFrom map[string]int // by address
}

// maxUnread is how many accepted connections may wait for the server to start reading them
// before Accept waits: a flood's new connections cannot push out the one accepted before them
// faster than the server reads it.
const maxUnread = 16

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		l.unread <- struct{}{}
		c, err := l.Listener.Accept()
		if err != nil {
			<-l.unread
			return nil, err
		}
		if lc := l.admit(c); lc != nil {
			lc.unread = true
			return lc, nil
		}
		<-l.unread
	}
}

// admit is c counted as a connection without a credential, having closed the oldest such
// ones to make room; nil, c closed, when it is over the bounds with none to close.
func (l *limitListener) admit(c net.Conn) *limitConn {
	lc := &limitConn{Conn: c, l: l, addr: remoteHost(c.RemoteAddr())}
	l.mu.Lock()
	closing := l.makeRoom(lc.addr)
	over := l.all >= l.total || l.open[lc.addr] >= l.perAddr
	if !over {
		l.all++
		l.open[lc.addr]++
		lc.waiting = l.waiting.PushBack(lc)
		l.waitingFrom[lc.addr]++
		lc.stop = l.after(l.lifetime, func() { l.expire(lc) })
	}
	l.mu.Unlock()
	for _, o := range closing {
		o.Conn.Close()
	}
	if over {
		c.Close()
		return nil
	}
	return lc
}

// makeRoom releases the oldest connections without a credential until one more from addr is
// within the bounds, and returns them for the caller to close once l.mu is unlocked.
func (l *limitListener) makeRoom(addr string) []*limitConn {
	var closing []*limitConn
	// The oldest of the first kind there is goes: one idle between requests (answered
	// already), one the server reads, and last one the server has not started to read (a new
	// connection's request may be waiting in it: at most maxUnread are).
	rank := func(c *limitConn) int {
		switch {
		case !c.read.Load():
			return 2
		case c.state == http.StateIdle:
			return 0
		}
		return 1
	}
	oldest := func(from string) *limitConn {
		var best *limitConn
		for e := l.waiting.Front(); e != nil; e = e.Next() {
			if c := e.Value.(*limitConn); (from == "" || c.addr == from) && (best == nil || rank(c) < rank(best)) {
				if best = c; rank(c) == 0 {
					break
				}
			}
		}
		return best
	}
	for {
		var c *limitConn
		switch {
		case l.waitingFrom[addr] >= l.uncredentialedPerAddr || l.open[addr] >= l.perAddr:
			c = oldest(addr)
		case l.waiting.Len() >= l.uncredentialed || l.all >= l.total:
			c = oldest("")
		}
		if c == nil {
			return closing
		}
		l.release(c)
		closing = append(closing, c)
	}
}

// credentialed takes c out of the connections without a credential.
func (l *limitListener) credentialed(c *limitConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.unwait(c)
}

// setState is c's http.ConnState.
func (l *limitListener) setState(c *limitConn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c.state = st
}

// expire closes c, UncredentialedLifetime after its accept, unless it carried a credential.
func (l *limitListener) expire(c *limitConn) {
	l.mu.Lock()
	expired := c.waiting != nil
	if expired {
		l.release(c)
	}
	l.mu.Unlock()
	if expired {
		c.Conn.Close()
	}
}

func (l *limitListener) unwait(c *limitConn) {
	if c.waiting == nil {
		return
	}
	l.waiting.Remove(c.waiting)
	c.waiting = nil
	if l.waitingFrom[c.addr]--; l.waitingFrom[c.addr] <= 0 {
		delete(l.waitingFrom, c.addr)
	}
	c.stop()
}

// release gives c's place back, once.
func (l *limitListener) release(c *limitConn) {
	if c.released {
		return
	}
	c.released = true
	l.unwait(c)
	l.all--
	if l.open[c.addr]--; l.open[c.addr] <= 0 {
		delete(l.open, c.addr)
	}
}

func remoteHost(a net.Addr) string {
	if ta, ok := a.(*net.TCPAddr); ok {
		return ta.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// limitConn is a connection of a limitListener; its fields past Conn are the listener's, under
// its mu.
type limitConn struct {
	net.Conn
	l        *limitListener
	addr     string
	waiting  *list.Element // in l.waiting while it has carried no credential
	stop     func() bool   // its lifetime's timer
	state    http.ConnState
	released bool
	unread   bool        // it holds a place in l.unread (set before Accept returns it)
	read     atomic.Bool // the server has started reading it
}

func (c *limitConn) Read(p []byte) (int, error) {
	c.reading()
	return c.Conn.Read(p)
}

// reading gives back c's place among the unread connections, once.
func (c *limitConn) reading() {
	if c.read.CompareAndSwap(false, true) && c.unread {
		<-c.l.unread
	}
}

func (c *limitConn) Close() error {
	c.reading()
	c.l.mu.Lock()
	c.l.release(c)
	c.l.mu.Unlock()
	return c.Conn.Close()
}
