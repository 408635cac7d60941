package web

import (
	"crypto/sha256"
	"net"
	"net/http"
	"sync"
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
	// MaxConns and MaxConnsPerAddr bound the open connections, in all and from one address;
	// one over them is closed at once. Both are well above what a person's devices open: the
	// timeouts above are what ends a slow client, these only bound a flood (and behind
	// tailscale serve or ssh -L every client is one loopback address).
	MaxConns        = 1024
	MaxConnsPerAddr = 512
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
// lasts as long as its page.
func HTTPServer(handler http.Handler) *http.Server {
	return &http.Server{
		Handler:           boundHeader(handler),
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
	}
}

// LimitListener closes at once a connection over total open ones, or over perAddr from its
// address.
func LimitListener(ln net.Listener, total, perAddr int) net.Listener {
	return &limitListener{Listener: ln, total: total, perAddr: perAddr, open: map[string]int{}}
}

type limitListener struct {
	net.Listener
	total, perAddr int
	mu             sync.Mutex
	all            int
	open           map[string]int
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := remoteHost(c.RemoteAddr())
		l.mu.Lock()
		over := l.all >= l.total || l.open[addr] >= l.perAddr
		if !over {
			l.all++
			l.open[addr]++
		}
		l.mu.Unlock()
		if over {
			c.Close()
			continue
		}
		return &limitConn{Conn: c, release: func() { l.release(addr) }}, nil
	}
}

func (l *limitListener) release(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all--
	if l.open[addr]--; l.open[addr] <= 0 {
		delete(l.open, addr)
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

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
