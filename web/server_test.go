package web

import (
	"bufio"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/webtest"
	"github.com/hooksup/hooksup/session"
)

const testToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// fakeHub is two sessions, the first with a question pending; it records every answer.
type fakeHub struct {
	mu         sync.Mutex
	live       []hub.Live
	resolved   []string
	resolveErr error
	events     chan hub.Event // the first session's
	remote     chan hub.Event // host devbox's first session's, when it is listed
	// hostsListed are the hosts that answers listed (ListHost), in order.
	hostsListed []string
	// streams are the sessions whose events were asked for (Events), in order; lists counts
	// the server's lists of every session.
	streams []string
	listed  int
}

func newFakeHub() *fakeHub {
	q := hub.Question{ID: 7, Event: "Stop", Proposal: "block", Source: "check:tests", Reason: "FAIL: TestX\nmore",
		Deadline: time.Now().Add(time.Minute)}
	return &fakeHub{events: make(chan hub.Event, 16), live: []hub.Live{
		{Entry: hub.Entry{ID: "h1"}, Snapshot: hub.Snapshot{ID: "h1", SessionID: "aaaaaaaa-1111", Agent: "claude", Cwd: "/src/one",
			State: "waiting", Pending: []hub.Question{q}}},
		{Entry: hub.Entry{ID: "h2"}, Snapshot: hub.Snapshot{ID: "h2", SessionID: "bbbbbbbb-2222", Agent: "codex", Cwd: "/src/two",
			State: "working", Pending: []hub.Question{}}},
	}}
}

func (f *fakeHub) List() ([]hub.Live, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.listed++
	return append([]hub.Live(nil), f.live...), nil
}

// ListHost is one host's sessions, and records which hosts an answer listed.
func (f *fakeHub) ListHost(host string) ([]hub.Live, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hostsListed = append(f.hostsListed, host)
	var out []hub.Live
	for _, l := range f.live {
		if l.Host == host {
			out = append(out, l)
		}
	}
	return out, nil
}

// Snapshot is the session as it was listed (the server asks none).
func (f *fakeHub) Snapshot(l hub.Live) (hub.Snapshot, error) { return l.Snapshot, nil }

func (f *fakeHub) Resolve(l hub.Live, id int, d hooks.Decision, reason string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.resolveErr != nil {
		return f.resolveErr
	}
	f.resolved = append(f.resolved, fmt.Sprintf("%s %d %s %q", hostID(l), id, d, reason))
	return nil
}

func (f *fakeHub) Interrupt(l hub.Live) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resolved = append(f.resolved, hostID(l)+" interrupt")
	return nil
}

// hostID is how the fake records a session: its id, HOST:ID on another host.
func hostID(l hub.Live) string {
	if l.Host == "" {
		return l.Entry.ID
	}
	return l.Host + ":" + l.Entry.ID
}

func (f *fakeHub) Events(l hub.Live, fn func(hub.Event) bool) error {
	f.mu.Lock()
	f.streams = append(f.streams, hostID(l))
	f.mu.Unlock()
	events := f.events
	if l.Host == "devbox" {
		events = f.remote
	}
	if l.Entry.ID != "h1" {
		select {}
	}
	for ev := range events {
		if !fn(ev) {
			return nil
		}
	}
	return nil
}

func (f *fakeHub) answers() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.resolved...)
}

func newTestServer(t *testing.T) (*httptest.Server, *fakeHub) {
	t.Helper()
	f := newFakeHub()
	ts, _ := newTestServerWith(t, f, Options{})
	return ts, f
}

// newTestServerWith serves f with o (its Hub, Token and Store filled in when unset).
func newTestServerWith(t *testing.T, f *fakeHub, o Options) (*httptest.Server, *Store) {
	t.Helper()
	o.Sessions, o.ListEvery = f, 50*time.Millisecond
	if o.Token == "" {
		o.Token = testToken
	}
	if o.Store == nil {
		o.Store = NewStore(t.TempDir())
	}
	s := New(o)
	ctx, cancel := context.WithCancel(context.Background())
	go s.Run(ctx)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { cancel(); ts.Close() })
	return ts, o.Store
}

type req struct {
	method, path, body string
	header             map[string]string
}

func do(t *testing.T, ts *httptest.Server, r req) (*http.Response, string) {
	t.Helper()
	hr, err := http.NewRequest(r.method, ts.URL+r.path, strings.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range r.header {
		hr.Header.Set(k, v)
	}
	c := ts.Client()
	c.Timeout = 5 * time.Second // a stream answered without the token would never end
	resp, err := c.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func auth(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }

// Every API request needs a Bearer credential: without, with a wrong one, or with a cookie
// (even one holding the right token), 401 and no data; the cookie's login is gone.
func TestAPINeedsTheToken(t *testing.T) {
	ts, f := newTestServer(t)
	for _, r := range []req{
		{method: "GET", path: "/api/sessions"},
		{method: "GET", path: "/api/sessions", header: auth("f" + testToken[1:])},
		{method: "GET", path: "/api/sessions", header: auth(testToken[:32])},
		{method: "GET", path: "/api/sessions", header: map[string]string{"Authorization": "Basic " + testToken}},
		{method: "GET", path: "/api/sessions", header: map[string]string{"Cookie": "hooksup=" + testToken}},
		{method: "GET", path: "/api/events", header: map[string]string{"Cookie": "hooksup=" + testToken}},
		{method: "POST", path: "/api/sessions/h1/approve", header: map[string]string{"Cookie": "hooksup=" + testToken, "X-Hooksup-Web": "1"}},
	} {
		resp, body := do(t, ts, r)
		if resp.StatusCode != http.StatusUnauthorized || strings.Contains(body, "/src/one") {
			t.Errorf("%s %s %v: %d %s, want 401 and no session", r.method, r.path, r.header, resp.StatusCode, body)
		}
	}
	if got := f.answers(); len(got) != 0 {
		t.Fatalf("answered without the token: %v", got)
	}
	if resp, body := do(t, ts, req{method: "POST", path: "/api/login", header: auth(testToken)}); resp.StatusCode == http.StatusOK || len(resp.Cookies()) > 0 {
		t.Fatalf("POST /api/login with the API token: %d %s %v, want no login and no cookie", resp.StatusCode, body, resp.Cookies())
	}
	resp, body := do(t, ts, req{method: "GET", path: "/api/sessions", header: auth(testToken)})
	var list []Session
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &list) != nil || len(list) != 2 || list[0].Pending[0].Reason != "FAIL: TestX\nmore" {
		t.Fatalf("with the token: %d %s", resp.StatusCode, body)
	}
}

// Wrong credentials are limited per client address: past the burst, that address's wrong ones
// are 429 with Retry-After, while the right token is served at once, from the same address.
// They are logged, one line per address per minute that counts them.
func TestFailedAttemptsAreLimitedPerAddressAndLogged(t *testing.T) {
	var log strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return log.Write(p)
	}), nil))
	ts, _ := newTestServerWith(t, newFakeHub(), Options{Logger: logger})
	for i := range failureBurst {
		if resp, _ := do(t, ts, req{method: "GET", path: "/api/sessions", header: auth(fmt.Sprint(i))}); resp.StatusCode != 401 {
			t.Fatalf("attempt %d: %d, want 401", i, resp.StatusCode)
		}
	}
	for range 200 {
		resp, _ := do(t, ts, req{method: "GET", path: "/api/sessions", header: auth("again")})
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("after %d failures: %d (Retry-After %q), want 429", failureBurst, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
	if resp, body := do(t, ts, req{method: "GET", path: "/api/sessions", header: auth(testToken)}); resp.StatusCode != http.StatusOK {
		t.Fatalf("the right token while this address is limited: %d %s, want 200", resp.StatusCode, body)
	}
	mu.Lock()
	defer mu.Unlock()
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "wrong credentials") || !strings.Contains(lines[0], "remote=127.0.0.1") {
		t.Fatalf("the log of %d failures:\n%s", failureBurst+200, log.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// Another address's failures do not limit this one's.
func TestFailuresAreCountedPerAddress(t *testing.T) {
	f := newFailures(slog.New(slog.DiscardHandler))
	for range failureBurst {
		if wait := f.failed("192.0.2.1", "token", "/"); wait != 0 {
			t.Fatalf("limited within the burst: %v", wait)
		}
	}
	if wait := f.failed("192.0.2.1", "token", "/"); wait == 0 {
		t.Fatal("not limited past the burst")
	}
	if wait := f.failed("192.0.2.2", "token", "/"); wait != 0 {
		t.Fatalf("another address limited: %v", wait)
	}
}

// Wrong pairing codes draw on one budget whatever their address: 10 from 10 addresses spend
// it, and the next, from an eleventh, is limited; wrong tokens from that address are not.
func TestWrongPairingCodesAreLimitedOverAllAddresses(t *testing.T) {
	f := newFailures(slog.New(slog.DiscardHandler))
	for i := range failureBurst {
		if wait := f.failed(fmt.Sprintf("127.0.0.%d", i+2), wrongCode, "/api/pair"); wait != 0 {
			t.Fatalf("a wrong code within the burst limited: %v", wait)
		}
	}
	if wait := f.failed("127.9.9.9", wrongCode, "/api/pair"); wait == 0 {
		t.Fatal("a wrong code from a new address past the burst: not limited")
	}
	if wait := f.failed("127.9.9.9", wrongToken, "/api/sessions"); wait != 0 {
		t.Fatalf("a wrong token from that address limited: %v", wait)
	}
}

// Wrong credentials from any number of addresses make one line at once and then one line a
// logEvery in all, which counts them and their addresses.
func TestWrongCredentialsAreLoggedAtARateInAll(t *testing.T) {
	lines := make(chan string, 2000) // room for a line per failure: a test that fails does not hang
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		lines <- string(p)
		return len(p), nil
	}), nil))
	f := newFailures(logger)
	f.log.every = 200 * time.Millisecond
	for i := range 1000 {
		what := wrongToken
		if i%2 == 0 {
			what = wrongCode
		}
		f.failed(fmt.Sprintf("127.0.%d.%d", i/250, i%250+1), what, "/api/pair")
	}
	first := <-lines
	if !strings.Contains(first, "wrong credentials") || !strings.Contains(first, "remote=127.0.0.1 ") {
		t.Fatalf("the first line: %s", first)
	}
	select {
	case l := <-lines:
		if !strings.Contains(l, "tokens=500") || !strings.Contains(l, "pairing_codes=499") || !strings.Contains(l, "addresses=999") {
			t.Fatalf("the line after logEvery: %s", l)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no line counting the failures after the first")
	}
	if len(lines) > 0 {
		t.Fatalf("more lines: %s", <-lines)
	}
}

// A write from another origin is refused, whatever its credentials; nothing is answered, and
// no pairing code is taken.
func TestCrossOriginWritesAreRefused(t *testing.T) {
	ts, f := newTestServer(t)
	for _, h := range []map[string]string{
		{"Authorization": "Bearer " + testToken, "Origin": "http://evil.example"},
		{"Authorization": "Bearer " + testToken, "Origin": "null"},
		{"Authorization": "Bearer " + testToken, "Sec-Fetch-Site": "cross-site"},
		{"Authorization": "Bearer " + testToken, "Sec-Fetch-Site": "same-site"},
	} {
		resp, body := do(t, ts, req{method: "POST", path: "/api/sessions/h1/approve", header: h})
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%v: %d %s, want 403", h, resp.StatusCode, body)
		}
	}
	if resp, _ := do(t, ts, req{method: "POST", path: "/api/pair", body: `{"code": "x"}`, header: map[string]string{"Origin": "http://evil.example"}}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin pairing: %d, want 403", resp.StatusCode)
	}
	if got := f.answers(); len(got) != 0 {
		t.Fatalf("a cross-origin write was answered: %v", got)
	}
	// The same origin is fine.
	resp, body := do(t, ts, req{method: "POST", path: "/api/sessions/h1/approve",
		header: map[string]string{"Authorization": "Bearer " + testToken, "Origin": ts.URL, "Sec-Fetch-Site": "same-origin"}})
	if resp.StatusCode != 200 {
		t.Fatalf("same-origin approve: %d %s", resp.StatusCode, body)
	}
}

// A pairing code is traded once for a device key's pairing, whose login reads the API until
// the device is revoked; a used, expired or wrong code pairs nothing. The files keep public
// keys and hashes only, 0600.
func TestPairingTradesACodeOnceForADeviceKey(t *testing.T) {
	f := newFakeHub()
	ts, store := newTestServerWith(t, f, Options{})
	code, _, err := store.NewPairingCode(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	dev := newDevice(t, ts)
	if status, body, err := dev.Pair(code, ""); err != nil || status != 200 || dev.ID == "" || dev.Name != "Chrome on Linux" {
		t.Fatalf("pairing: %d %s %v", status, body, err)
	}
	other := newDevice(t, ts)
	if status, body, _ := other.Pair(code, ""); status != http.StatusUnauthorized || other.ID != "" {
		t.Fatalf("the same code again: %d %s", status, body)
	}
	if status, body, _ := dev.Login(); status != 200 || len(dev.Token) != 64 {
		t.Fatalf("login: %d %s", status, body)
	}
	if resp, body := do(t, ts, req{method: "GET", path: "/api/sessions", header: auth(dev.Token)}); resp.StatusCode != 200 {
		t.Fatalf("the device's login: %d %s", resp.StatusCode, body)
	}
	old, _, _ := store.NewPairingCode(time.Now().Add(-PairingTTL - time.Second))
	if status, body, _ := other.Pair(old, ""); status != http.StatusUnauthorized {
		t.Fatalf("an expired code: %d %s", status, body)
	}
	for _, name := range []string{DevicesFile, PairingFile} {
		path := filepath.Join(store.dir, name)
		b, err := os.ReadFile(path)
		fi, _ := os.Stat(path)
		if err != nil || strings.Contains(string(b), dev.Token) || strings.Contains(string(b), code) || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s (%v, %v): %s", name, fi.Mode(), err, b)
		}
	}
	ds, err := store.Devices()
	if err != nil || len(ds) != 1 || ds[0].ID != dev.ID || ds[0].Key != dev.PublicKey() || ds[0].Origin != dev.Origin {
		t.Fatalf("devices: %+v %v", ds, err)
	}
	if _, err := store.Revoke(dev.ID); err != nil {
		t.Fatal(err)
	}
	if resp, _ := do(t, ts, req{method: "GET", path: "/api/sessions", header: auth(dev.Token)}); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a revoked device's login token: %d", resp.StatusCode)
	}
	if status, body, _ := dev.Login(); status != http.StatusUnauthorized {
		t.Fatalf("a revoked device logs in: %d %s", status, body)
	}
	if _, err := store.Revoke("nope"); err == nil {
		t.Fatal("revoked a device that does not exist")
	}
	// A pairing without a key, with a key that is none, or without the Origin a browser sends
	// pairs nothing.
	code, _, _ = store.NewPairingCode(time.Now())
	for _, c := range []struct{ body, origin string }{
		{`{"code": "` + code + `"}`, ts.URL},
		{`{"code": "` + code + `", "key": "AAAA"}`, ts.URL},
		{`{"code": "` + code + `", "key": "` + other.PublicKey() + `"}`, ""},
	} {
		h := map[string]string{}
		if c.origin != "" {
			h["Origin"] = c.origin
		}
		if resp, body := do(t, ts, req{method: "POST", path: "/api/pair", body: c.body, header: h}); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("pairing %s (Origin %q): %d %s, want 400", c.body, c.origin, resp.StatusCode, body)
		}
	}
	if status, body, _ := other.Pair(code, ""); status != 200 {
		t.Fatalf("the code after refused pairings: %d %s", status, body)
	}
}

func newDevice(t *testing.T, ts *httptest.Server) *webtest.Device {
	t.Helper()
	d, err := webtest.NewDevice(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// pairedDevice is a device paired with s's store and logged in.
func pairedDevice(t *testing.T, ts *httptest.Server, store *Store) *webtest.Device {
	t.Helper()
	code, _, err := store.NewPairingCode(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	d := newDevice(t, ts)
	if status, body, err := d.Pair(code, ""); status != 200 {
		t.Fatalf("pairing: %d %s %v", status, body, err)
	}
	if status, body, err := d.Login(); status != 200 {
		t.Fatalf("login: %d %s %v", status, body, err)
	}
	return d
}

// A login is a signature of a challenge this server process issued, once, for the origin the
// device was paired on, at the address it was paired with: a replayed login, a challenge of
// another process's, another origin's signature, another server's address, and a login token
// of a process that ended all log in to nothing.
func TestLoginIsBoundToTheChallengeTheOriginAndTheServer(t *testing.T) {
	f := newFakeHub()
	dir := t.TempDir()
	ts, store := newTestServerWith(t, f, Options{Store: NewStore(dir), Listen: "127.0.0.1:7862"})
	dev := pairedDevice(t, ts, store)
	login := func(d *webtest.Device, b webtest.LoginBody) int {
		t.Helper()
		status, _, err := d.Post("/api/login", b)
		if err != nil {
			t.Fatal(err)
		}
		return status
	}
	c, err := dev.Challenge()
	if err != nil {
		t.Fatal(err)
	}
	body := webtest.LoginBody{Device: dev.ID, Challenge: c, Signature: dev.Sign(dev.Origin, c)}
	if status := login(dev, body); status != 200 {
		t.Fatalf("a login: %d", status)
	}
	if status := login(dev, body); status != http.StatusUnauthorized {
		t.Fatalf("the same login again (its challenge spent): %d", status)
	}
	c, _ = dev.Challenge()
	if status := login(dev, webtest.LoginBody{Device: dev.ID, Challenge: c, Signature: dev.Sign("http://127.0.0.1:9000", c)}); status != http.StatusUnauthorized {
		t.Fatalf("a signature for another origin: %d", status)
	}
	c, _ = dev.Challenge()
	elsewhere := *dev
	elsewhere.Host = "localhost:" + ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	elsewhere.Origin = "http://" + elsewhere.Host
	if status := login(&elsewhere, webtest.LoginBody{Device: dev.ID, Challenge: c, Signature: dev.Sign(elsewhere.Origin, c)}); status != http.StatusUnauthorized {
		t.Fatalf("a login from an origin the device was not paired on: %d", status)
	}
	c, _ = dev.Challenge()
	if status := login(dev, webtest.LoginBody{Device: dev.ID, Challenge: c, Signature: dev.Sign(dev.Origin, c+"0")}); status != http.StatusUnauthorized {
		t.Fatalf("a signature of another challenge: %d", status)
	}
	if status := login(dev, webtest.LoginBody{Device: dev.ID, Challenge: "00" + c[2:], Signature: dev.Sign(dev.Origin, "00"+c[2:])}); status != http.StatusUnauthorized {
		t.Fatalf("a challenge the server never issued: %d", status)
	}
	token := dev.Token

	// Another server process, with the same devices: the first one's login tokens and
	// challenges are nothing to it; at the same address the device logs in again, at another
	// it does not.
	ts2, _ := newTestServerWith(t, f, Options{Store: NewStore(dir), Listen: "127.0.0.1:7862"})
	// (httptest's servers are on other ports: the request names the first one's, as the page
	// does at a server restarted at its address.)
	dev2 := *dev
	dev2.Base, dev2.Token, dev2.Host = ts2.URL+"/", "", strings.TrimPrefix(ts.URL, "http://")
	if resp, _ := do(t, ts2, req{method: "GET", path: "/api/sessions", header: auth(token)}); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("another process takes the first one's login token: %d", resp.StatusCode)
	}
	c, _ = dev.Challenge() // the first process's
	if status := login(&dev2, webtest.LoginBody{Device: dev.ID, Challenge: c, Signature: dev.Sign(dev.Origin, c)}); status != http.StatusUnauthorized {
		t.Fatalf("another process takes the first one's challenge: %d", status)
	}
	if status, body, _ := dev2.Login(); status != 200 {
		t.Fatalf("the device at a new process at its address: %d %s", status, body)
	}
	ts3, _ := newTestServerWith(t, f, Options{Store: NewStore(dir), Listen: "127.0.0.1:9000"})
	dev3 := *dev
	dev3.Base, dev3.Token, dev3.Host = ts3.URL+"/", "", strings.TrimPrefix(ts.URL, "http://")
	if status, body, _ := dev3.Login(); status != http.StatusUnauthorized {
		t.Fatalf("the device at a server at another address: %d %s", status, body)
	}
}

// Pairing a browser again replaces its key: the old key and its login log in no more, the
// device keeps its id, and web devices lists it once.
func TestPairingAgainReplacesTheKey(t *testing.T) {
	ts, store := newTestServerWith(t, newFakeHub(), Options{})
	dev := pairedDevice(t, ts, store)
	old := *dev
	code, _, _ := store.NewPairingCode(time.Now())
	again := newDevice(t, ts)
	if status, body, _ := again.Pair(code, dev.ID); status != 200 || again.ID != dev.ID {
		t.Fatalf("pairing again: %d %s (id %s, was %s)", status, body, again.ID, dev.ID)
	}
	if resp, _ := do(t, ts, req{method: "GET", path: "/api/sessions", header: auth(old.Token)}); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the old key's login token: %d", resp.StatusCode)
	}
	if status, _, _ := old.Login(); status != http.StatusUnauthorized {
		t.Fatalf("the old key logs in: %d", status)
	}
	if status, body, _ := again.Login(); status != 200 {
		t.Fatalf("the new key: %d %s", status, body)
	}
	if ds, _ := store.Devices(); len(ds) != 1 {
		t.Fatalf("devices after pairing again: %+v", ds)
	}
}

// Whatever another holder of the address left is undone: a service worker's script, at any
// path, is the worker that removes itself; the page clears the browser's cache of the origin
// and names its script's and style's integrity.
func TestTheServerUndoesWhatASquatterLeft(t *testing.T) {
	ts, _ := newTestServer(t)
	for _, path := range []string{"/sw.js", "/evil/worker.js", "/api/sessions"} {
		resp, body := do(t, ts, req{method: "GET", path: path, header: map[string]string{"Service-Worker": "script"}})
		if resp.StatusCode != 200 || !strings.Contains(body, "self.registration.unregister()") ||
			!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") {
			t.Errorf("GET %s as a worker's script: %d %s %s", path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	resp, page := do(t, ts, req{method: "GET", path: "/"})
	if resp.Header.Get("Clear-Site-Data") != `"cache"` {
		t.Errorf("the page's Clear-Site-Data: %q", resp.Header.Get("Clear-Site-Data"))
	}
	// Only a load of the page in a window is served a challenge to log in with; a script's
	// fetch of the page (a page another holder of the address left open) is not.
	meta := regexp.MustCompile(`<meta name="hooksup-challenge" content="([0-9a-f]*)">`)
	for _, c := range []struct {
		mode, dest string
		served     bool
	}{{"navigate", "document", true}, {"", "", true}, {"cors", "empty", false}, {"same-origin", "empty", false},
		{"no-cors", "empty", false}, {"navigate", "iframe", false}} {
		resp, page := do(t, ts, req{method: "GET", path: "/", header: map[string]string{"Sec-Fetch-Mode": c.mode, "Sec-Fetch-Dest": c.dest}})
		m := meta.FindStringSubmatch(page)
		if resp.StatusCode != 200 || m == nil || (m[1] != "") != c.served || (c.served && len(m[1]) != 2*challengeBytes) {
			t.Errorf("GET / as mode %q dest %q: %d, challenge %q, want one: %v", c.mode, c.dest, resp.StatusCode, m, c.served)
		}
	}
	for _, name := range []string{"app.js", "app.css"} {
		b, _ := static.ReadFile("static/" + name)
		sum := sha512.Sum384(b)
		want := `"/` + name + `" integrity="sha384-` + base64.StdEncoding.EncodeToString(sum[:]) + `"`
		if !strings.Contains(page, want) {
			t.Errorf("the page does not name %s's integrity (%s):\n%s", name, want, page)
		}
	}
}

// Only loopback's names and the hosts the server was told of are answered; any other Host is
// 421 naming --allow-host, the page and the API alike.
func TestForeignHostsAreMisdirected(t *testing.T) {
	ts, _ := newTestServerWith(t, newFakeHub(), Options{AllowHosts: []string{"Box.Tailnet.ts.net", "devbox"}})
	for host, want := range map[string]int{
		"evil.example": 421, "evil.example:80": 421, "127.0.0.1.nip.io": 421, "localhost.evil.example": 421, "devbox.evil": 421,
		"127.0.0.1": 200, "localhost:1": 200, "[::1]:8": 200, "LOCALHOST.": 200, "box.tailnet.ts.net": 200, "devbox:7862": 200,
	} {
		for _, path := range []string{"/", "/api/sessions"} {
			r, _ := http.NewRequest("GET", ts.URL+path, nil)
			r.Host = host
			r.Header.Set("Authorization", "Bearer "+testToken)
			resp, err := ts.Client().Do(r)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want || (want == 421 && !strings.Contains(string(b), "--allow-host")) {
				t.Errorf("Host %s, GET %s: %d %s, want %d", host, path, resp.StatusCode, b, want)
			}
		}
	}
}

// The names a device is given, from a fixed vocabulary.
func TestDeviceName(t *testing.T) {
	for ua, want := range map[string]string{
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36":         "Chrome on Linux",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15": "Safari on macOS",
		"Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36":              "Chrome on Android",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0":                                      "Firefox on Windows",
		"Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0":             "Edge on Windows",
		"\x1b]0;evil\x07": "a browser",
		"curl/8.5.0":      "curl",
	} {
		if got := DeviceName(ua); got != want {
			t.Errorf("DeviceName(%q) = %q, want %q", ua, got, want)
		}
	}
}

// Every response says: no inline script, no other origin, not in a frame, no sniffing, no Referer.
func TestSecurityHeaders(t *testing.T) {
	ts, _ := newTestServer(t)
	for _, r := range []req{{method: "GET", path: "/"}, {method: "GET", path: "/api/sessions"}, {method: "GET", path: "/api/sessions", header: auth(testToken)}} {
		resp, _ := do(t, ts, r)
		h := resp.Header
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", r.path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe") || strings.Contains(csp, "http") || strings.Contains(csp, "*") {
			t.Errorf("%s: CSP %q allows inline code or another origin", r.path, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: headers %v", r.path, h)
		}
	}
}

// Bad input is a clear JSON error, and nothing is answered by mistake.
func TestBadActionsAnswerNothing(t *testing.T) {
	ts, f := newTestServer(t)
	for _, c := range []struct {
		path, body string
		status     int
		says       string
	}{
		{"/api/sessions/h1/approve", `{"reason": `, 400, "not {"},
		{"/api/sessions/h1/approve", `{"reasons": "x"}`, 400, "unknown field"},
		{"/api/sessions/h1/approve", `["x"]`, 400, "not {"},
		{"/api/sessions/h1/approve", `{"reason": "a"} {"reason": "b"}`, 400, "one JSON object"},
		{"/api/sessions/h1/approve", `{"reason": "` + strings.Repeat("x", maxBody) + `"}`, 413, "over"},
		{"/api/sessions/h1/deny", `{"reason": "no"}`, 400, "deny takes no reason"},
		{"/api/sessions/h1/launch", ``, 404, "unknown action"},
		{"/api/sessions/nope/approve", ``, 404, `no session "nope"`},
		{"/api/sessions/h2/approve", ``, 409, "session bbbbbbbb (/src/two) has no pending question"},
	} {
		resp, body := do(t, ts, req{method: "POST", path: c.path, body: c.body, header: auth(testToken)})
		var e apiError
		if resp.StatusCode != c.status || json.Unmarshal([]byte(body), &e) != nil || !strings.Contains(e.Error, c.says) || e.Code == "" {
			t.Errorf("POST %s %.40q: %d %s, want %d saying %q", c.path, c.body, resp.StatusCode, body, c.status, c.says)
		}
	}
	if got := f.answers(); len(got) != 0 {
		t.Fatalf("bad requests answered: %v", got)
	}
	f.resolveErr = fmt.Errorf("%w: question 7", hub.ErrAnswered)
	resp, body := do(t, ts, req{method: "POST", path: "/api/sessions/aaaaaaaa-1111/halt", header: auth(testToken)})
	if resp.StatusCode != 409 || !strings.Contains(body, "the question in session aaaaaaaa (/src/one) was already answered") {
		t.Fatalf("an answered question: %d %s", resp.StatusCode, body)
	}
	if resp, body := do(t, ts, req{method: "GET", path: "/api/sessions", header: auth(testToken)}); resp.StatusCode != 200 {
		t.Fatalf("the server after bad input: %d %s", resp.StatusCode, body)
	}
}

// approve, deny and halt answer the oldest pending question with the CLI's decisions and say
// what they did as the CLI does; approve's reason is the edit; interrupt is Escape.
func TestActionsAnswerTheOldestQuestion(t *testing.T) {
	ts, f := newTestServer(t)
	for _, c := range []struct{ path, body, says string }{
		{"/api/sessions/aaaaaaaa-1111/approve", `{"reason": "edited\nreason"}`, "approve: the agent continues after Stop in session aaaaaaaa (/src/one): edited"},
		{"/api/sessions/h1/approve", ``, "approve: the agent continues after Stop in session aaaaaaaa (/src/one): FAIL: TestX"},
		{"/api/sessions/h1/deny", `{}`, "deny: the agent may stop at Stop in session aaaaaaaa (/src/one)"},
		{"/api/sessions/h1/halt", `{"reason": "enough"}`, "halt: the turn ends at Stop in session aaaaaaaa (/src/one): enough"},
		{"/api/sessions/bbbbbbbb-2222/interrupt", ``, "interrupt"},
	} {
		resp, body := do(t, ts, req{method: "POST", path: c.path, body: c.body, header: auth(testToken)})
		var r actionResult
		if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &r) != nil || !strings.HasPrefix(r.Message, c.says) {
			t.Errorf("POST %s: %d %s, want %q", c.path, resp.StatusCode, body, c.says)
		}
	}
	want := []string{`h1 7 block "edited\nreason"`, `h1 7 block ""`, `h1 7 allow ""`, `h1 7 halt "enough"`, "h2 interrupt"}
	if got := f.answers(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("answers %q, want %q", got, want)
	}
}

// An answer carries the question the person saw: one for a question no longer pending is 409
// with the session's current question, and answers nothing.
func TestAnAnswerToAStaleQuestionIsRefused(t *testing.T) {
	ts, f := newTestServer(t)
	resp, body := do(t, ts, req{method: "POST", path: "/api/sessions/h1/approve", body: `{"question": 6}`, header: auth(testToken)})
	var e staleError
	if resp.StatusCode != http.StatusConflict || json.Unmarshal([]byte(body), &e) != nil || e.Code != "stale" ||
		e.Current == nil || e.Current.ID != 7 || e.Current.Reason != "FAIL: TestX\nmore" {
		t.Fatalf("an answer to question 6 while 7 is pending: %d %s", resp.StatusCode, body)
	}
	if got := f.answers(); len(got) != 0 {
		t.Fatalf("a stale answer was given: %q", got)
	}
	resp, body = do(t, ts, req{method: "POST", path: "/api/sessions/h1/deny", body: `{"question": 7}`, header: auth(testToken)})
	if resp.StatusCode != 200 {
		t.Fatalf("the answer to the question pending: %d %s", resp.StatusCode, body)
	}
	f.resolveErr = hub.ErrAnswered // answered elsewhere between the list and the answer
	resp, body = do(t, ts, req{method: "POST", path: "/api/sessions/h1/approve", body: `{"question": 7}`, header: auth(testToken)})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, `"code":"stale"`) {
		t.Fatalf("an answer to a question answered meanwhile: %d %s", resp.StatusCode, body)
	}
	// A session with no question: the stale answer says so.
	resp, body = do(t, ts, req{method: "POST", path: "/api/sessions/h2/approve", body: `{"question": 7}`, header: auth(testToken)})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, `"current":null`) {
		t.Fatalf("an answer where nothing is pending: %d %s", resp.StatusCode, body)
	}
}

// withHosts adds another machine's sessions to the fake: on devbox, a session with the same id
// as this machine's first (one machine reached under two names, or two machines that happened
// on one id) and a question of its own; gpu-1 is a host that dropped, listed as its card.
func withHosts(f *fakeHub) {
	q := hub.Question{ID: 3, Event: "Stop", Proposal: "block", Source: "check:lint", Reason: "LINT: remote", Deadline: time.Now().Add(time.Minute)}
	f.remote = make(chan hub.Event, 16)
	f.live = append(f.live,
		hub.Live{Host: "devbox", Entry: hub.Entry{ID: "h1"}, Snapshot: hub.Snapshot{ID: "h1", SessionID: "cccccccc-3333", Agent: "claude",
			Cwd: "/home/me/far", State: "waiting", Pending: []hub.Question{q}}},
		hub.Live{Host: "gpu-1", Entry: hub.Entry{ID: "host gpu-1"}, Snapshot: hub.Snapshot{ID: "host gpu-1", Pending: []hub.Question{}},
			Err: errors.New("disconnected: ssh: connect to host gpu-1 port 22: Connection refused; trying again in 4s")})
}

func newHostsTestServer(t *testing.T) (*httptest.Server, *fakeHub) {
	t.Helper()
	f := newFakeHub()
	withHosts(f)
	s := New(Options{Sessions: f, Token: testToken, ListEvery: 50 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	go s.Run(ctx)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { cancel(); ts.Close() })
	return ts, f
}

// GET /api/sessions names each session's host, and a host that dropped is an entry of its own
// saying why; an action reaches another host's session with ?host=, this machine's without,
// though both have one id.
func TestRemoteSessionsAreListedAndAnswered(t *testing.T) {
	ts, f := newHostsTestServer(t)
	resp, body := do(t, ts, req{method: "GET", path: "/api/sessions", header: auth(testToken)})
	var list []Session
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &list) != nil {
		t.Fatalf("GET /api/sessions: %d %s", resp.StatusCode, body)
	}
	var got []string
	for _, s := range list {
		got = append(got, fmt.Sprintf("%s|%s|%s|%d|%s", s.Host, s.ID, s.Cwd, len(s.Pending), s.Error))
	}
	want := []string{"|h1|/src/one|1|", "|h2|/src/two|0|", "devbox|h1|/home/me/far|1|",
		"gpu-1|host gpu-1||0|disconnected: ssh: connect to host gpu-1 port 22: Connection refused; trying again in 4s"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("sessions\n%q\nwant\n%q", got, want)
	}
	for _, c := range []struct {
		path   string
		status int
		says   string
	}{
		{"/api/sessions/h1/approve?host=devbox", 200, "approve: the agent continues after Stop in session devbox:cccccccc (/home/me/far): LINT: remote"},
		{"/api/sessions/cccccccc-3333/deny?host=devbox", 200, "deny: the agent may stop at Stop in session devbox:cccccccc (/home/me/far)"},
		{"/api/sessions/h1/approve", 200, "approve: the agent continues after Stop in session aaaaaaaa (/src/one): FAIL: TestX"},
		{"/api/sessions/h1/interrupt?host=devbox", 200, "interrupt: sent Escape to session devbox:cccccccc"},
		{"/api/sessions/cccccccc-3333/approve", 404, `no session "cccccccc-3333" (it may have ended)`},
		{"/api/sessions/h1/approve?host=nowhere", 404, `no session "h1" on nowhere (it may have ended)`},
		{"/api/sessions/host%20gpu-1/approve?host=gpu-1", 502, "disconnected: ssh: connect to host gpu-1"},
	} {
		resp, body := do(t, ts, req{method: "POST", path: c.path, header: auth(testToken)})
		var said struct{ Message, Error string }
		_ = json.Unmarshal([]byte(body), &said)
		if resp.StatusCode != c.status || !strings.Contains(said.Message+said.Error, c.says) {
			t.Errorf("POST %s: %d %s, want %d %q", c.path, resp.StatusCode, body, c.status, c.says)
		}
	}
	want = []string{`devbox:h1 3 block ""`, `devbox:h1 3 allow ""`, `h1 7 block ""`, "devbox:h1 interrupt"}
	if got := f.answers(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("answers %q, want %q", got, want)
	}
	// Each answer listed its own host only: one down host never holds up another's answer.
	f.mu.Lock()
	listed := f.hostsListed
	f.mu.Unlock()
	if got, want := strings.Join(listed, ","), "devbox,devbox,,devbox,,nowhere,gpu-1"; got != want {
		t.Fatalf("the answers listed hosts %q, want each its own: %q", got, want)
	}
}

// GET /api/events streams the sessions' events as Server-Sent Events, with the session's id.
func TestEventsStream(t *testing.T) {
	ts, f := newTestServer(t)
	hr, _ := http.NewRequest("GET", ts.URL+"/api/events", nil)
	hr.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := ts.Client().Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d %v", resp.StatusCode, resp.Header)
	}
	// A session of a hooksup from before the wire's keys were snake_case: the page reads them
	// snake_case all the same.
	f.events <- hub.Event{Type: hub.EventQuestionAsked, Time: time.Now(), Data: json.RawMessage(`{"Question":{"ID":8,"AgentID":"a1"}}`)}
	events := readEvents(t, resp.Body)
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("the stream ended")
			}
			if ev.Type == hub.EventQuestionAsked {
				if ev.Session != "h1" || askedOf(ev.Data) != "8 a1" || !strings.Contains(string(ev.Data), `"question":{"id":8,`) {
					t.Fatalf("event %+v", ev)
				}
				return
			}
		case <-timeout:
			t.Fatal("no QuestionAsked on the stream")
		}
	}
}

// askedOf is a QuestionAsked event's question on the page's stream, as "ID AGENT_ID", read
// with the stream's snake_case keys alone.
func askedOf(data []byte) string {
	var ev struct {
		Question *struct {
			ID      *int    `json:"id"`
			AgentID *string `json:"agent_id"`
		} `json:"question"`
	}
	if json.Unmarshal(data, &ev) != nil || ev.Question == nil || ev.Question.ID == nil || ev.Question.AgentID == nil {
		return "(" + string(data) + ")"
	}
	return fmt.Sprint(*ev.Question.ID, " ", *ev.Question.AgentID)
}

// readEvents reads an event stream's events, and closes the channel when the stream ends.
func readEvents(t *testing.T, body io.Reader) <-chan pageEvent {
	events := make(chan pageEvent)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(body)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var ev pageEvent
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				t.Errorf("%v: %s", err, data)
				return
			}
			events <- ev
		}
	}()
	return events
}

// The token: 256 random bits in hex, 0600 in the state dir, the same until renewed.
func TestLoadToken(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	a, err := LoadToken(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 64 || strings.Trim(a, "0123456789abcdef") != "" {
		t.Fatalf("token %q", a)
	}
	fi, err := os.Stat(filepath.Join(dir, TokenFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", fi, err)
	}
	if b, _ := LoadToken(dir, false); b != a {
		t.Fatalf("restart: %q, want %q", b, a)
	}
	if c, _ := LoadToken(dir, true); c == a || len(c) != 64 {
		t.Fatalf("renewed: %q (was %q)", c, a)
	}
	// A file others may read is refused, named with the fix, and left as it is; so is a symlink.
	path := filepath.Join(dir, TokenFile)
	os.Chmod(path, 0o644)
	for _, renew := range []bool{false, true} {
		_, err := LoadToken(dir, renew)
		if _, ok := errors.AsType[*UnsafeFileError](err); !ok || !strings.Contains(err.Error(), "chmod 600 "+path) {
			t.Fatalf("a 0644 token file (renew %v): %v", renew, err)
		}
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Fatalf("the token file was changed to %v", fi.Mode())
	}
	os.Remove(path)
	target := filepath.Join(t.TempDir(), "elsewhere")
	os.WriteFile(target, []byte(a+"\n"), 0o600)
	os.Symlink(target, path)
	if _, err := LoadToken(dir, false); err == nil || !strings.Contains(err.Error(), path+" is a symlink") {
		t.Fatalf("a symlinked token file: %v", err)
	}
	if err := NewStore(dir).Check(); err == nil {
		t.Fatal("Check passed a symlinked token file")
	}
}

// Listening beyond loopback needs TLS or the plain-HTTP flag.
func TestCheckListen(t *testing.T) {
	for _, c := range []struct {
		addr       string
		tls, plain bool
		ok         bool
	}{
		{"127.0.0.1:7862", false, false, true},
		{"localhost:7862", false, false, true},
		{"[::1]:7862", false, false, true},
		{":7862", false, false, false},
		{"0.0.0.0:7862", false, false, false},
		{"100.64.1.2:7862", false, false, false},
		{"100.64.1.2:7862", true, false, true},
		{"100.64.1.2:7862", false, true, true},
		{"example.com:7862", false, false, false},
	} {
		err := CheckListen(c.addr, c.tls, c.plain)
		if (err == nil) != c.ok {
			t.Errorf("CheckListen(%q, tls %v, plain %v) = %v, want ok %v", c.addr, c.tls, c.plain, err, c.ok)
		}
	}
	if err := CheckListen(":7862", false, false); err == nil || !strings.Contains(err.Error(), "--tls-cert") || !strings.Contains(err.Error(), "--"+PlainHTTPFlag) {
		t.Fatalf("the refusal names neither flag: %v", err)
	}
}

// GET /api/events carries another host's sessions' events with their host, apart from this
// machine's session of the same id.
func TestRemoteEventsNameTheirHost(t *testing.T) {
	ts, f := newHostsTestServer(t)
	hr, _ := http.NewRequest("GET", ts.URL+"/api/events", nil)
	hr.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := ts.Client().Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	f.remote <- hub.Event{Type: hub.EventQuestionAsked, Time: time.Now(), Data: json.RawMessage(`{"question":{"id":4,"agent_id":""}}`)}
	f.events <- hub.Event{Type: hub.EventQuestionAsked, Time: time.Now(), Data: json.RawMessage(`{"question":{"id":8,"agent_id":""}}`)}
	events := readEvents(t, resp.Body)
	asked := map[string]string{}
	timeout := time.After(10 * time.Second)
	for len(asked) < 2 {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("the stream ended")
			}
			if ev.Type == hub.EventQuestionAsked {
				asked[ev.Host+"|"+ev.Session] = askedOf(ev.Data)
			}
		case <-timeout:
			t.Fatalf("QuestionAsked on the stream: %q, want one from each host", asked)
		}
	}
	want := map[string]string{"devbox|h1": "4 ", "|h1": "8 "}
	if fmt.Sprint(asked) != fmt.Sprint(want) {
		t.Fatalf("QuestionAsked %q, want %q", asked, want)
	}
}

// A session missing from one list (its snapshot was late, its host down) keeps its one event
// stream: listed again, it is not streamed a second time, so the page gets each event once.
func TestASessionMissingFromAListIsStreamedOnce(t *testing.T) {
	_, f := newTestServer(t)
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			f.mu.Lock()
			done := ok()
			f.mu.Unlock()
			if done {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("h1's stream", func() bool { return slices.Contains(f.streams, "h1") })
	f.mu.Lock()
	all, listed := f.live, f.listed
	f.live = f.live[1:] // h1's snapshot is late: not in the next lists
	f.mu.Unlock()
	waitFor("two lists without h1", func() bool { return f.listed >= listed+2 })
	f.mu.Lock()
	f.live, listed = all, f.listed
	f.mu.Unlock()
	waitFor("two lists with h1 again", func() bool { return f.listed >= listed+2 })
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, id := range f.streams {
		if id == "h1" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("h1's events were asked for %d times: %q", n, f.streams)
	}
}

// A permission's deny carries a reason only where the agent reads one (its question's
// deny_reason): elsewhere it is refused, 400, and nothing is answered; an allow takes none.
func TestAPermissionsReasonOnlyWhereTheAgentReadsIt(t *testing.T) {
	ts, f := newTestServer(t)
	perm := func(denyReason bool) {
		f.mu.Lock()
		f.live[1].Snapshot.Pending = []hub.Question{{ID: 9, Event: "PermissionRequest",
			Permission: &session.Permission{Tool: "Bash", Command: "rm -rf build", DenyReason: denyReason}}}
		f.mu.Unlock()
	}
	perm(false)
	for _, c := range []struct{ path, says string }{
		{"/api/sessions/h2/deny", "codex's dialog in session bbbbbbbb (/src/two) takes no reason"},
		{"/api/sessions/h2/approve", "a permission allowed takes no reason"},
	} {
		resp, body := do(t, ts, req{method: "POST", path: c.path, body: `{"reason": "use tmp"}`, header: auth(testToken)})
		if resp.StatusCode != 400 || !strings.Contains(body, c.says) {
			t.Errorf("POST %s with a reason: %d %s, want 400 saying %q", c.path, resp.StatusCode, body, c.says)
		}
	}
	if got := f.answers(); len(got) != 0 {
		t.Fatalf("answered: %v", got)
	}
	perm(true)
	resp, body := do(t, ts, req{method: "POST", path: "/api/sessions/h2/deny", body: `{"reason": "use tmp"}`, header: auth(testToken)})
	if resp.StatusCode != 200 || !strings.Contains(body, "denied Bash: rm -rf build") {
		t.Fatalf("deny with a reason the agent reads: %d %s", resp.StatusCode, body)
	}
	if got := f.answers(); fmt.Sprint(got) != fmt.Sprint([]string{`h2 9 deny "use tmp"`}) {
		t.Fatalf("answers %q", got)
	}
}
