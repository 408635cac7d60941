package hubweb

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/chromedp/chromedp"

	"github.com/hooksup/hooksup/web"
)

// A request that names a host hooksup web does not serve (DNS rebinding: evil.example resolved
// to 127.0.0.1) is answered 421 with the flag that would allow it, the page and the API alike,
// the right token or not; loopback's names are served, and --allow-host adds one.
func TestWebRefusesAForeignHost(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	w := e2e.StartWeb(t, s)
	get := func(w *e2e.WebServer, host, path string) (int, string) {
		t.Helper()
		r, err := http.NewRequest("GET", strings.TrimSuffix(w.Base, "/")+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Host = host
		r.Header.Set("Authorization", "Bearer "+w.Token)
		resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	port := strings.TrimSuffix(w.Base[strings.LastIndex(w.Base, ":")+1:], "/")
	for _, host := range []string{"evil.example", "evil.example:" + port, "127.0.0.1.evil.example:" + port} {
		for _, path := range []string{"/", "/app.js", "/api/sessions"} {
			if code, body := get(w, host, path); code != http.StatusMisdirectedRequest || !strings.Contains(body, "--allow-host") {
				t.Fatalf("Host: %s, GET %s: %d %s", host, path, code, body)
			}
		}
	}
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port} {
		if code, body := get(w, host, "/api/sessions"); code != http.StatusOK {
			t.Fatalf("Host: %s: %d %s", host, code, body)
		}
	}
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := free.Addr().String()
	free.Close()
	allowed := e2e.StartWeb(t, s, "--listen", addr, "--allow-host", "devbox.example", "--public-url", "https://box.tailnet.ts.net/")
	if !strings.HasPrefix(allowed.Link, "https://box.tailnet.ts.net/#pair=") {
		t.Fatalf("--public-url: the printed URL is %s", allowed.Link)
	}
	allowed.Base = "http://" + addr + "/"
	for _, host := range []string{"devbox.example", "box.tailnet.ts.net"} {
		if code, body := get(allowed, host, "/api/sessions"); code != http.StatusOK {
			t.Fatalf("Host: %s with --allow-host/--public-url: %d %s", host, code, body)
		}
	}
	if code, _ := get(allowed, "evil.example", "/api/sessions"); code != http.StatusMisdirectedRequest {
		t.Fatalf("Host: evil.example beside --allow-host: %d", code)
	}
}

// 300 wrong tokens from one client do not lock the right token out: it still gets 200, from
// the same address. The wrong ones are in hooksup.log, a few lines, not 300.
func TestWebWrongTokensDoNotLockTheRightOneOut(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	w := e2e.StartWeb(t, s)
	for i := range 300 {
		resp, _ := w.Do(t, "GET", "/api/sessions", "", map[string]string{"Authorization": fmt.Sprintf("Bearer wrong-%d", i)})
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("wrong token %d: %d", i, resp.StatusCode)
		}
	}
	if resp, body := w.Do(t, "GET", "/api/sessions", "", map[string]string{"Authorization": "Bearer " + w.Token}); resp.StatusCode != http.StatusOK {
		t.Fatalf("the right token after 300 wrong ones: %d %s", resp.StatusCode, body)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(filepath.Join(s.StateDir(), "hooksup.log"))
		var lines []string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "wrong credential") {
				lines = append(lines, l)
			}
		}
		if len(lines) > 0 {
			if !strings.Contains(lines[0], "127.0.0.1") || len(lines) > 10 {
				t.Fatalf("hooksup.log on 300 wrong tokens (%d lines):\n%s", len(lines), strings.Join(lines, "\n"))
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("hooksup.log says nothing of 300 wrong tokens:\n%s", b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A token file others can read, or a symlink, makes hooksup web refuse to start, naming the
// file and the fix; it is neither chmodded nor used.
func TestWebRefusesALooseOrSymlinkedTokenFile(t *testing.T) {
	t.Parallel()
	const tok = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	run := func(s *e2e.Sandbox, args ...string) (int, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, e2e.HooksupBin, args...)
		cmd.Dir, cmd.Env = s.Project, s.Env
		out, _ := cmd.CombinedOutput()
		if ctx.Err() != nil {
			return -1, "still running after 20s:\n" + string(out)
		}
		return cmd.ProcessState.ExitCode(), string(out)
	}
	s := e2e.NewSandbox(t)
	os.MkdirAll(s.StateDir(), 0o700)
	file := filepath.Join(s.StateDir(), web.TokenFile)
	if err := os.WriteFile(file, []byte(tok+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(file, 0o644)
	for _, args := range [][]string{{"web", "--listen", "127.0.0.1:0"}, {"web", "token"}} {
		code, out := run(s, args...)
		if code != 1 || !strings.Contains(out, "chmod 600 "+file) {
			t.Fatalf("%v with a 0644 token file: exit %d\n%s", args, code, out)
		}
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("the loose token file was changed: %v %v", fi, err)
	}

	// The devices' and the pairing codes' files alike.
	for _, name := range []string{web.DevicesFile, web.PairingFile} {
		s := e2e.NewSandbox(t)
		os.MkdirAll(s.StateDir(), 0o700)
		file := filepath.Join(s.StateDir(), name)
		os.WriteFile(file, []byte("[]\n"), 0o600)
		os.Chmod(file, 0o660)
		for _, args := range [][]string{{"web", "--listen", "127.0.0.1:0"}, {"web", "devices"}, {"web", "pair"}} {
			if code, out := run(s, args...); code != 1 || !strings.Contains(out, "chmod 600 "+file) {
				t.Fatalf("%v with a 0660 %s: exit %d\n%s", args, name, code, out)
			}
		}
	}

	s = e2e.NewSandbox(t)
	os.MkdirAll(s.StateDir(), 0o700)
	target := filepath.Join(s.Project, "elsewhere")
	if err := os.WriteFile(target, []byte(tok+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(s.StateDir(), web.TokenFile)
	if err := os.Symlink(target, file); err != nil {
		t.Fatal(err)
	}
	code, out := run(s, "web", "--listen", "127.0.0.1:0")
	if code != 1 || !strings.Contains(out, file) || !strings.Contains(out, "symlink") {
		t.Fatalf("web with a symlinked token file: exit %d\n%s", code, out)
	}
}

// recorder is a server on another loopback port that keeps every request's headers.
type recorder struct {
	*httptest.Server
	mu      sync.Mutex
	headers []http.Header
}

func newRecorder(t *testing.T, page string) *recorder {
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.headers = append(rec.headers, r.Header.Clone())
		rec.mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (r *recorder) seen() []http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]http.Header{}, r.headers...)
}

// The browser that opened the page sends nothing of it to a server on another loopback port
// (cookies ignore ports): no cookie, and nothing in what it sends that the API takes (its
// headers replayed: 401). That page cannot sign the real one out with a cookie of its own.
func TestWebBrowserSendsNoCredentialToAnotherPort(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	w := e2e.StartWeb(t, s)
	ctx := e2e.Browser(t, 800, 600)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, 15*time.Second, "the page signed in and live", `document.getElementById("conn").textContent === "live" && document.getElementById("notice").hidden`)

	other := newRecorder(t, `<!doctype html><title>another page</title>`)
	if err := chromedp.Do(ctx, chromedp.Navigate(other.URL+"/")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`fetch("/again", {credentials: "include"}).then(() => true, () => true)`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	seen := other.seen()
	if len(seen) < 2 {
		t.Fatalf("the other server saw %d requests", len(seen))
	}
	for _, h := range seen {
		if c := h.Get("Cookie"); c != "" {
			t.Errorf("the browser sent another loopback port the cookie %q", c)
		}
		r, _ := http.NewRequest("GET", w.Base+"api/sessions", nil)
		r.Header = h.Clone()
		resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("the other server's request headers, replayed to the API: %d\n%v", resp.StatusCode, h)
		}
	}

	// The other page sets a cookie of the page's name on the API's path, then the person opens
	// the page again: still signed in.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.cookie = "hooksup=x; path=/api/"; document.cookie = "hooksup=x; path=/"; true`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Base)); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, 15*time.Second, "the page still signed in after another port's cookie",
		`document.getElementById("conn").textContent === "live" && document.getElementById("notice").hidden && !document.querySelector("main").textContent.includes("Not signed in")`)
	if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`fetch("/api/sessions").then(r => r.status === 401)`, chromedp.EvalAwaitPromise)); err != nil || !ok {
		t.Fatalf("a request with the browser's cookies alone is not 401: %v %v", ok, err)
	}
}

// A second browser (a fresh profile) that opens the URL hooksup web printed after the first
// browser used it is not signed in, and the page says how to pair it. The first browser's
// address bar keeps nothing of the URL's secret.
func TestWebPrintedURLSignsInOneBrowserOnly(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	w := e2e.StartWeb(t, s)
	first := e2e.Browser(t, 800, 600)
	if err := chromedp.Do(first, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, first, 15*time.Second, "the first browser signed in", `document.getElementById("conn").textContent === "live" && document.getElementById("notice").hidden`)
	if href, _ := chromedp.Run(first, chromedp.Evaluate[string](`location.href`)); href != w.Base {
		t.Fatalf("the first browser's address bar: %s", href)
	}
	second := e2e.Browser(t, 800, 600)
	if err := chromedp.Do(second, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, second, 15*time.Second, "the second browser told how to pair", `document.getElementById("notice").textContent.includes("hooksup web pair")`)
	if live, _ := chromedp.Run(second, chromedp.Evaluate[string](`document.getElementById("conn").textContent`)); live == "live" {
		t.Fatal("the second browser is live")
	}
	if n, _ := chromedp.Run(second, chromedp.Evaluate[int](`document.querySelectorAll(".card").length`)); n != 0 {
		t.Fatalf("the second browser shows %d cards", n)
	}
	if href, _ := chromedp.Run(second, chromedp.Evaluate[string](`location.href`)); href != w.Base {
		t.Fatalf("the second browser's address bar: %s", href)
	}
}

// hooksup web devices lists the paired browser by its name; hooksup web revoke --all ends it
// on the running server: the page's login, which worked, gets 401, and the page says how to
// pair again. The page keeps nothing in localStorage.
func TestWebDevicesListsThePairedBrowserAndRevokeEndsIt(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	w := e2e.StartWeb(t, s)
	ctx := e2e.Browser(t, 800, 600)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, 15*time.Second, "the page signed in", `document.getElementById("conn").textContent === "live" && document.getElementById("notice").hidden`)
	code, out := s.Hooksup(t, "web", "devices")
	if code != 0 || !strings.Contains(out, "Chrome on Linux") {
		t.Fatalf("web devices: exit %d\n%s", code, out)
	}
	if kept, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Object.keys(localStorage)`)); err != nil || len(kept) != 0 {
		t.Fatalf("the page keeps %v in localStorage (%v)", kept, err)
	}
	login, err := chromedp.Run(ctx, chromedp.Evaluate[string](`session.token`))
	if err != nil || login == "" {
		t.Fatalf("the page's login token: %q %v", login, err)
	}
	status := func() int {
		resp, _ := w.Do(t, "GET", "/api/sessions", "", map[string]string{"Authorization": "Bearer " + login})
		return resp.StatusCode
	}
	if n := status(); n != http.StatusOK {
		t.Fatalf("the page's login before revoke: %d", n)
	}
	if code, out := s.Hooksup(t, "web", "revoke", "--all"); code != 0 {
		t.Fatalf("web revoke --all: exit %d\n%s", code, out)
	}
	if n := status(); n != http.StatusUnauthorized {
		t.Fatalf("the page's login after revoke: %d", n)
	}
	e2e.EvalUntil(t, ctx, 15*time.Second, "the page saying how to pair again", `document.getElementById("notice").textContent.includes("hooksup web pair")`)
	if code, out := s.Hooksup(t, "web", "devices"); code != 0 || strings.Contains(out, "Chrome on Linux") {
		t.Fatalf("web devices after revoke --all: exit %d\n%s", code, out)
	}
}

// hooksup web pair prints a new link for the running server, whose code pairs once; without a
// server running it says to start one.
func TestWebPairPrintsANewLinkForTheRunningServer(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	if code, out := s.Hooksup(t, "web", "pair"); code != 1 || !strings.Contains(out, "no hooksup web is running") {
		t.Fatalf("web pair without a server: exit %d\n%s", code, out)
	}
	w := e2e.StartWeb(t, s)
	code, out := s.Hooksup(t, "web", "pair")
	link := ""
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, w.Base+"#pair=") {
			link = l
		}
	}
	if code != 0 || link == "" || link == w.Link {
		t.Fatalf("web pair: exit %d, no new link to %s:\n%s", code, w.Base, out)
	}
	newCode := strings.TrimPrefix(link, w.Base+"#pair=")
	for i, want := range []int{200, 401} {
		if status, body, _ := w.Device(t).Pair(newCode, ""); status != want {
			t.Fatalf("pairing with web pair's code, try %d: %d %s", i+1, status, body)
		}
	}
	// Killed, the server cannot remove its URL's file: web pair still tells it is gone.
	w.Cmd.Process.Kill()
	w.Cmd.Wait()
	if code, out := s.Hooksup(t, "web", "pair"); code != 1 || !strings.Contains(out, "is gone: start hooksup web again") || strings.Contains(out, "#pair=") {
		t.Fatalf("web pair after the server was killed: exit %d\n%s", code, out)
	}
}
