package hubweb

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// flood is an attacker's connections to hooksup web, in a process of its own
// (testdata/flood): each kept alive with a cheap GET every 5 s, and dialled again the moment
// the server closes it.
type flood struct {
	dials, answers atomic.Int64
}

// startFlood holds n unauthenticated connections to host (HOST:PORT) open until the test ends,
// spread over addrs addresses of 127/8 (0: the system's choice, 127.0.0.1).
func startFlood(t *testing.T, host string, n, addrs int) *flood {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "flood")
	if out, err := e2e.GoBuild(bin, "./testdata/flood").CombinedOutput(); err != nil {
		t.Fatalf("build the flood: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-host", host, "-n", fmt.Sprint(n), "-addrs", fmt.Sprint(addrs))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	f := &flood{}
	held := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		once := sync.Once{}
		for sc.Scan() {
			var d, a int64
			if _, err := fmt.Sscanf(sc.Text(), "dials %d answers %d", &d, &a); err == nil {
				f.dials.Store(d)
				f.answers.Store(a)
				if d >= int64(n) && a >= int64(n/2) {
					once.Do(func() { close(held) })
				}
			}
		}
	}()
	select {
	case <-held:
	case <-time.After(60 * time.Second):
		t.Fatalf("the flood of %d connections never took hold: %d dials, %d answers", n, f.dials.Load(), f.answers.Load())
	}
	return f
}

// loopbackAddrs are n addresses of 127/8 other than 127.0.0.1, any of which a local user may
// bind.
func loopbackAddrs(n int) []net.IP {
	var ips []net.IP
	for i := range n {
		ips = append(ips, net.IPv4(127, 77, byte(i/250), byte(i%250+1)))
	}
	return ips
}

// answeredWithin is one request on a connection of its own, and how long its answer took.
func answeredWithin(t *testing.T, method, rawURL, auth string) (int, time.Duration) {
	t.Helper()
	r, err := http.NewRequest(method, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		r.Header.Set("Authorization", "Bearer "+auth)
	}
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	start := time.Now()
	resp, err := c.Do(r)
	if err != nil {
		t.Fatalf("%s %s after %v: %v", method, rawURL, time.Since(start).Round(time.Millisecond), err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, time.Since(start)
}

// No number of unauthenticated connections keeps the owner out: with 600 of them held open,
// kept alive and dialled again as soon as they close, from 127.0.0.1, the owner's own address
// (everyone behind tailscale serve or ssh -L is one address), or 1200 spread over 600
// addresses of 127/8, a request with the API token on a fresh connection is answered 200
// within 4 s, and the page's own files still load. A person locked out waits for a flood's
// connection to time out (web.ReadHeaderTimeout, 5 s, at the least); a busy machine answers
// in 0.1–2.4 s (measured with the machine's load at 20–30, the times logged).
func TestWebUnauthenticatedFloodDoesNotLockTheOwnerOut(t *testing.T) {
	// Serial: it floods the server and bounds the owner's answers at four seconds, which tests running beside it would stretch.
	const ownerBound = 4 * time.Second // below web.ReadHeaderTimeout: a locked-out request waits for one
	for _, tc := range []struct {
		name     string
		n, addrs int
	}{{"600 from one address", 600, 0}, {"1200 from 600 addresses", 1200, 600}} {
		t.Run(tc.name, func(t *testing.T) {
			s := e2e.NewSandbox(t)
			w := e2e.StartWeb(t, s)
			u, err := url.Parse(w.Base)
			if err != nil {
				t.Fatal(err)
			}
			f := startFlood(t, u.Host, tc.n, tc.addrs)
			var worst time.Duration
			for i := range 5 {
				code, took := answeredWithin(t, "GET", w.Base+"api/sessions", w.Token)
				t.Logf("the owner's request %d beside %d unauthenticated connections (%d dialled so far): %d in %v",
					i+1, tc.n, f.dials.Load(), code, took.Round(time.Millisecond))
				if code != http.StatusOK || took > ownerBound {
					t.Fatalf("the owner's request %d under the flood: %d in %v, want 200 within %v", i+1, code, took, ownerBound)
				}
				worst = max(worst, took)
			}
			for _, path := range []string{"", "app.js"} {
				code, took := answeredWithin(t, "GET", w.Base+path, "")
				t.Logf("GET /%s, the page, under the flood: %d in %v", path, code, took.Round(time.Millisecond))
				if code != http.StatusOK || took > ownerBound {
					t.Fatalf("GET /%s under the flood: %d in %v, want 200 within %v", path, code, took, ownerBound)
				}
			}
			t.Logf("slowest owner's answer %v; the flood dialled %d connections and got %d answers",
				worst.Round(time.Millisecond), f.dials.Load(), f.answers.Load())
		})
	}
}

// wrongCredentialLines are hooksup.log's lines about wrong credentials.
func wrongCredentialLines(t *testing.T, s *e2e.Sandbox) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.StateDir(), "hooksup.log"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "wrong credential") {
			lines = append(lines, l)
		}
	}
	return lines
}

// A local user who picks among 127/8's addresses guesses pairing codes no faster: 2,000 wrong
// codes from 200 addresses draw on one budget, so most are 429, and hooksup.log gains a line
// or two, not one per address. The printed code still pairs right after, and the API token
// is still served.
func TestWebWrongPairingCodesAreLimitedOverAllAddresses(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	w := e2e.StartWeb(t, s)
	before := len(wrongCredentialLines(t, s))
	addrs := loopbackAddrs(200)
	key := w.Device(t).PublicKey()
	var mu sync.Mutex
	status := map[int]int{}
	var wg sync.WaitGroup
	for i, ip := range addrs {
		// A connection of its own for each guess: one that never brings a credential lives
		// at most web.UncredentialedLifetime, which ten guesses on a loaded machine outlast.
		client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
			DialContext:       (&net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}}).DialContext,
			DisableKeepAlives: true,
		}}
		wg.Go(func() {
			for j := range 10 {
				body := fmt.Sprintf(`{"code": "wrong-%d-%d", "key": "%s"}`, i, j, key)
				r, _ := http.NewRequest("POST", w.Base+"api/pair", strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Origin", strings.TrimSuffix(w.Base, "/"))
				resp, err := client.Do(r)
				if err != nil {
					t.Errorf("a wrong code from %s: %v", ip, err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				mu.Lock()
				status[resp.StatusCode]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.Logf("2000 wrong pairing codes from 200 addresses: %v", status)
	if status[http.StatusTooManyRequests] < 1500 || status[http.StatusUnauthorized]+status[http.StatusTooManyRequests] != 2000 {
		t.Fatalf("2000 wrong pairing codes from 200 addresses: %v, want most 429 and the rest 401", status)
	}
	lines := wrongCredentialLines(t, s)
	t.Logf("hooksup.log gained %d lines of wrong credentials", len(lines)-before)
	if len(lines)-before > 3 {
		t.Fatalf("hooksup.log gained %d lines on 2000 wrong codes from 200 addresses:\n%s", len(lines)-before, strings.Join(lines, "\n"))
	}
	if status, body, _ := w.Device(t).Pair(w.Code, ""); status != http.StatusOK {
		t.Fatalf("the printed code right after the wrong ones: %d %s", status, body)
	}
	if resp, body := w.Do(t, "GET", "/api/sessions", "", map[string]string{"Authorization": "Bearer " + w.Token}); resp.StatusCode != http.StatusOK {
		t.Fatalf("the API token right after the wrong codes: %d %s", resp.StatusCode, body)
	}
}

// A hooksup.log already past its bound is rotated when hooksup web writes to it: the old
// lines move to hooksup.log.1, and hooksup.log starts again.
func TestWebRotatesAFullLog(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	os.MkdirAll(s.StateDir(), 0o700)
	path := filepath.Join(s.StateDir(), "hooksup.log")
	old := strings.Repeat("time=2025-01-01T00:00:00Z level=INFO msg=\"an old line\"\n", 12<<20/56)
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	w := e2e.StartWeb(t, s)
	if resp, _ := w.Do(t, "GET", "/api/sessions", "", map[string]string{"Authorization": "Bearer wrong"}); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a wrong token: %d", resp.StatusCode)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	rotated, err := os.ReadFile(path + ".1")
	if err != nil || string(rotated) != old {
		t.Fatalf("hooksup.log.1 does not hold the old log (%d bytes, %v)", len(rotated), err)
	}
	if fi.Size() > 1<<20 || len(wrongCredentialLines(t, s)) != 1 {
		t.Fatalf("hooksup.log after rotation: %d bytes, %d lines of wrong credentials", fi.Size(), len(wrongCredentialLines(t, s)))
	}
}
