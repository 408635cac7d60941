package hubweb

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/internal/webtest"
	"github.com/hooksup/hooksup/web"
)

// accepted reports whether w's server takes code as a pairing code (a used, expired or
// unknown code is 401).
func accepted(t *testing.T, w *e2e.WebServer, code string) bool {
	t.Helper()
	status, body, err := w.Device(t).Pair(code, "")
	if err != nil {
		t.Fatal(err)
	}
	if status == http.StatusUnauthorized {
		return false
	}
	if status >= 500 {
		t.Fatalf("pairing: %d %s", status, body)
	}
	return true
}

// stopWeb stops w as Ctrl-C does and waits for it to exit.
func stopWeb(t *testing.T, w *e2e.WebServer) {
	t.Helper()
	if err := w.Cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- w.Cmd.Wait() }()
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
	t.Parallel()
	s := e2e.NewSandbox(t)
	first := e2e.StartWeb(t, s)
	second := e2e.StartWeb(t, s)
	listenOf := func(w *e2e.WebServer) string { u, _ := url.Parse(w.Base); return u.Host }

	code, out := s.Hooksup(t, "web", "pair")
	links := e2e.PairLinks(out)
	if code != 0 || len(links) != 2 || links[first.Base] == "" || links[second.Base] == "" ||
		!strings.Contains(out, listenOf(first)) || !strings.Contains(out, listenOf(second)) ||
		!strings.Contains(out, "--listen") {
		t.Fatalf("web pair with two servers: exit %d\n%s", code, out)
	}
	if !accepted(t, first, links[first.Base]) || !accepted(t, second, links[second.Base]) {
		t.Fatalf("a code web pair printed is refused by its server:\n%s", out)
	}

	code, out = s.Hooksup(t, "web", "pair", "--listen", listenOf(second))
	if links := e2e.PairLinks(out); code != 0 || len(links) != 1 || links[second.Base] == "" {
		t.Fatalf("web pair --listen %s: exit %d\n%s", listenOf(second), code, out)
	}
	code, out = s.Hooksup(t, "web", "pair", "--listen", "127.0.0.1:1")
	if code != 1 || !strings.Contains(out, listenOf(first)) || !strings.Contains(out, listenOf(second)) || strings.Contains(out, "#pair=") {
		t.Fatalf("web pair --listen for no running server: exit %d\n%s", code, out)
	}

	// The second server stops: the first is still paired with.
	stopWeb(t, second)
	code, out = s.Hooksup(t, "web", "pair")
	links = e2e.PairLinks(out)
	if code != 0 || len(links) != 1 || links[first.Base] == "" {
		t.Fatalf("web pair once the second server stopped: exit %d\n%s", code, out)
	}
	if !accepted(t, first, links[first.Base]) {
		t.Fatalf("the first server refuses the code web pair printed:\n%s", out)
	}

	// Killed, the first leaves its file behind: web pair says it is gone, and then forgets it.
	first.Cmd.Process.Signal(syscall.SIGKILL)
	first.Cmd.Wait()
	if code, out := s.Hooksup(t, "web", "pair"); code != 1 || !strings.Contains(out, "is gone") || !strings.Contains(out, listenOf(first)) || strings.Contains(out, "#pair=") {
		t.Fatalf("web pair after the server was killed: exit %d\n%s", code, out)
	}
	if code, out := s.Hooksup(t, "web", "pair"); code != 1 || !strings.Contains(out, "no hooksup web is running") {
		t.Fatalf("web pair a second time after the server was killed: exit %d\n%s", code, out)
	}
	if left, _ := os.ReadDir(filepath.Join(s.StateDir(), web.ServersDir)); len(left) != 0 {
		t.Fatalf("files left in %s: %v", web.ServersDir, left)
	}
}

// hooksup web devices tells two browsers of one kind apart: each row has its id, when it was
// paired and last seen, and the address it was last seen from. GET /api/devices lists them
// too, without their hashes, the one asking marked "this".
func TestWebDevicesTellsPairedBrowsersApart(t *testing.T) {
	t.Parallel()
	const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
	s := e2e.NewSandbox(t)
	w := e2e.StartWeb(t, s)
	_, out := s.Hooksup(t, "web", "pair")
	codes := []string{w.Code, e2e.PairLinks(out)[w.Base]}
	var devices []*webtest.Device
	var sends []func(method, path, body, auth string) (int, string) // each device's, from its address
	for i, from := range []string{"127.0.0.1", "127.0.0.2"} {
		// A client from its own loopback address, as two machines behind one are not.
		dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
		c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: dialer.DialContext}}
		send := func(method, path, body, auth string) (int, string) {
			r, _ := http.NewRequest(method, strings.TrimSuffix(w.Base, "/")+path, strings.NewReader(body))
			r.Header.Set("User-Agent", chrome)
			if auth != "" {
				r.Header.Set("Authorization", "Bearer "+auth)
			}
			resp, err := c.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		d := w.Device(t)
		d.Client = c
		if code, body, err := d.Pair(codes[i], ""); code != http.StatusOK || err != nil {
			t.Fatalf("pairing from %s: %d %s %v", from, code, body, err)
		}
		if code, body, err := d.Login(); code != http.StatusOK || err != nil {
			t.Fatalf("login from %s: %d %s %v", from, code, body, err)
		}
		if code, body := send("GET", "/api/sessions", "", d.Token); code != http.StatusOK {
			t.Fatalf("the device from %s: %d %s", from, code, body)
		}
		devices, sends = append(devices, d), append(sends, send)
	}

	code, out := s.Hooksup(t, "web", "devices")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.Contains(lines[0], "LAST SEEN") || !strings.HasSuffix(lines[0], "FROM") {
		t.Fatalf("web devices: exit %d\n%s", code, out)
	}
	for i, from := range []string{"127.0.0.1", "127.0.0.2"} {
		row := strings.Fields(lines[i+1])
		if row[0] != devices[i].ID || !strings.Contains(lines[i+1], "Chrome on Linux") || row[len(row)-1] != from {
			t.Fatalf("web devices, the device paired from %s (%s):\n%s", from, devices[i].ID, out)
		}
	}

	type listed struct {
		ID       string    `json:"id"`
		Name     string    `json:"name"`
		Created  time.Time `json:"created"`
		LastSeen time.Time `json:"last_seen"`
		LastAddr string    `json:"last_addr"`
		This     bool      `json:"this"`
	}
	for _, asker := range []struct{ token, this string }{{devices[1].Token, devices[1].ID}, {devices[0].Token, devices[0].ID}, {w.Token, ""}} {
		send := sends[0]
		if asker.this == devices[1].ID {
			send = sends[1]
		}
		code, body := send("GET", "/api/devices", "", asker.token)
		var got []listed
		if code != http.StatusOK || json.Unmarshal([]byte(body), &got) != nil || len(got) != 2 || strings.Contains(body, "sha256") || strings.Contains(body, devices[0].PublicKey()) {
			t.Fatalf("GET /api/devices: %d %s", code, body)
		}
		for i, d := range got {
			if d.ID != devices[i].ID || d.Name != "Chrome on Linux" || d.Created.IsZero() || d.LastSeen.Before(d.Created) ||
				d.LastAddr != []string{"127.0.0.1", "127.0.0.2"}[i] || d.This != (d.ID == asker.this) {
				t.Fatalf("GET /api/devices as %q: %s", asker.this, body)
			}
		}
	}
	if resp, body := w.Do(t, "GET", "/api/devices", "", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("GET /api/devices without a token: %d %s", resp.StatusCode, body)
	}
}
