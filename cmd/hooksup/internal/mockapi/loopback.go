package mockapi

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"sync"
	"testing"
)

// loopback is what both mocks share: an HTTP server on 127.0.0.1, in a loopback-only network
// namespace when asked (WithNetNS) and one can be made, closed once.
type loopback struct {
	ts *httptest.Server
	ns *netNS

	closing   chan struct{} // closed by Close: replies held back end
	closeOnce sync.Once
}

// newLoopback is h on a loopback port, in a fresh network namespace when netns is set (falling
// back to the host loopback, with a t.Log, when none can be made), not yet serving: the server
// that holds it starts it (ts.Start) once it is in place, since h reads it.
func newLoopback(t testing.TB, netns bool, h http.Handler) *loopback {
	t.Helper()
	l := &loopback{closing: make(chan struct{})}
	var ln net.Listener
	if netns {
		ns, err := newNetNS()
		if err != nil {
			t.Logf("mockapi: no loopback-only network namespace (%v); using the host loopback", err)
		} else {
			ns.do(func() { ln, err = net.Listen("tcp4", "127.0.0.1:0") })
			if err != nil {
				ns.close()
				t.Fatalf("mockapi: listen in network namespace: %v", err)
			}
			l.ns = ns
		}
	}
	l.ts = httptest.NewUnstartedServer(h)
	if ln != nil {
		l.ts.Listener.Close()
		l.ts.Listener = ln
	}
	return l
}

// Close stops the server (and discards its network namespace). It is called by t.Cleanup;
// calling it earlier is fine.
func (l *loopback) Close() {
	l.closeOnce.Do(func() {
		close(l.closing)
		l.ts.CloseClientConnections()
		l.ts.Close()
		if l.ns != nil {
			l.ns.close()
		}
	})
}

// NetNS identifies the server's network namespace ("net:[4026532...]"), or returns "" when
// the server runs on the host loopback.
func (l *loopback) NetNS() string {
	if l.ns == nil {
		return ""
	}
	return l.ns.id
}

// Start starts cmd so that it can reach the server: inside the server's network namespace
// when there is one, else plainly.
func (l *loopback) Start(cmd *exec.Cmd) error {
	if l.ns == nil {
		return cmd.Start()
	}
	var err error
	if !l.ns.do(func() { err = cmd.Start() }) {
		return errors.New("mockapi: server closed")
	}
	return err
}
