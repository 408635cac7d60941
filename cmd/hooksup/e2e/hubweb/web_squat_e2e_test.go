package hubweb

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// squatter is testdata/squatter run as another user on addr: a server that logs every request
// and dumps what the page's origin keeps.
type squatter struct {
	cmd *exec.Cmd
	log string
}

// captured is one request the squatter logged.
type captured struct {
	Method string      `json:"method"`
	Path   string      `json:"path"`
	Header http.Header `json:"header"`
	Body   string      `json:"body"`
}

// buildSquatter builds testdata/squatter where another user may run it. It is built before
// hooksup web stops: the port is free for a moment only, not for the time of a build.
func buildSquatter(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "squat")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	bin := filepath.Join(dir, "squatter")
	if out, err := e2e.GoBuild(bin, "./testdata/squatter").CombinedOutput(); err != nil {
		t.Fatalf("build the squatter: %v\n%s", err, out)
	}
	return bin
}

// startSquatter runs bin (buildSquatter) as another user on addr, and waits until it answers
// there.
func startSquatter(t *testing.T, bin, addr string, args ...string) *squatter {
	t.Helper()
	u := e2e.OtherUser(t)
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	logPath := filepath.Join(filepath.Dir(bin), "requests.jsonl")
	if err := os.WriteFile(logPath, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	os.Chmod(logPath, 0o666)
	cmd := exec.Command(bin, append([]string{"-listen", addr, "-log", logPath}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	// What answers on addr is the squatter, not another program that took the port meanwhile.
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/steal")
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(b), "<title>not hooksup</title>") {
				break
			}
			err = fmt.Errorf("another program answers there: %d %.200q", resp.StatusCode, b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the squatter does not listen on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return &squatter{cmd: cmd, log: logPath}
}

// requests are what the squatter logged so far.
func (s *squatter) requests(t *testing.T) []captured {
	t.Helper()
	f, err := os.Open(s.log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []captured
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c captured
		if json.Unmarshal(sc.Bytes(), &c) == nil {
			out = append(out, c)
		}
	}
	return out
}

// waitFor waits until the squatter logged a request that ok accepts.
func (s *squatter) waitFor(t *testing.T, what string, ok func(captured) bool) captured {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		for _, c := range s.requests(t) {
			if ok(c) {
				return c
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the squatter never saw %s; it saw %+v", what, s.requests(t))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (s *squatter) stop() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

// freeLoopback is a loopback address no one listens on now.
func freeLoopback(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// strings of v, every one, however deep.
func stringsIn(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case map[string]any:
		var out []string
		for k, e := range x {
			out = append(out, k)
			out = append(out, stringsIn(e)...)
		}
		return out
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, stringsIn(e)...)
		}
		return out
	}
	return nil
}

// mirror saves hooksup web's page, as w serves it to a browser's window (with a challenge of
// its own), into a directory another user may read.
func mirror(t *testing.T, w *e2e.WebServer) (dir, challenge string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "mirror")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	for _, name := range []string{"", "app.js", "app.css", "icon.svg", "manifest.webmanifest"} {
		r, _ := http.NewRequest("GET", w.Base+name, nil)
		r.Header.Set("Sec-Fetch-Mode", "navigate")
		r.Header.Set("Sec-Fetch-Dest", "document")
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if name == "" {
			name = "index.html"
			m := regexp.MustCompile(`name="hooksup-challenge" content="([0-9a-f]+)"`).FindSubmatch(b)
			if m == nil {
				t.Fatalf("the page has no challenge:\n%s", b)
			}
			challenge = string(m[1])
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, challenge
}

// Another local user holds hooksup web's port while it is down, as an attacker would: it logs
// every request the open tab sends it (its login token; a login signed over a challenge the
// real server issued, from hooksup's own page served again with it), serves the tab a page that
// dumps localStorage and IndexedDB and keeps trying to log in with the key it finds there.
// hooksup web, started meanwhile, names that user and says the page there is not hooksup's.
// Once the owner's hooksup web is back on the port, nothing captured opens the API: every
// replayed request and value is refused, and the squatter's page still open in the tab reaches
// the server but never logs in. The tab, back on hooksup's page, logs in again with its key.
func TestWebPortSquatterGetsNothingThatOpensTheAPI(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	addr := freeLoopback(t)
	w := e2e.StartWeb(t, s, "--listen", addr)
	ctx := e2e.Browser(t, 800, 600)
	navigate(t, ctx, w.Link)
	e2e.EvalUntil(t, ctx, 20*time.Second, "the page signed in", `document.getElementById("conn").textContent === "live" && document.getElementById("notice").hidden`)
	saved, challenge := mirror(t, w)
	bin := buildSquatter(t)
	w.Cmd.Process.Signal(syscall.SIGTERM)
	w.Cmd.Wait()

	sq := startSquatter(t, bin, addr, "-mirror", saved)
	// hooksup web, started while the port is held, names the user and exits.
	ctxRun, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctxRun, e2e.HooksupBin, "web", "--listen", addr)
	cmd.Dir, cmd.Env = s.Project, s.Env
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), "held by another user") ||
		!strings.Contains(string(out), "not hooksup's") || !strings.Contains(string(out), "hooksup web revoke --all") {
		t.Fatalf("hooksup web on the squatted port: %v\n%s", cmd.ProcessState, out)
	}
	if uid := sq.cmd.SysProcAttr.Credential.Uid; !strings.Contains(string(out), fmt.Sprintf("uid %d", uid)) {
		t.Fatalf("hooksup web does not name the squatter's uid %d:\n%s", uid, out)
	}

	// The open tab comes to the squatter with its login token; refused, it loads the page again
	// (the squatter's copy of hooksup's) and logs in there, signing the real server's challenge.
	sq.waitFor(t, "the tab's login token", func(c captured) bool { return strings.HasPrefix(c.Header.Get("Authorization"), "Bearer ") })
	sq.waitFor(t, "the tab's signed login", func(c captured) bool { return c.Path == "/api/login" && strings.Contains(c.Body, challenge) })
	// The squatter's own page, in the tab, dumps its storage.
	navigate(t, ctx, strings.TrimSuffix(w.Base, "/")+"/steal")
	dumped := sq.waitFor(t, "the dump of the tab's storage", func(c captured) bool { return c.Path == "/dump" })
	var dump map[string]any
	if err := json.Unmarshal([]byte(dumped.Body), &dump); err != nil || dump["error"] != nil {
		t.Fatalf("the squatter's dump: %v %s", err, dumped.Body)
	}
	if ls, _ := dump["localStorage"].(map[string]any); len(ls) != 0 {
		t.Fatalf("the page keeps %v in localStorage", ls)
	}
	var keys int
	for _, rec := range dump["indexedDB"].([]any) {
		for _, f := range rec.(map[string]any)["fields"].(map[string]any) {
			if k, ok := f.(map[string]any); ok && k["cryptoKey"] == true {
				keys++
				if k["extractable"] != false || k["jwk"] != nil {
					t.Fatalf("the squatter read a device key out: %v", k)
				}
			}
		}
	}
	if keys == 0 {
		t.Fatalf("the squatter found no device key in IndexedDB: %s", dumped.Body)
	}
	sq.stop()

	// The owner's hooksup web is back: the squatter's page, still open, reaches it and never
	// logs in.
	w = e2e.StartWeb(t, s, "--listen", addr)
	e2e.EvalUntil(t, ctx, 30*time.Second, "the squatter's page reaching hooksup web three times", `Number(document.getElementById("reached").textContent) >= 3`)
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("logins").textContent`)); err != nil || n != "0" {
		t.Fatalf("the squatter's page logged in %s times (%v)", n, err)
	}
	// Nothing captured opens the API.
	var tried int
	try := func(what string, r *http.Request) {
		t.Helper()
		tried++
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusTooManyRequests {
			t.Errorf("%s: %d, want 401 (or 429 once the failures are limited)", what, resp.StatusCode)
		}
	}
	var values []string
	for _, c := range sq.requests(t) {
		if !strings.HasPrefix(c.Path, "/api/") {
			continue
		}
		r, _ := http.NewRequest(c.Method, strings.TrimSuffix(w.Base, "/")+c.Path, strings.NewReader(c.Body))
		r.Header = c.Header.Clone()
		try("the captured "+c.Method+" "+c.Path, r)
		values = append(values, strings.TrimPrefix(c.Header.Get("Authorization"), "Bearer "))
	}
	values = append(values, stringsIn(dump)...)
	for _, v := range values {
		if v == "" {
			continue
		}
		r, _ := http.NewRequest("GET", strings.TrimSuffix(w.Base, "/")+"/api/sessions", nil)
		r.Header.Set("Authorization", "Bearer "+v)
		try("a captured value as the Bearer token", r)
	}
	if tried < 3 {
		t.Fatalf("only %d captured requests and values were tried", tried)
	}
	// The tab, back on hooksup's page, logs in with its key as before.
	navigate(t, ctx, w.Base)
	e2e.EvalUntil(t, ctx, 20*time.Second, "the page signed in again", `document.getElementById("conn") && document.getElementById("conn").textContent === "live" && document.getElementById("notice").hidden`)
}

// A service worker another user's server registered on hooksup web's address while it was down
// answers the tab's loads of the page itself, from then on. Once hooksup web is back, the
// browser's check of that worker gets hooksup's worker that removes itself, with the origin's
// storage: no worker is left, and the next load of the tab is hooksup's page, which says the
// browser is not paired.
func TestWebRemovesAServiceWorkerASquatterLeft(t *testing.T) {
	t.Parallel()
	testSquattersWorkerRemoved(t, "worker", "/sw.js", "not paired", false)
}

// The same, for a worker registered at the path of hooksup's own push worker, /push/worker.js,
// for the whole origin rather than /push/: the browser's check gets hooksup's push worker,
// which, registered for a scope not its own, removes itself and loads the tab again: the tab
// shows hooksup's page, signed in with its key, with no load of the person's.
func TestWebRemovesASquattersWorkerAtThePushWorkersPath(t *testing.T) {
	t.Parallel()
	testSquattersWorkerRemoved(t, "pushworker", "/push/worker.js", "live", true)
}

// testSquattersWorkerRemoved has the squatter register a worker from script (/steal?steal), and
// hooksup web, back, remove it once the person loads the tab: then hooksup's page, conn its
// connection's state, is in the tab, by itself if reloads, else at the person's next load.
func testSquattersWorkerRemoved(t *testing.T, steal, script, conn string, reloads bool) {
	s := e2e.NewSandbox(t)
	addr := freeLoopback(t)
	w := e2e.StartWeb(t, s, "--listen", addr)
	ctx := e2e.Browser(t, 800, 600)
	navigate(t, ctx, w.Link)
	e2e.EvalUntil(t, ctx, 20*time.Second, "the page signed in", `document.getElementById("conn").textContent === "live"`)
	bin := buildSquatter(t)
	w.Cmd.Process.Signal(syscall.SIGTERM)
	w.Cmd.Wait()

	sq := startSquatter(t, bin, addr)
	navigate(t, ctx, strings.TrimSuffix(w.Base, "/")+"/steal?"+steal)
	// Registered is not yet active: the worker answers loads once it controls the tab (it claims
	// its clients as it activates).
	e2e.EvalUntil(t, ctx, 20*time.Second, "the squatter's worker controlling the tab", `document.getElementById("s").textContent === "worker" && navigator.serviceWorker.controller !== null`)
	navigate(t, ctx, w.Base)
	e2e.EvalUntil(t, ctx, 20*time.Second, "the squatter's worker answering the page's load", `document.body.innerText.includes("the squatter's worker")`)
	sq.stop()

	e2e.StartWeb(t, s, "--listen", addr)
	// A person loads the page again, as they would a page that looks wrong; the browser checks
	// the worker after that load, and is given hooksup's, which removes itself.
	navigate(t, ctx, w.Base)
	waitWorkersGone(t, ctx, 60*time.Second)
	settled := `document.getElementById("conn") !== null && document.getElementById("conn").textContent === ` + strconv.Quote(conn) +
		` && navigator.serviceWorker.controller === null`
	if reloads {
		// The worker that removed itself loaded the tab again: hooksup's page, settled.
		e2e.EvalUntil(t, ctx, 30*time.Second, "hooksup's page, "+conn+", in the tab", settled)
	}
	// The next load is hooksup's page.
	navigate(t, ctx, w.Base)
	e2e.EvalUntil(t, ctx, 30*time.Second, "hooksup's page, "+conn+", loaded again", settled)
	for _, c := range sq.requests(t) {
		if c.Path == script && c.Header.Get("Service-Worker") != "script" {
			t.Errorf("the worker's script was fetched without Service-Worker: script: %v", c.Header)
		}
	}
}

// The page shows its own device's name and id, as hooksup web devices lists it. A new pairing
// URL pasted into an open tab pairs it: a tab that says it is not paired is paired, and a
// paired one is paired again, its id kept, its old key's login refused, one row in web devices.
func TestWebPairsAnOpenTabAgain(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	w := e2e.StartWeb(t, s)
	newLink := func() string {
		t.Helper()
		_, out := s.Hooksup(t, "web", "pair")
		code := e2e.PairLinks(out)[w.Base]
		if code == "" {
			t.Fatalf("web pair printed no link to %s:\n%s", w.Base, out)
		}
		return w.Base + "#pair=" + code
	}
	const live = `document.getElementById("conn").textContent === "live" && document.getElementById("notice").hidden`

	// A tab that is not paired: the page says so; the URL pasted into it pairs it.
	ctx := e2e.Browser(t, 800, 600)
	navigate(t, ctx, w.Base)
	e2e.EvalUntil(t, ctx, 20*time.Second, "the tab saying it is not paired", `document.getElementById("notice").textContent.includes("hooksup web pair")`)
	navigate(t, ctx, w.Link)
	e2e.EvalUntil(t, ctx, 20*time.Second, "the tab paired by the URL pasted into it", live)
	_, out := s.Hooksup(t, "web", "devices")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("web devices after pairing one tab:\n%s", out)
	}
	id := strings.Fields(lines[1])[0]
	e2e.EvalUntil(t, ctx, 10*time.Second, "the page naming its device", `document.getElementById("device").textContent === "this browser: Chrome on Linux · `+id+`"`)
	old, err := chromedp.Run(ctx, chromedp.Evaluate[string](`session.token`))
	if err != nil || old == "" {
		t.Fatalf("the page's login: %q %v", old, err)
	}

	// The paired tab, given a new URL: paired again.
	navigate(t, ctx, newLink())
	e2e.EvalUntil(t, ctx, 20*time.Second, "the tab paired again, with a new login", live+` && session.token && session.token !== `+strconv.Quote(old))
	if href, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`)); href != w.Base {
		t.Fatalf("the address bar after pairing again: %s", href)
	}
	_, out = s.Hooksup(t, "web", "devices")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 2 || strings.Fields(lines[1])[0] != id {
		t.Fatalf("web devices after pairing the tab again (it was %s):\n%s", id, out)
	}
	e2e.EvalUntil(t, ctx, 10*time.Second, "the page naming the same device", `document.getElementById("device").textContent.endsWith(" · `+id+`")`)
	if resp, _ := w.Do(t, "GET", "/api/sessions", "", map[string]string{"Authorization": "Bearer " + old}); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the old key's login after pairing again: %d", resp.StatusCode)
	}
}

// workersJS is what the tab holds of service workers, as JSON: its controller and every
// registration, with the script and state of its installing, waiting and active worker.
const workersJS = `(async () => {
  const w = (x) => x ? x.scriptURL + " " + x.state : null;
  const c = navigator.serviceWorker.controller;
  const regs = (await navigator.serviceWorker.getRegistrations()).map((r) =>
    ({ scope: r.scope, installing: w(r.installing), waiting: w(r.waiting), active: w(r.active) }));
  return JSON.stringify({ url: location.href, controller: w(c), registrations: regs });
})()`

// workers is what the tab holds of service workers (workersJS), or why it could not be read.
func workers(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](workersJS, chromedp.EvalAwaitPromise))
	if err != nil {
		return "unreadable: " + err.Error()
	}
	return s
}

// waitWorkersGone waits until the tab has no service worker registered, or fails the test
// saying which remain, whether one controls the tab, and what the page says.
func waitWorkersGone(t *testing.T, ctx context.Context, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	last := ""
	for {
		s := workers(ctx)
		if s != last {
			t.Logf("%s: %s", time.Now().Format("15:04:05.000"), s)
			last = s
		}
		var st struct {
			Registrations []any `json:"registrations"`
		}
		if json.Unmarshal([]byte(s), &st) == nil && len(st.Registrations) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the squatter's worker gone: not after %v; the tab holds %s; the page says:\n%s", wait, s, pageText(ctx))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// pageText is what the page says, or why it could not be read.
func pageText(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		return "unreadable: " + err.Error()
	}
	return s
}

// navigate loads url in the tab, as a person would, and waits for its load, at most 30 seconds.
func navigate(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	nctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(nctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("load %s: %v; the tab holds %s", url, err, workers(ctx))
	}
}
