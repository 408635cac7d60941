package main

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/web"
)

// pairLinks are the pairing links hooksup web pair printed, by the page's URL they open.
func pairLinks(out string) map[string]string {
	links := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if base, code, ok := strings.Cut(l, "#pair="); ok && (strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")) {
			links[base] = code
		}
	}
	return links
}

// accepted reports whether w's server takes code as a pairing code (a used, expired or
// unknown code is 401).
func accepted(t *testing.T, w *webServer, code string) bool {
	t.Helper()
	resp, body := w.do(t, "POST", "/api/pair", `{"code": "`+code+`"}`, nil)
	if resp.StatusCode == http.StatusUnauthorized {
		return false
	}
	if resp.StatusCode >= 500 {
		t.Fatalf("pairing: %d %s", resp.StatusCode, body)
	}
	return true
}

// stopWeb stops w as Ctrl-C does and waits for it to exit.
func stopWeb(t *testing.T, w *webServer) {
	t.Helper()
	if err := w.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- w.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("hooksup web did not stop on SIGINT")
	}
}

// hooksup web pair with two servers running prints a link for each, naming which is which, and
// each link's code pairs with its server; --listen picks one. Once one server stops, pair
// prints the other's link; once the other is killed, pair says it is gone and forgets it.
func TestWebPairPrintsALinkForEachRunningServer(t *testing.T) {
	s := newSandbox(t)
	first := startWeb(t, s)
	second := startWeb(t, s)
	listenOf := func(w *webServer) string { u, _ := url.Parse(w.base); return u.Host }

	code, out := s.hooksup(t, "web", "pair")
	links := pairLinks(out)
	if code != 0 || len(links) != 2 || links[first.base] == "" || links[second.base] == "" ||
		!strings.Contains(out, listenOf(first)) || !strings.Contains(out, listenOf(second)) ||
		!strings.Contains(out, "--listen") {
		t.Fatalf("web pair with two servers: exit %d\n%s", code, out)
	}
	if !accepted(t, first, links[first.base]) || !accepted(t, second, links[second.base]) {
		t.Fatalf("a code web pair printed is refused by its server:\n%s", out)
	}

	code, out = s.hooksup(t, "web", "pair", "--listen", listenOf(second))
	if links := pairLinks(out); code != 0 || len(links) != 1 || links[second.base] == "" {
		t.Fatalf("web pair --listen %s: exit %d\n%s", listenOf(second), code, out)
	}
	code, out = s.hooksup(t, "web", "pair", "--listen", "127.0.0.1:1")
	if code != 1 || !strings.Contains(out, listenOf(first)) || !strings.Contains(out, listenOf(second)) || strings.Contains(out, "#pair=") {
		t.Fatalf("web pair --listen for no running server: exit %d\n%s", code, out)
	}

	// The second server stops: the first is still paired with.
	stopWeb(t, second)
	code, out = s.hooksup(t, "web", "pair")
	links = pairLinks(out)
	if code != 0 || len(links) != 1 || links[first.base] == "" {
		t.Fatalf("web pair once the second server stopped: exit %d\n%s", code, out)
	}
	if !accepted(t, first, links[first.base]) {
		t.Fatalf("the first server refuses the code web pair printed:\n%s", out)
	}

	// Killed, the first leaves its file behind: web pair says it is gone, and then forgets it.
	first.cmd.Process.Signal(syscall.SIGKILL)
	first.cmd.Wait()
	if code, out := s.hooksup(t, "web", "pair"); code != 1 || !strings.Contains(out, "is gone") || !strings.Contains(out, listenOf(first)) || strings.Contains(out, "#pair=") {
		t.Fatalf("web pair after the server was killed: exit %d\n%s", code, out)
	}
	if code, out := s.hooksup(t, "web", "pair"); code != 1 || !strings.Contains(out, "no hooksup web is running") {
		t.Fatalf("web pair a second time after the server was killed: exit %d\n%s", code, out)
	}
	if left, _ := os.ReadDir(filepath.Join(s.stateDir(), web.ServersDir)); len(left) != 0 {
		t.Fatalf("files left in %s: %v", web.ServersDir, left)
	}
}
