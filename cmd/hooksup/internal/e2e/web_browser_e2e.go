package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hooksup/hooksup/web"
)

// RequireChromium is the headless browser the page's tests drive; CI installs it.
func RequireChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed (CI must install it)")
	}
	t.Skip("chromium is not installed")
	return ""
}

// Browser is a headless Chromium with one tab, at width×height.
func Browser(t *testing.T, width, height int) context.Context {
	t.Helper()
	bin := RequireChromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.WindowSize(width, height), chromedp.Flag("disable-gpu", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelA() })
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// PermissionPage opens hooksup web's page for the sessions whose runtime directory is runDir,
// served from another terminal, in a headless Chromium the size of a phone, and waits up to wait
// for the card's permission question naming command.
func PermissionPage(t *testing.T, runDir, command string, wait time.Duration) context.Context {
	t.Helper()
	home, env := OtherTerminal(t, runDir)
	w := StartWebIn(t, home, env)
	ctx := Browser(t, 375, 800)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	cmd, _ := json.Marshal(command)
	EvalUntil(t, ctx, wait, "the card's permission question",
		`[...document.querySelectorAll(".question.permission pre.command")].some(e => e.textContent === `+string(cmd)+`)`)
	return ctx
}

// Click clicks the first element matching the CSS selector sel in the page, as a tap does.
func Click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	js, _ := json.Marshal(sel)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector(`+string(js)+`).click(), true`)); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

// EvalUntil evaluates js in the page until it returns true, or fails the test after wait.
func EvalUntil(t *testing.T, ctx context.Context, wait time.Duration, what, js string, opts ...chromedp.EvaluateOption) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		// An exception is "not yet": the page may be loading itself again (to log in anew), and
		// what js reads is not there for a moment.
		// Each evaluation is bounded too: a promise js awaits may never settle.
		ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
		ok, err := chromedp.Run(ectx, chromedp.Evaluate[bool](js, opts...))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
			body, _ := chromedp.Run(ectx, chromedp.Evaluate[string](`document.body.innerText`))
			cancel()
			t.Fatalf("%s: not after %v (%v); the page says:\n%s", what, wait, err, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Artefact is where a test keeps a file for people to look at: $HOOKSUP_ARTEFACTS, else the
// system's temporary directory.
func Artefact(name string) string {
	dir := os.Getenv("HOOKSUP_ARTEFACTS")
	if dir == "" {
		dir = os.TempDir()
	}
	return filepath.Join(dir, name)
}

// WebSessions is GET /api/sessions with the token.
func WebSessions(t *testing.T, w *WebServer) []web.Session {
	t.Helper()
	resp, body := w.Do(t, "GET", "/api/sessions", "", map[string]string{"Authorization": "Bearer " + w.Token})
	var list []web.Session
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &list) != nil {
		t.Fatalf("GET /api/sessions: %d %s", resp.StatusCode, body)
	}
	return list
}
