package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// A connection over the cap is closed at once; one that closes makes room again.
func TestLimitListenerCapsConnectionsPerAddress(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := LimitListener(inner, 10, 2)
	defer ln.Close()
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
	a := <-accepted
	<-accepted
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
