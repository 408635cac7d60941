package hubweb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/internal/pushtest"
)

// standInPush is the script that stands in for the browser's push service, which a Chromium
// offline cannot reach: PushManager's subscribe gives a subscription whose endpoint is the test's
// push service and whose keys the test holds, and keeps the key it was asked to subscribe with.
func standInPush(sub *pushtest.Subscriber) string {
	p, a := sub.Keys()
	return fmt.Sprintf(`(() => {
  const json = { endpoint: %q, expirationTime: null, keys: { p256dh: %q, auth: %q } };
  let current = null;
  PushManager.prototype.getSubscription = async function () { return current; };
  PushManager.prototype.subscribe = async function (opts) {
    const key = new Uint8Array(opts.applicationServerKey);
    let s = "";
    for (const b of key) s += String.fromCharCode(b);
    window.subscribedWith = btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    current = { endpoint: json.endpoint, options: { applicationServerKey: key.buffer }, toJSON: () => json,
      unsubscribe: async () => { current = null; return true; } };
    return current;
  };
})();`, sub.Endpoint, p, a)
}

// A person turns on "notify this device" in the page, in Chromium, with a push service standing
// in; a question then asked by a session in ask mode reaches that push service once, within 5 s,
// signed with the VAPID key the page subscribed with and encrypted to the device (verified and
// decrypted apart from hooksup's library), naming the session and nothing the agent said.
// Delivered to the page's push worker, it shows the notification, and what a tap opens is the
// page at that session's card. Every other worker is still removed by the page.
func TestWebPushNotifiesThisDevice(t *testing.T) {
	t.Parallel()
	ca, err := pushtest.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	roots, err := ca.WriteRoots(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := pushtest.NewService(ca)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	device, err := pushtest.NewSubscriber(svc, "/device")
	if err != nil {
		t.Fatal(err)
	}

	// A session whose stop asks the person; its second turn waits for the test.
	gate := filepath.Join(t.TempDir(), "turn")
	s := e2e.NewSandbox(t)
	runDir := ""
	for _, kv := range s.Env {
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			runDir = v
		}
	}
	self := e2e.SimAgentBin
	b, _ := json.Marshal(agentsim.Scenario{Prompts: []string{"one", "two", "three"}, TurnGate: gate})
	env := append(append([]string{}, s.Env...), "TERM=xterm-256color", e2e.EnvSimAgent+"=1", agentsim.EnvScenario+"="+string(b))
	tm := e2e.StartTmux(t, 120, 40, env, s.Project, e2e.HooksupBin, "--config", s.Config(e2e.AskCfg), "--claude-bin", self, "claude")
	tm.WaitText(30*time.Second, "⚑ claude wants to stop")
	home, webEnv := e2e.OtherTerminal(t, runDir)
	// The push service's CA is the system's roots for hooksup web, as a real one's is.
	w := e2e.StartWebIn(t, home, append(webEnv, "SSL_CERT_FILE="+roots, "SSL_CERT_DIR="))
	origin := strings.TrimSuffix(w.Base, "/")

	ctx := e2e.Browser(t, 800, 900)
	if _, err := chromedp.CallBrowser(ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
		Permission: &cdpbrowser.PermissionDescriptor{Name: "notifications"}, Setting: cdpbrowser.PermissionSettingGranted, Origin: origin}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: standInPush(device)}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	regs := map[string]serviceworker.RegistrationID{} // scope -> id
	chromedp.Listen(ctx, func(ev any) {
		var rs []*serviceworker.Registration
		switch e := ev.(type) {
		case *serviceworker.EventWorkerRegistrationUpdated:
			rs = e.Registrations
		case serviceworker.EventWorkerRegistrationUpdated:
			rs = e.Registrations
		}
		mu.Lock()
		defer mu.Unlock()
		for _, r := range rs {
			if r.IsDeleted {
				delete(regs, r.ScopeURL)
			} else {
				regs[r.ScopeURL] = r.RegistrationID
			}
		}
	})
	if _, err := chromedp.Call(ctx, serviceworker.Enable, struct{}{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	const wait = 20 * time.Second
	e2e.EvalUntil(t, ctx, wait, "the page signed in", `document.getElementById("conn").textContent === "live"`)
	e2e.EvalUntil(t, ctx, wait, "the notify button", `(() => { const b = document.getElementById("notify"); return !b.hidden && b.textContent === "notify this device" })()`)
	if err := chromedp.Do(ctx, chromedp.Click("#notify")); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, wait, "notifications on", `document.getElementById("notify").textContent === "notifications on · turn off"`)
	// The page subscribed with the server's VAPID key.
	hr, _ := http.NewRequest("GET", w.Base+"api/push/key", nil)
	hr.Header.Set("Authorization", "Bearer "+w.Token)
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	var key struct{ Key string }
	json.NewDecoder(resp.Body).Decode(&key)
	resp.Body.Close()
	e2e.EvalUntil(t, ctx, wait, "subscribed with the server's key", fmt.Sprintf(`window.subscribedWith === %q`, key.Key))

	// The question asked before the device subscribed is answered; the next one is pushed.
	if out, errOut, code := e2e.HubShell(t, runDir, "deny"); code != 0 {
		t.Fatalf("hooksup deny: %d %s %s", code, out, errOut)
	}
	if len(svc.Pushes("")) != 0 {
		t.Fatalf("pushed before a question: %d", len(svc.Pushes("")))
	}
	if err := os.WriteFile(gate+".2", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	pushes, ok := svc.Wait(30*time.Second, func(ps []pushtest.Push) bool { return len(ps) >= 1 })
	if !ok {
		t.Fatal("no push of the question")
	}
	push := pushes[0]
	out, _, _ := e2e.HubShell(t, runDir, "ls", "--json")
	var ls []struct {
		ID      string `json:"id"`
		Pending []struct {
			Asked time.Time `json:"asked"`
		} `json:"pending"`
	}
	if err := json.Unmarshal([]byte(out), &ls); err != nil || len(ls) != 1 || len(ls[0].Pending) != 1 {
		t.Fatalf("hooksup ls --json: %v\n%s", err, out)
	}
	id := ls[0].ID
	took := push.Arrived.Sub(ls[0].Pending[0].Asked)
	t.Logf("the push arrived %v after the question was asked", took.Round(time.Millisecond))
	if took > 5*time.Second {
		t.Errorf("the push took %v, over 5 s", took)
	}
	v, err := pushtest.VerifyVAPID(push.Header.Get("Authorization"))
	if err != nil {
		t.Fatal(err)
	}
	if v.Key != key.Key || v.Aud != svc.URL || v.Exp.After(time.Now().Add(24*time.Hour)) || v.Sub == "" {
		t.Errorf("VAPID %+v: want k=%s, aud %s, exp within 24 h", v, key.Key, svc.URL)
	}
	if push.Header.Get("Content-Encoding") != "aes128gcm" || push.Header.Get("TTL") == "" {
		t.Errorf("headers %v", push.Header)
	}
	plain, err := device.Decrypt(push.Body)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"id":"` + id + `","kind":"question"}`; string(plain) != want {
		t.Fatalf("payload %s, want %s", plain, want)
	}

	// The push, delivered to the page's worker, is a notification; a tap opens the page at the
	// session's card.
	var regID serviceworker.RegistrationID
	deadline := time.Now().Add(wait)
	for regID == "" {
		mu.Lock()
		regID = regs[origin+"/push/"]
		n := len(regs)
		mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no push worker registered for %s/push/ (%d registrations)", origin, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := chromedp.Call(ctx, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{
		Origin: origin, RegistrationID: regID, Data: string(plain)}); err != nil {
		t.Fatal(err)
	}
	url := "/#session=" + id
	// The worker is started for the push, on a loaded machine seconds later: waited for longer
	// than the page's steps, and what the worker and its notifications were said if it never
	// shows.
	shown := fmt.Sprintf(`navigator.serviceWorker.getRegistration("/push/").then(r => r.getNotifications()).then(ns =>
		ns.length === 1 && ns[0].title === "hooksup: a question waits" && ns[0].body === "session %s a question waits for you" &&
		ns[0].data.id === %q && ns[0].data.kind === "question" && ns[0].data.url === %q)`, id[:min(8, len(id))], id, url)
	delivered := time.Now()
	for {
		ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
		ok, err := chromedp.Run(ectx, chromedp.Evaluate[bool](shown, chromedp.EvalAwaitPromise))
		cancel()
		if err == nil && ok {
			break
		}
		if time.Since(delivered) > 45*time.Second {
			ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
			state, serr := chromedp.Run(ectx, chromedp.Evaluate[string](`navigator.serviceWorker.getRegistrations().then(rs => Promise.all(rs.map(r =>
				r.getNotifications().then(ns => JSON.stringify({scope: r.scope, active: r.active && r.active.state, waiting: !!r.waiting, installing: !!r.installing,
					notifications: ns.map(n => [n.title, n.body, n.data])}))))).then(a => a.join("\n"))`, chromedp.EvalAwaitPromise))
			cancel()
			t.Fatalf("no notification %v after the push was delivered to the worker (%v); the workers: %s (%v)", time.Since(delivered).Round(time.Millisecond), err, state, serr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("the notification shown %v after the push was delivered to the worker", time.Since(delivered).Round(time.Millisecond))
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil { // a tap opens a new window
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(origin+url)); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, wait, "the session's card, open", fmt.Sprintf(`(() => { const c = document.activeElement;
		return !!c && c.classList.contains("card") && c.dataset.key === %q && !!c.querySelector(".question") && location.hash === "" })()`, " "+id))
	// The push worker stays registered across loads of the page; it is the only worker.
	e2e.EvalUntil(t, ctx, wait, "only the push worker", `navigator.serviceWorker.getRegistrations().then(rs => rs.length === 1 && rs[0].scope === location.origin + "/push/")`, chromedp.EvalAwaitPromise)
	if n := len(svc.Pushes("")); n != 1 {
		t.Fatalf("%d pushes for one question", n)
	}
}
