package web

import (
	"bytes"
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
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/pushtest"
)

// testCA signs the test push services' certificates; TestMain makes it the system's roots
// (SSL_CERT_FILE), before any TLS connection reads them, as a push service's real CA is.
var testCA *pushtest.CA

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	ca, err := pushtest.NewCA()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "hooksup-push-roots")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	roots, err := ca.WriteRoots(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.Setenv("SSL_CERT_FILE", roots)
	os.Unsetenv("SSL_CERT_DIR")
	testCA = ca
	return m.Run()
}

func newPushService(t *testing.T) *pushtest.Service {
	t.Helper()
	s, err := pushtest.NewService(testCA)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func newSubscriber(t *testing.T, s *pushtest.Service, path string) *pushtest.Subscriber {
	t.Helper()
	sub, err := pushtest.NewSubscriber(s, path)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// subscribe posts sub with the credential tok and wants 201.
func subscribe(t *testing.T, ts *httptest.Server, tok string, sub *pushtest.Subscriber) {
	t.Helper()
	if resp, body := do(t, ts, req{method: "POST", path: "/api/push", body: sub.JSON(), header: auth(tok)}); resp.StatusCode != http.StatusCreated {
		t.Fatalf("subscribe %s: %d %s", sub.Endpoint, resp.StatusCode, body)
	}
}

func endpoints(t *testing.T, store *Store) []string {
	t.Helper()
	subs, err := store.Subscriptions()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range subs {
		out = append(out, s.Endpoint+" "+s.Device)
	}
	return out
}

// The push API answers a paired browser's login and the API token only; the key is the VAPID
// public key, an uncompressed P-256 point in base64url, the same on every ask; a subscription is
// kept with the device that made it, and DELETE drops it.
func TestPushAPI(t *testing.T) {
	ts, store := newTestServerWith(t, newFakeHub(), Options{})
	svc := newPushService(t)
	sub := newSubscriber(t, svc, "/a")
	for _, r := range []req{
		{method: "GET", path: "/api/push/key"},
		{method: "POST", path: "/api/push", body: sub.JSON()},
		{method: "DELETE", path: "/api/push", body: `{"endpoint":"` + sub.Endpoint + `"}`},
		{method: "GET", path: "/api/push/key", header: auth("wrong")},
		{method: "POST", path: "/api/push", body: sub.JSON(), header: auth("wrong")},
	} {
		if resp, body := do(t, ts, r); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s %s with %v: %d %s", r.method, r.path, r.header, resp.StatusCode, body)
		}
	}
	if subs, _ := store.Subscriptions(); len(subs) != 0 {
		t.Fatalf("subscribed without a credential: %+v", subs)
	}
	resp, body := do(t, ts, req{method: "GET", path: "/api/push/key", header: auth(testToken)})
	var k struct{ Key string }
	if err := json.Unmarshal([]byte(body), &k); resp.StatusCode != 200 || err != nil {
		t.Fatalf("the key: %d %s", resp.StatusCode, body)
	}
	if raw, err := base64.RawURLEncoding.DecodeString(k.Key); err != nil || len(raw) != 65 || raw[0] != 4 {
		t.Fatalf("the key is not an uncompressed P-256 point in base64url: %q", k.Key)
	}
	dev := pairedDevice(t, ts, store)
	if _, again := do(t, ts, req{method: "GET", path: "/api/push/key", header: auth(dev.Token)}); !strings.Contains(again, k.Key) {
		t.Fatalf("the key changed: %s, was %s", again, k.Key)
	}
	subscribe(t, ts, dev.Token, sub)
	other := newSubscriber(t, svc, "/b")
	subscribe(t, ts, testToken, other)
	if got, want := endpoints(t, store), []string{sub.Endpoint + " " + dev.ID, other.Endpoint + " "}; !equal(got, want) {
		t.Fatalf("subscriptions %q, want %q", got, want)
	}
	// From another origin, a browser's write is refused.
	if resp, _ := do(t, ts, req{method: "POST", path: "/api/push", body: sub.JSON(),
		header: map[string]string{"Authorization": "Bearer " + dev.Token, "Origin": "http://evil.example"}}); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a cross-origin subscription: %d", resp.StatusCode)
	}
	if resp, body := do(t, ts, req{method: "DELETE", path: "/api/push", body: `{"endpoint":"` + sub.Endpoint + `"}`, header: auth(dev.Token)}); resp.StatusCode != 200 {
		t.Fatalf("unsubscribe: %d %s", resp.StatusCode, body)
	}
	if resp, _ := do(t, ts, req{method: "DELETE", path: "/api/push", body: `{"endpoint":"` + sub.Endpoint + `"}`, header: auth(dev.Token)}); resp.StatusCode != 404 {
		t.Fatalf("unsubscribe again: %d", resp.StatusCode)
	}
	if got, want := endpoints(t, store), []string{other.Endpoint + " "}; !equal(got, want) {
		t.Fatalf("subscriptions after DELETE %q, want %q", got, want)
	}
}

func equal(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }

// Only an https endpoint with real keys is kept: http, another scheme, credentials in the URL,
// a key that is no P-256 point, an auth secret of another length, and more than a subscription
// are refused with 400, naming what is wrong.
func TestPushSubscriptionsAreHTTPSOnly(t *testing.T) {
	ts, store := newTestServerWith(t, newFakeHub(), Options{})
	svc := newPushService(t)
	good := newSubscriber(t, svc, "/ok")
	p, a := good.Keys()
	body := func(endpoint, p256dh, auth string) string {
		b, _ := json.Marshal(map[string]any{"endpoint": endpoint, "expirationTime": nil, "keys": map[string]string{"p256dh": p256dh, "auth": auth}})
		return string(b)
	}
	for _, c := range []struct{ body, says string }{
		{body("http://127.0.0.1:1/push", p, a), "https"},
		{body("ftp://push.example/x", p, a), "https"},
		{body("https://user:pw@push.example/x", p, a), "https"},
		{body("/relative", p, a), "https"},
		{body("", p, a), "endpoint"},
		{body("https://push.example/x", "BAAA", a), "p256dh"},
		{body("https://push.example/x", p, "c2hvcnQ"), "auth"},
		{`{"endpoint":"https://push.example/x","keys":{"p256dh":"` + p + `","auth":"` + a + `"},"command":"rm -rf /"}`, "PushSubscription"},
	} {
		resp, got := do(t, ts, req{method: "POST", path: "/api/push", body: c.body, header: auth(testToken)})
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(got, c.says) {
			t.Errorf("%s: %d %s, want 400 naming %s", c.body, resp.StatusCode, got, c.says)
		}
	}
	if subs, _ := store.Subscriptions(); len(subs) != 0 {
		t.Fatalf("kept %+v", subs)
	}
	subscribe(t, ts, testToken, good)
}

// The VAPID key pair and the subscriptions are kept 0600, and refused, not used, when others
// may read them.
func TestPushFilesArePrivate(t *testing.T) {
	dir := t.TempDir()
	store := NewStore(dir)
	ts, _ := newTestServerWith(t, newFakeHub(), Options{Store: store})
	svc := newPushService(t)
	subscribe(t, ts, testToken, newSubscriber(t, svc, "/a"))
	if resp, _ := do(t, ts, req{method: "GET", path: "/api/push/key", header: auth(testToken)}); resp.StatusCode != 200 {
		t.Fatalf("the key: %d", resp.StatusCode)
	}
	for _, name := range []string{VAPIDFile, PushFile} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v", name, fi.Mode(), err)
		}
		b, _ := os.ReadFile(filepath.Join(dir, name))
		if name == VAPIDFile && !strings.Contains(string(b), `"private"`) {
			t.Fatalf("%s holds no private key: %s", name, b)
		}
	}
	if err := os.Chmod(filepath.Join(dir, VAPIDFile), 0o644); err != nil {
		t.Fatal(err)
	}
	resp, body := do(t, ts, req{method: "GET", path: "/api/push/key", header: auth(testToken)})
	if resp.StatusCode != 500 || !strings.Contains(body, "chmod 600") {
		t.Fatalf("a readable VAPID file: %d %s", resp.StatusCode, body)
	}
	var unsafe *UnsafeFileError
	if err := store.Check(); !errors.As(err, &unsafe) || !strings.HasSuffix(unsafe.Path, VAPIDFile) {
		t.Fatalf("Check: %v", err)
	}
}

// Revoking a device drops its subscriptions and no other's; revoking every device drops every
// subscription.
func TestRevokingADeviceDropsItsSubscriptions(t *testing.T) {
	ts, store := newTestServerWith(t, newFakeHub(), Options{})
	svc := newPushService(t)
	one, two := pairedDevice(t, ts, store), pairedDevice(t, ts, store)
	s1, s2, s3 := newSubscriber(t, svc, "/1"), newSubscriber(t, svc, "/2"), newSubscriber(t, svc, "/3")
	subscribe(t, ts, one.Token, s1)
	subscribe(t, ts, two.Token, s2)
	subscribe(t, ts, testToken, s3)
	if _, err := store.Revoke(one.ID); err != nil {
		t.Fatal(err)
	}
	if got, want := endpoints(t, store), []string{s2.Endpoint + " " + two.ID, s3.Endpoint + " "}; !equal(got, want) {
		t.Fatalf("after revoking %s: %q, want %q", one.ID, got, want)
	}
	if _, err := store.Revoke(""); err != nil {
		t.Fatal(err)
	}
	if got := endpoints(t, store); len(got) != 0 {
		t.Fatalf("after revoking all: %q", got)
	}
}

// logLines is a logger whose lines a test reads.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logLines) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(2 * pushTimeout) // past a push's timeout, which some wait for
	for !strings.Contains(l.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("the log never said %q:\n%s", s, l.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func asked(id int) hub.Event {
	return hub.Event{Type: hub.EventQuestionAsked, Time: time.Now(),
		Data: json.RawMessage(fmt.Sprintf(`{"question":{"id":%d,"event":"Stop","reason":"FAIL: TestSecret rm -rf /","last_message":"the agent's words"}}`, id))}
}

// A question that starts waiting gives each subscription one push within 5 s, through the
// system's roots: signed with the server's VAPID key (an ES256 JWT for the endpoint's origin,
// expiring within 24 h), aes128gcm with a TTL, and the payload, decrypted apart from the sender's
// library, names the session and the kind and nothing the agent said. The same question followed
// again is not pushed again.
func TestAQuestionIsPushedToEachSubscriptionOnce(t *testing.T) {
	f := newFakeHub()
	logs := &logLines{}
	ts, _ := newTestServerWith(t, f, Options{Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	svc := newPushService(t)
	a, b := newSubscriber(t, svc, "/a"), newSubscriber(t, svc, "/b")
	subscribe(t, ts, testToken, a)
	subscribe(t, ts, testToken, b)
	_, keyBody := do(t, ts, req{method: "GET", path: "/api/push/key", header: auth(testToken)})
	start := time.Now()
	f.events <- asked(8)
	pushes, ok := svc.Wait(5*time.Second, func(ps []pushtest.Push) bool { return len(ps) >= 2 })
	if !ok {
		t.Fatalf("pushes within 5 s: %d", len(pushes))
	}
	t.Logf("both pushes arrived %v after the question", time.Since(start).Round(time.Millisecond))
	for _, p := range pushes {
		sub := map[string]*pushtest.Subscriber{"/a": a, "/b": b}[p.Path]
		v, err := pushtest.VerifyVAPID(p.Header.Get("Authorization"))
		if err != nil {
			t.Fatalf("%s: %v", p.Path, err)
		}
		if !strings.Contains(keyBody, `"`+v.Key+`"`) {
			t.Errorf("%s: k=%s is not the server's key %s", p.Path, v.Key, keyBody)
		}
		if v.Aud != svc.URL {
			t.Errorf("%s: aud %q, want the endpoint's origin %q", p.Path, v.Aud, svc.URL)
		}
		if v.Exp.After(time.Now().Add(24*time.Hour)) || v.Sub == "" {
			t.Errorf("%s: exp %v (over 24 h?), sub %q", p.Path, v.Exp, v.Sub)
		}
		if p.Header.Get("Content-Encoding") != "aes128gcm" || p.Header.Get("TTL") == "" || p.Header.Get("TTL") == "0" {
			t.Errorf("%s: headers %v", p.Path, p.Header)
		}
		plain, err := sub.Decrypt(p.Body)
		if err != nil {
			t.Fatalf("%s: %v", p.Path, err)
		}
		if string(plain) != `{"id":"h1","kind":"question"}` {
			t.Errorf("%s: payload %s", p.Path, plain)
		}
		if bytes.Contains(p.Body, []byte("TestSecret")) {
			t.Errorf("%s: the reason in clear", p.Path)
		}
	}
	// The question again (a stream followed again replays it), then another: the next pushes
	// are the other question's alone.
	f.events <- asked(8)
	logs.waitFor(t, "no push: the question was pushed before")
	f.events <- asked(9)
	if ps, ok := svc.Wait(5*time.Second, func(ps []pushtest.Push) bool { return len(ps) >= 4 }); !ok || len(ps) != 4 {
		t.Fatalf("pushes after a replayed question and a new one: %d, want 4", len(ps))
	}
}

// A push service that says a subscription is gone (404, 410) has it dropped; one that fails
// otherwise keeps it, and one that never answers holds up neither the server nor the others'
// pushes. Every failure is logged.
func TestPushFailures(t *testing.T) {
	f := newFakeHub()
	logs := &logLines{}
	ts, store := newTestServerWith(t, f, Options{Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	svc := newPushService(t)
	release := svc.Hold("/slow")
	t.Cleanup(release)
	svc.Answer("/gone404", 404)
	svc.Answer("/gone410", 410)
	svc.Answer("/busy", 503)
	subs := map[string]*pushtest.Subscriber{}
	for _, p := range []string{"/slow", "/gone404", "/gone410", "/busy", "/ok"} {
		subs[p] = newSubscriber(t, svc, p)
		subscribe(t, ts, testToken, subs[p])
	}
	f.events <- asked(8)
	if _, ok := svc.Wait(5*time.Second, func(ps []pushtest.Push) bool { return len(ps) >= 5 }); !ok {
		t.Fatalf("pushes: %d", len(svc.Pushes("")))
	}
	logs.waitFor(t, "a push subscription is gone: dropped")
	logs.waitFor(t, "status=503")
	deadline := time.Now().Add(5 * time.Second)
	for want := []string{subs["/slow"].Endpoint + " ", subs["/busy"].Endpoint + " ", subs["/ok"].Endpoint + " "}; !equal(endpoints(t, store), want); {
		if time.Now().After(deadline) {
			t.Fatalf("subscriptions %q, want %q", endpoints(t, store), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// While /slow holds its push, the server answers at once.
	start := time.Now()
	if resp, _ := do(t, ts, req{method: "GET", path: "/api/sessions", header: auth(testToken)}); resp.StatusCode != 200 || time.Since(start) > pushTimeout/2 {
		t.Fatalf("the API while a push service hangs: %d after %v", resp.StatusCode, time.Since(start))
	}
}

// A push service that never answers is given up after the push's timeout, and said so.
func TestAPushServiceThatNeverAnswersTimesOut(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the push timeout")
	}
	f := newFakeHub()
	logs := &logLines{}
	ts, _ := newTestServerWith(t, f, Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	svc := newPushService(t)
	t.Cleanup(svc.Hold("/slow"))
	subscribe(t, ts, testToken, newSubscriber(t, svc, "/slow"))
	start := time.Now()
	f.events <- asked(8)
	logs.waitFor(t, "a push failed")
	if d := time.Since(start); d < pushTimeout || d > pushTimeout+5*time.Second {
		t.Fatalf("given up after %v, want %v", d, pushTimeout)
	}
}

// No push while the person is typing at the session's terminal: the question waits for them
// there. Once they have not typed for a while, the next question is pushed.
func TestNoPushWhileThePersonTypesAtTheTerminal(t *testing.T) {
	f := newFakeHub()
	f.live[0].Snapshot.LastKey = time.Now()
	logs := &logLines{}
	ts, _ := newTestServerWith(t, f, Options{Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	svc := newPushService(t)
	subscribe(t, ts, testToken, newSubscriber(t, svc, "/a"))
	f.events <- asked(8)
	logs.waitFor(t, "no push: the person is typing")
	f.mu.Lock()
	f.live[0].Snapshot.LastKey = time.Now().Add(-time.Minute)
	f.mu.Unlock()
	f.events <- asked(9)
	if ps, ok := svc.Wait(5*time.Second, func(ps []pushtest.Push) bool { return len(ps) >= 1 }); !ok || len(ps) != 1 {
		t.Fatalf("pushes: %d, want 1 (the second question's)", len(ps))
	}
}

// hooksup's push worker is served as a worker's script at its one path, exactly: any other path
// (a query, a trailing slash, another case, the file's own name, its folder), another method or a
// foreign host is given the worker that removes itself (or 421), and the push worker's file is
// no page's script either. It allows every scope, so that the browser's update of a worker
// another holder of the port registered at its path for a wider scope succeeds, and hooksup's
// worker removes that registration (TestWebRemovesASquattersWorkerAtThePushWorkersPath).
func TestOnlyThePushWorkerIsExemptFromTheWorkerRemover(t *testing.T) {
	ts, _ := newTestServer(t)
	worker := pushWorker
	sw := map[string]string{"Service-Worker": "script"}
	resp, body := do(t, ts, req{method: "GET", path: PushWorkerPath, header: sw})
	if resp.StatusCode != 200 || body != string(worker) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") ||
		resp.Header.Get("Clear-Site-Data") != "" || resp.Header.Get("Service-Worker-Allowed") != "/" {
		t.Fatalf("the push worker: %d %v\n%s", resp.StatusCode, resp.Header, body)
	}
	for _, path := range []string{PushWorkerPath + "?v=2", PushWorkerPath + "/", "/push/Worker.js", "/PUSH/worker.js", "/push/./worker.js",
		"/push//worker.js", "/x/../push/worker.js", "/pushworker.js", "/static/pushworker.js", "/push/", "/push/worker.jsx", "/sw.js"} {
		resp, body := do(t, ts, req{method: "GET", path: path, header: sw})
		if resp.StatusCode != 200 || body != workerRemover || resp.Header.Get("Clear-Site-Data") != `"cache", "storage"` {
			t.Errorf("GET %s as a worker's script: %d %s", path, resp.StatusCode, body)
		}
	}
	if resp, body := do(t, ts, req{method: "POST", path: PushWorkerPath, header: sw}); body != workerRemover {
		t.Errorf("POST %s as a worker's script: %d %s", PushWorkerPath, resp.StatusCode, body)
	}
	r, _ := http.NewRequest("GET", ts.URL+PushWorkerPath, nil)
	r.Host = "evil.example"
	r.Header.Set("Service-Worker", "script")
	if resp, err := ts.Client().Do(r); err != nil || resp.StatusCode != 200 {
		t.Errorf("a foreign host's worker: %v %v", resp, err)
	} else if b, _ := io.ReadAll(resp.Body); string(b) != workerRemover {
		t.Errorf("a foreign host's fetch of the push worker: %s", b)
	}
	for _, path := range []string{PushWorkerPath, "/pushworker.js"} {
		if resp, _ := do(t, ts, req{method: "GET", path: path}); resp.StatusCode != 404 {
			t.Errorf("GET %s as no worker: %d", path, resp.StatusCode)
		}
	}
}
