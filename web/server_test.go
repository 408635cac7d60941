package web

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/hub"
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
	s := New(Options{Hub: f, Token: testToken, ListEvery: 50 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	go s.Run(ctx)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { cancel(); ts.Close() })
	return ts, f
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

func bearer(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }

// Every API request needs the token or the cookie: without, or with a wrong one, 401 and no data.
func TestAPINeedsTheToken(t *testing.T) {
	ts, f := newTestServer(t)
	for _, r := range []req{
		{method: "GET", path: "/api/sessions"},
		{method: "GET", path: "/api/sessions", header: bearer("f" + testToken[1:])},
		{method: "GET", path: "/api/sessions", header: bearer(testToken[:32])},
		{method: "GET", path: "/api/sessions", header: map[string]string{"Cookie": "hooksup=nope"}},
		{method: "GET", path: "/api/events"},
		{method: "POST", path: "/api/sessions/h1/approve"},
		{method: "POST", path: "/api/login", header: bearer("wrong")},
	} {
		resp, body := do(t, ts, r)
		if resp.StatusCode != http.StatusUnauthorized || strings.Contains(body, "/src/one") {
			t.Errorf("%s %s %v: %d %s, want 401 and no session", r.method, r.path, r.header, resp.StatusCode, body)
		}
	}
	if got := f.answers(); len(got) != 0 {
		t.Fatalf("answered without the token: %v", got)
	}
	resp, body := do(t, ts, req{method: "GET", path: "/api/sessions", header: bearer(testToken)})
	var list []Session
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &list) != nil || len(list) != 2 || list[0].Pending[0].Reason != "FAIL: TestX\nmore" {
		t.Fatalf("with the token: %d %s", resp.StatusCode, body)
	}
}

// Wrong tokens are rate-limited: past the burst, every request is 429 (the right token too,
// so that guessing gets no answer) until the limit refills.
func TestFailedAttemptsAreRateLimited(t *testing.T) {
	ts, _ := newTestServer(t)
	for i := range failureBurst {
		if resp, _ := do(t, ts, req{method: "GET", path: "/api/sessions", header: bearer(fmt.Sprint(i))}); resp.StatusCode != 401 {
			t.Fatalf("attempt %d: %d, want 401", i, resp.StatusCode)
		}
	}
	resp, _ := do(t, ts, req{method: "GET", path: "/api/sessions", header: bearer("again")})
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("after %d failures: %d (Retry-After %q), want 429", failureBurst, resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp, _ := do(t, ts, req{method: "GET", path: "/api/sessions", header: bearer(testToken)}); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the right token while limited: %d, want 429", resp.StatusCode)
	}
	deadline := time.Now().Add(10 * failureRefill)
	for {
		resp, _ := do(t, ts, req{method: "GET", path: "/api/sessions", header: bearer(testToken)})
		if resp.StatusCode == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the limit never refilled: %d", resp.StatusCode)
		}
		time.Sleep(failureRefill / 10)
	}
}

// login trades the token for the cookie: HttpOnly, SameSite=Strict; the cookie then reads the API.
func loginCookie(t *testing.T, ts *httptest.Server) string {
	t.Helper()
	resp, body := do(t, ts, req{method: "POST", path: "/api/login", header: bearer(testToken)})
	if resp.StatusCode != 200 {
		t.Fatalf("login: %d %s", resp.StatusCode, body)
	}
	var c *http.Cookie
	for _, k := range resp.Cookies() {
		if k.Name == CookieName {
			c = k
		}
	}
	if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" {
		t.Fatalf("login's cookie: %+v (headers %v)", c, resp.Header["Set-Cookie"])
	}
	return CookieName + "=" + c.Value
}

func TestLoginSetsAStrictHttpOnlyCookie(t *testing.T) {
	ts, _ := newTestServer(t)
	cookie := loginCookie(t, ts)
	if resp, body := do(t, ts, req{method: "GET", path: "/api/sessions", header: map[string]string{"Cookie": cookie}}); resp.StatusCode != 200 {
		t.Fatalf("GET with the cookie: %d %s", resp.StatusCode, body)
	}
}

// A write from another origin is refused, whatever its credentials; nothing is answered.
func TestCrossOriginWritesAreRefused(t *testing.T) {
	ts, f := newTestServer(t)
	cookie := loginCookie(t, ts)
	for _, h := range []map[string]string{
		{"Authorization": "Bearer " + testToken, "Origin": "http://evil.example"},
		{"Authorization": "Bearer " + testToken, "Sec-Fetch-Site": "cross-site"},
		{"Authorization": "Bearer " + testToken, "Sec-Fetch-Site": "same-site"},
		{"Cookie": cookie, "X-Hooksup-Web": "1", "Origin": "https://evil.example"},
		{"Cookie": cookie, "X-Hooksup-Web": "1", "Origin": "null"},
	} {
		resp, body := do(t, ts, req{method: "POST", path: "/api/sessions/h1/approve", header: h})
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%v: %d %s, want 403", h, resp.StatusCode, body)
		}
	}
	resp, _ := do(t, ts, req{method: "POST", path: "/api/login", header: map[string]string{"Authorization": "Bearer " + testToken, "Origin": "http://evil.example"}})
	if resp.StatusCode != http.StatusForbidden || len(resp.Cookies()) > 0 {
		t.Errorf("cross-origin login: %d %v, want 403 and no cookie", resp.StatusCode, resp.Cookies())
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

// A write on the cookie needs the page's CSRF header; one with the Bearer token (curl) does not.
func TestCookieWritesNeedTheCSRFHeader(t *testing.T) {
	ts, f := newTestServer(t)
	cookie := loginCookie(t, ts)
	resp, body := do(t, ts, req{method: "POST", path: "/api/sessions/h1/approve", header: map[string]string{"Cookie": cookie}})
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, CSRFHeader) {
		t.Fatalf("cookie POST without %s: %d %s, want 403 naming it", CSRFHeader, resp.StatusCode, body)
	}
	if got := f.answers(); len(got) != 0 {
		t.Fatalf("answered without the CSRF header: %v", got)
	}
	resp, body = do(t, ts, req{method: "POST", path: "/api/sessions/h1/deny", header: map[string]string{"Cookie": cookie, CSRFHeader: "1"}})
	if resp.StatusCode != 200 {
		t.Fatalf("cookie POST with %s: %d %s", CSRFHeader, resp.StatusCode, body)
	}
	resp, body = do(t, ts, req{method: "POST", path: "/api/sessions/h1/approve", header: bearer(testToken)})
	if resp.StatusCode != 200 {
		t.Fatalf("Bearer POST: %d %s", resp.StatusCode, body)
	}
	if got := f.answers(); len(got) != 2 || got[0] != `h1 7 allow ""` || got[1] != `h1 7 block ""` {
		t.Fatalf("answers: %v", got)
	}
}

// Every response says: no inline script, no other origin, not in a frame, no sniffing, no Referer.
func TestSecurityHeaders(t *testing.T) {
	ts, _ := newTestServer(t)
	for _, r := range []req{{method: "GET", path: "/"}, {method: "GET", path: "/api/sessions"}, {method: "GET", path: "/api/sessions", header: bearer(testToken)}} {
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
		resp, body := do(t, ts, req{method: "POST", path: c.path, body: c.body, header: bearer(testToken)})
		var e apiError
		if resp.StatusCode != c.status || json.Unmarshal([]byte(body), &e) != nil || !strings.Contains(e.Error, c.says) || e.Code == "" {
			t.Errorf("POST %s %.40q: %d %s, want %d saying %q", c.path, c.body, resp.StatusCode, body, c.status, c.says)
		}
	}
	if got := f.answers(); len(got) != 0 {
		t.Fatalf("bad requests answered: %v", got)
	}
	f.resolveErr = fmt.Errorf("%w: question 7", hub.ErrAnswered)
	resp, body := do(t, ts, req{method: "POST", path: "/api/sessions/aaaaaaaa-1111/halt", header: bearer(testToken)})
	if resp.StatusCode != 409 || !strings.Contains(body, "the question in session aaaaaaaa (/src/one) was already answered") {
		t.Fatalf("an answered question: %d %s", resp.StatusCode, body)
	}
	if resp, body := do(t, ts, req{method: "GET", path: "/api/sessions", header: bearer(testToken)}); resp.StatusCode != 200 {
		t.Fatalf("the server after bad input: %d %s", resp.StatusCode, body)
	}
}

// approve, deny and halt answer the oldest pending question with the CLI's decisions and say
// what they did as the CLI does; approve's reason is the edit; interrupt is Escape.
func TestActionsAnswerTheOldestQuestion(t *testing.T) {
	ts, f := newTestServer(t)
	for _, c := range []struct{ path, body, says string }{
		{"/api/sessions/aaaaaaaa-1111/approve", `{"reason": "edited\nreason"}`, "approve: approved the continuation Stop in session aaaaaaaa (/src/one): edited"},
		{"/api/sessions/h1/approve", ``, "approve: approved the continuation Stop in session aaaaaaaa (/src/one): FAIL: TestX"},
		{"/api/sessions/h1/deny", `{}`, "deny: denied the continuation Stop in session aaaaaaaa (/src/one)"},
		{"/api/sessions/h1/halt", `{"reason": "enough"}`, "halt: halted the turn Stop in session aaaaaaaa (/src/one): enough"},
		{"/api/sessions/bbbbbbbb-2222/interrupt", ``, "interrupt"},
	} {
		resp, body := do(t, ts, req{method: "POST", path: c.path, body: c.body, header: bearer(testToken)})
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
	resp, body := do(t, ts, req{method: "POST", path: "/api/sessions/h1/approve", body: `{"question": 6}`, header: bearer(testToken)})
	var e staleError
	if resp.StatusCode != http.StatusConflict || json.Unmarshal([]byte(body), &e) != nil || e.Code != "stale" ||
		e.Current == nil || e.Current.ID != 7 || e.Current.Reason != "FAIL: TestX\nmore" {
		t.Fatalf("an answer to question 6 while 7 is pending: %d %s", resp.StatusCode, body)
	}
	if got := f.answers(); len(got) != 0 {
		t.Fatalf("a stale answer was given: %q", got)
	}
	resp, body = do(t, ts, req{method: "POST", path: "/api/sessions/h1/deny", body: `{"question": 7}`, header: bearer(testToken)})
	if resp.StatusCode != 200 {
		t.Fatalf("the answer to the question pending: %d %s", resp.StatusCode, body)
	}
	f.resolveErr = hub.ErrAnswered // answered elsewhere between the list and the answer
	resp, body = do(t, ts, req{method: "POST", path: "/api/sessions/h1/approve", body: `{"question": 7}`, header: bearer(testToken)})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, `"code":"stale"`) {
		t.Fatalf("an answer to a question answered meanwhile: %d %s", resp.StatusCode, body)
	}
	// A session with no question: the stale answer says so.
	resp, body = do(t, ts, req{method: "POST", path: "/api/sessions/h2/approve", body: `{"question": 7}`, header: bearer(testToken)})
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
	s := New(Options{Hub: f, Token: testToken, ListEvery: 50 * time.Millisecond})
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
	resp, body := do(t, ts, req{method: "GET", path: "/api/sessions", header: bearer(testToken)})
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
		{"/api/sessions/h1/approve?host=devbox", 200, "approve: approved the continuation Stop in session devbox:cccccccc (/home/me/far): LINT: remote"},
		{"/api/sessions/cccccccc-3333/deny?host=devbox", 200, "deny: denied the continuation Stop in session devbox:cccccccc (/home/me/far)"},
		{"/api/sessions/h1/approve", 200, "approve: approved the continuation Stop in session aaaaaaaa (/src/one): FAIL: TestX"},
		{"/api/sessions/h1/interrupt?host=devbox", 200, "interrupt: sent Escape to session devbox:cccccccc"},
		{"/api/sessions/cccccccc-3333/approve", 404, `no session "cccccccc-3333" (it may have ended)`},
		{"/api/sessions/h1/approve?host=nowhere", 404, `no session "h1" on nowhere (it may have ended)`},
		{"/api/sessions/host%20gpu-1/approve?host=gpu-1", 502, "disconnected: ssh: connect to host gpu-1"},
	} {
		resp, body := do(t, ts, req{method: "POST", path: c.path, header: bearer(testToken)})
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
	f.events <- hub.Event{Type: hub.EventQuestionAsked, Time: time.Now(), Data: json.RawMessage(`{"Question":{"ID":8}}`)}
	events := readEvents(t, resp.Body)
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("the stream ended")
			}
			if ev.Type == hub.EventQuestionAsked {
				if ev.Session != "h1" || string(ev.Data) != `{"Question":{"ID":8}}` {
					t.Fatalf("event %+v", ev)
				}
				return
			}
		case <-timeout:
			t.Fatal("no QuestionAsked on the stream")
		}
	}
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
	os.Chmod(filepath.Join(dir, TokenFile), 0o644)
	if b, _ := LoadToken(dir, false); b != a {
		t.Fatalf("restart: %q, want %q", b, a)
	}
	if fi, _ := os.Stat(filepath.Join(dir, TokenFile)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file left %v", fi.Mode())
	}
	if c, _ := LoadToken(dir, true); c == a || len(c) != 64 {
		t.Fatalf("renewed: %q (was %q)", c, a)
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
	f.remote <- hub.Event{Type: hub.EventQuestionAsked, Time: time.Now(), Data: json.RawMessage(`{"Question":{"ID":4}}`)}
	f.events <- hub.Event{Type: hub.EventQuestionAsked, Time: time.Now(), Data: json.RawMessage(`{"Question":{"ID":8}}`)}
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
				asked[ev.Host+"|"+ev.Session] = string(ev.Data)
			}
		case <-timeout:
			t.Fatalf("QuestionAsked on the stream: %q, want one from each host", asked)
		}
	}
	want := map[string]string{"devbox|h1": `{"Question":{"ID":4}}`, "|h1": `{"Question":{"ID":8}}`}
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
