package hubweb

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/web"
)

// Clients that never finish a request cannot keep hooksup web busy: with 200 connections that
// trickle their headers, 50 that send a header and then trickle a body, and 50 kept alive
// doing nothing, a real request is answered at once, and every one of the 300 is closed by
// the server within 30 s (ReadHeaderTimeout, ReadTimeout, IdleTimeout).
func TestWebBoundsSlowClients(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	w := e2e.StartWeb(t, s)
	u, err := url.Parse(w.Base)
	if err != nil {
		t.Fatal(err)
	}
	dial := func() net.Conn {
		c, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	type slow struct {
		kind string
		c    net.Conn
	}
	var conns []slow
	for range 200 {
		c := dial()
		fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\n", u.Host)
		conns = append(conns, slow{"trickled header", c})
	}
	for range 50 {
		c := dial()
		fmt.Fprintf(c, "POST /api/sessions/x/approve HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{", u.Host)
		conns = append(conns, slow{"trickled body", c})
	}
	for range 50 {
		c := dial()
		fmt.Fprintf(c, "GET /app.css HTTP/1.1\r\nHost: %s\r\n\r\n", u.Host)
		conns = append(conns, slow{"idle kept alive", c})
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() { // a byte a second on each trickling connection, for as long as it is open
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
			for _, sc := range conns {
				switch sc.kind {
				case "trickled header":
					sc.c.Write([]byte("X"))
				case "trickled body":
					sc.c.Write([]byte(" "))
				}
			}
		}
	}()
	start := time.Now()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(w.Base)
	if err != nil {
		t.Fatalf("a real request while 300 slow clients are connected: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("a real request: %s", resp.Status)
	}
	t.Logf("a real request answered in %v beside 300 slow clients", time.Since(start).Round(time.Millisecond))

	deadline := start.Add(30 * time.Second)
	var wg sync.WaitGroup
	var mu sync.Mutex
	open := map[string]int{}
	for _, sc := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc.c.SetReadDeadline(deadline)
			_, err := io.Copy(io.Discard, sc.c) // a response, then the server's close
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				mu.Lock()
				open[sc.kind]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(open) > 0 {
		t.Fatalf("connections still open 30 s after they were made: %v", open)
	}
}

// With --tls-cert and --tls-key that do not load, hooksup web prints no URL (and no pairing
// code) for a server that never serves: it exits 1 naming the files.
func TestWebPrintsNothingBeforeTLSLoads(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	cert, key := s.Project+"/cert.pem", s.Project+"/key.pem"
	os.WriteFile(cert, []byte("not a certificate"), 0o600)
	os.WriteFile(key, []byte("not a key"), 0o600)
	cmd := e2e.ExecHooksup(s, "web", "--listen", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Run()
	if cmd.ProcessState.ExitCode() != 1 || strings.Contains(stdout.String(), "http") || !strings.Contains(stderr.String(), cert) {
		t.Fatalf("exit %d; stdout %q; stderr %q", cmd.ProcessState.ExitCode(), stdout.String(), stderr.String())
	}
}

// A request's header (its request line and fields) is at most 16 KiB, as docs/web.md says:
// one of exactly 16 KiB is answered, one byte more is 431; and as a client sends them, a
// 15 KiB header field passes and a 17 KiB one is refused.
func TestWebBoundsTheHeaderAt16KiB(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	w := e2e.StartWeb(t, s)
	u, err := url.Parse(w.Base)
	if err != nil {
		t.Fatal(err)
	}
	raw := func(size int) int {
		t.Helper()
		head := fmt.Sprintf("GET /api/sessions HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nConnection: close\r\nX-Pad: ", u.Host, w.Token)
		const end = "\r\n\r\n"
		req := head + strings.Repeat("a", size-len(head)-len(end)) + end
		if len(req) != size {
			t.Fatalf("a request of %d bytes, not %d", len(req), size)
		}
		c, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(c, req); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("a header of %d bytes: %v", size, err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for size, want := range map[int]int{web.MaxHeaderBytes: http.StatusOK, web.MaxHeaderBytes + 1: http.StatusRequestHeaderFieldsTooLarge} {
		if got := raw(size); got != want {
			t.Errorf("a header of %d bytes: %d, want %d", size, got, want)
		}
	}
	for kib, want := range map[int]int{15: http.StatusOK, 17: http.StatusRequestHeaderFieldsTooLarge} {
		resp, body := w.Do(t, "GET", "/api/sessions", "", map[string]string{"Authorization": "Bearer " + w.Token, "X-Pad": strings.Repeat("a", kib<<10)})
		if resp.StatusCode != want {
			t.Errorf("a %d KiB header field: %d %.80s, want %d", kib, resp.StatusCode, body, want)
		}
	}
}
