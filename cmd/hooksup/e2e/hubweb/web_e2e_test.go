package hubweb

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/web"

	"github.com/skip2/go-qrcode"
)

// hooksup web over a live session: the API token (hooksup web token) is kept 0600 and the same
// across restarts, and never printed in the URL; the API lists the session with it only; a
// write from another origin is refused; the printed code pairs once; a cookie is no
// credential; curl with the token reaches the session.
func TestWebServesTheSessionsToTheTokenOnly(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	ls := s.StartLive(s.Config(`mode = "auto"`), agentsim.Scenario{WorkDelay: agentsim.Duration{Duration: 10 * time.Minute}}, nil, "-p", "go")
	ls.WaitReady()
	w := e2e.StartWeb(t, s)
	if fi, err := os.Stat(filepath.Join(s.StateDir(), web.TokenFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the token file: %v %v", fi, err)
	}
	if resp, body := w.Do(t, "GET", "/api/sessions", "", nil); resp.StatusCode != 401 || strings.Contains(body, s.Project) {
		t.Fatalf("no token: %d %s", resp.StatusCode, body)
	}
	bearer := map[string]string{"Authorization": "Bearer " + w.Token}
	var list []web.Session
	deadline := time.Now().Add(30 * time.Second)
	for len(list) == 0 {
		resp, body := w.Do(t, "GET", "/api/sessions", "", bearer)
		if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &list) != nil {
			t.Fatalf("with the token: %d %s", resp.StatusCode, body)
		}
		if time.Now().After(deadline) {
			t.Fatal("the session is never listed")
		}
	}
	sess := list[0]
	if len(list) != 1 || sess.Cwd != s.Project || sess.Agent != "claude" || sess.PID != ls.Cmd.Process.Pid {
		t.Fatalf("sessions: %+v", list)
	}
	approve := "/api/sessions/" + sess.ID + "/approve"
	resp, body := w.Do(t, "POST", approve, "", bearer)
	if resp.StatusCode != 409 || !strings.Contains(body, "has no pending question") {
		t.Fatalf("approve with nothing pending: %d %s", resp.StatusCode, body)
	}
	resp, body = w.Do(t, "POST", approve, "", map[string]string{"Authorization": "Bearer " + w.Token, "Origin": "http://evil.example"})
	if resp.StatusCode != 403 {
		t.Fatalf("cross-origin approve: %d %s", resp.StatusCode, body)
	}
	// The printed link's code pairs a device key once, and gives no token; the device's
	// login reads and writes the API; the code again pairs nothing. A cookie, even one holding
	// the API token, is no credential.
	dev := w.Device(t)
	if status, body, err := dev.Pair(w.Code, ""); status != 200 || err != nil || strings.Contains(body, "token") {
		t.Fatalf("pairing with the printed code: %d %s %v", status, body, err)
	}
	if status, body, _ := w.Device(t).Pair(w.Code, ""); status != 401 {
		t.Fatalf("the printed code a second time: %d %s", status, body)
	}
	if status, body, _ := dev.Login(); status != 200 || len(dev.Token) != 64 || dev.Token == w.Token {
		t.Fatalf("the device's login: %d %s", status, body)
	}
	if resp, body := w.Do(t, "POST", approve, "", map[string]string{"Authorization": "Bearer " + dev.Token}); resp.StatusCode != 409 {
		t.Fatalf("approve with the device's login: %d %s", resp.StatusCode, body)
	}
	if resp, body := w.Do(t, "GET", "/api/sessions", "", map[string]string{"Cookie": "hooksup=" + w.Token}); resp.StatusCode != 401 {
		t.Fatalf("a cookie holding the API token: %d %s", resp.StatusCode, body)
	}
	if curl, err := exec.LookPath("curl"); err == nil {
		out, err := exec.Command(curl, "-sS", "-X", "POST", "-H", "Authorization: Bearer "+w.Token, "-w", " %{http_code}",
			strings.TrimSuffix(w.Base, "/")+"/api/sessions/"+sess.ID+"/interrupt").CombinedOutput()
		if err != nil || !strings.HasSuffix(string(out), " 200") || !strings.Contains(string(out), "interrupt") {
			t.Fatalf("curl interrupt: %v %s", err, out)
		}
	}

	// A restart keeps the token; --new-token replaces it.
	w.Cmd.Process.Kill()
	w.Cmd.Wait()
	if again := e2e.StartWeb(t, s); again.Token != w.Token {
		t.Fatalf("restarted with token %q, was %q", again.Token, w.Token)
	} else {
		again.Cmd.Process.Kill()
		again.Cmd.Wait()
	}
	if renewed := e2e.StartWeb(t, s, "--new-token"); renewed.Token == w.Token {
		t.Fatal("--new-token kept the token")
	}
}

// Listening beyond loopback without TLS, and on a port in use, are errors that name the way out.
func TestWebRefusesPlainHTTPBeyondLoopbackAndABusyPort(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	code, out := s.Hooksup(t, "web", "--listen", ":0")
	if code != 2 || !strings.Contains(out, "--tls-cert") || !strings.Contains(out, "--"+web.PlainHTTPFlag) {
		t.Fatalf("web --listen :0: exit %d\n%s", code, out)
	}
	w := e2e.StartWeb(t, s)
	u, _ := url.Parse(w.Base)
	code, out = s.Hooksup(t, "web", "--listen", u.Host)
	if code != 1 || !strings.Contains(out, u.Host+" is in use") || !strings.Contains(out, "--listen") {
		t.Fatalf("web on a busy port: exit %d\n%s", code, out)
	}
}

// In a terminal, hooksup web on loopback alone prints its URL for this machine's browser and
// no QR code (a phone's camera would open the phone's own 127.0.0.1): it says a phone needs
// --public-url. With --public-url it prints a QR code of the URL it prints, for a phone's
// camera: the code of exactly that URL, pairing code included. Into a pipe it prints the URL
// alone.
func TestWebPrintsTheURLAsAQRCodeInATerminal(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	env := append(append([]string{}, s.Env...), "TERM=xterm-256color")
	loop := e2e.StartTmux(t, 120, 60, env, s.Project, e2e.HooksupBin, "web", "--listen", "127.0.0.1:0")
	scr := loop.WaitText(30*time.Second, "#pair=", "Ctrl-C stops")
	if !strings.Contains(scr, "http://127.0.0.1:") || strings.ContainsAny(scr, "▀▄█") ||
		!strings.Contains(strings.Join(strings.Fields(scr), " "), "a phone needs --public-url") {
		t.Fatalf("hooksup web on loopback alone, in a terminal:\n%s", scr)
	}

	tm := e2e.StartTmux(t, 120, 60, env, s.Project, e2e.HooksupBin, "web", "--listen", "127.0.0.1:0", "--public-url", "https://box.tailnet.ts.net/")
	scr = tm.WaitText(30*time.Second, "#pair=", "Ctrl-C stops")
	var link string
	for _, l := range strings.Split(scr, "\n") {
		if u, ok := strings.CutPrefix(strings.TrimSpace(l), "https://"); ok {
			link = "https://" + u
		}
	}
	if !strings.HasPrefix(link, "https://box.tailnet.ts.net/#pair=") || strings.Contains(scr, "needs --public-url") {
		t.Fatalf("no --public-url URL on the screen:\n%s", scr)
	}
	// The modules on the screen are the link's QR code, quiet zone and all: read back from the
	// half blocks (a dark module is the colour of the block's foreground).
	q, err := qrcode.New(link, qrcode.Low)
	if err != nil {
		t.Fatal(err)
	}
	want := q.Bitmap()
	var rows []string
	for _, l := range strings.Split(scr, "\n") {
		if strings.ContainsAny(l, "▀▄█") {
			rows = append(rows, l)
		}
	}
	var got [][]bool
	for _, r := range rows {
		cells := []rune(r) // the quiet zone's last columns are spaces, which capture-pane trims
		for len(cells) < len(want[0]) {
			cells = append(cells, ' ')
		}
		top, bottom := make([]bool, len(want[0])), make([]bool, len(want[0]))
		for x := range want[0] {
			c := cells[x]
			top[x], bottom[x] = c == '█' || c == '▀', c == '█' || c == '▄'
		}
		got = append(got, top, bottom)
	}
	// The quiet zone's first and last rows are all light, so they show as spaces: the rows
	// with blocks are those between.
	inner := want[4 : len(want)-4]
	start := -1
	for i := 0; i+len(inner) <= len(got); i++ {
		match := true
		for j := range inner {
			if fmt.Sprint(got[i+j]) != fmt.Sprint(inner[j]) {
				match = false
				break
			}
		}
		if match {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatalf("the screen does not show the QR code of %s:\n%s", link, scr)
	}
	for _, r := range want[:4] {
		for _, dark := range r {
			if dark {
				t.Fatal("the QR code's quiet zone has a dark module")
			}
		}
	}
	// Its own colours, black on white, whatever the terminal's: every QR line sets them.
	// (capture-pane -e writes a colour where it changes: once before the code, and no change
	// until its end).
	colour := tm.ScreenEscapes()
	first, last := strings.IndexAny(colour, "▀▄█"), strings.LastIndexAny(colour, "▀▄█")
	set := strings.LastIndex(colour[:max(first, 0)], "\x1b[38;5;16m\x1b[48;5;231m")
	if first < 0 || set < 0 || strings.Contains(colour[set:last], "\x1b[0m") || strings.Contains(colour[set:last], "\x1b[39m") ||
		strings.Contains(colour[set:last], "\x1b[49m") {
		t.Fatalf("the QR code is not drawn black on white of its own:\n%q", colour)
	}
	out := filepath.Join(s.Project, "web.out")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := e2e.ExecHooksup(s, "web", "--listen", "127.0.0.1:0")
	cmd.Stdout = f
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(out)
		if strings.Contains(string(b), "Ctrl-C stops") {
			if strings.ContainsAny(string(b), "▀▄█") {
				t.Fatalf("a QR code into a file:\n%s", b)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("hooksup web wrote into a file:\n%s", b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Beyond loopback hooksup web serves HTTPS with --tls-cert and --tls-key, or plain HTTP with
// --plain-http; either way every API request still needs the token.
func TestWebServesTLSOrPlainHTTPWhenTold(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "hooksup test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalECPrivateKey(key)
	certFile, keyFile := filepath.Join(s.Project, "cert.pem"), filepath.Join(s.Project, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)

	w := e2e.StartWeb(t, s, "--tls-cert", certFile, "--tls-key", keyFile)
	if !strings.HasPrefix(w.Base, "https://127.0.0.1:") {
		t.Fatalf("with TLS, the URL %s", w.Base)
	}
	pool := x509.NewCertPool()
	parsed, _ := x509.ParseCertificate(der)
	pool.AddCert(parsed)
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	for tok, want := range map[string]int{"": 401, w.Token: 200} {
		r, _ := http.NewRequest("GET", w.Base+"api/sessions", nil)
		if tok != "" {
			r.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := c.Do(r)
		if err != nil {
			t.Fatalf("HTTPS: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("HTTPS with token %q: %d, want %d", tok, resp.StatusCode, want)
		}
	}
	if resp, err := http.Get(strings.Replace(w.Base, "https://", "http://", 1) + "api/sessions"); err == nil && resp.StatusCode == 200 {
		t.Fatal("plain HTTP answered on the TLS port")
	}

	plain := e2e.StartWebIn(t, s.Project, s.Env, "--listen", "0.0.0.0:0", "--"+web.PlainHTTPFlag)
	u, _ := url.Parse(plain.Base)
	if host, _ := os.Hostname(); u.Hostname() != host {
		t.Fatalf("listening on every interface, the URL %s names not this machine (%s)", plain.Base, host)
	}
	port := u.Port()
	resp, err := http.Get("http://127.0.0.1:" + port + "/api/sessions")
	if err != nil || resp.StatusCode != 401 {
		t.Fatalf("--plain-http without the token: %v %v", resp, err)
	}
	resp.Body.Close()
}
