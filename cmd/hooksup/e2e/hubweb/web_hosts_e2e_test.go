package hubweb

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/web"
)

// getAs is GET path on w's server with the Host header host (the address a browser would have
// in its address bar) and the API token.
func getAs(t *testing.T, w *e2e.WebServer, host, path string) (int, string) {
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

// Listening on every interface (--listen 0.0.0.0:PORT), hooksup web answers to each address
// of this machine, as curl http://<its LAN address>:PORT/ asks, and to its name; any other
// name is still 421.
func TestWebOnEveryInterfaceAnswersThisMachinesAddresses(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	for _, listen := range []string{"0.0.0.0:0", "[::]:0"} {
		w := e2e.StartWeb(t, s, "--listen", listen, "--"+web.PlainHTTPFlag)
		u, err := url.Parse(w.Base)
		if err != nil {
			t.Fatal(err)
		}
		port := u.Port()
		w.Base = "http://127.0.0.1:" + port + "/"
		addrs, err := net.InterfaceAddrs()
		if err != nil {
			t.Fatal(err)
		}
		var dialed bool
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			if !ok || ipn.IP.IsLoopback() {
				continue
			}
			host := net.JoinHostPort(ipn.IP.String(), port)
			for _, path := range []string{"/", "/api/sessions"} {
				if code, body := getAs(t, w, host, path); code != http.StatusOK {
					t.Fatalf("--listen %s, Host: %s, GET %s: %d %s", listen, host, path, code, body)
				}
			}
			// And a real connection to that address, as from another machine on its network.
			if ipn.IP.IsGlobalUnicast() && !dialed {
				resp, err := (&http.Client{Timeout: 10 * time.Second}).Get("http://" + host + "/")
				if err != nil {
					t.Fatalf("--listen %s: GET http://%s/: %v", listen, host, err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("--listen %s: GET http://%s/: %s", listen, host, resp.Status)
				}
				dialed = true
			}
		}
		if !dialed {
			t.Logf("this machine has no address beyond loopback: only its name is tried")
		}
		name, _ := os.Hostname()
		if code, body := getAs(t, w, net.JoinHostPort(name, port), "/api/sessions"); code != http.StatusOK {
			t.Fatalf("--listen %s, Host: %s: %d %s", listen, name, code, body)
		}
		for _, host := range []string{"evil.example:" + port, "192.0.2.250:" + port, "[fd00::250]:" + port} {
			if code, body := getAs(t, w, host, "/"); code != http.StatusMisdirectedRequest {
				t.Fatalf("--listen %s, Host: %s: %d %s", listen, host, code, body)
			}
		}
	}
}

// --allow-host takes an IPv6 literal, bare or in brackets, and a request naming it (in the
// brackets a Host header has, in any of its spellings) is answered; a host with a port is
// refused, naming what the flag takes.
func TestWebAllowHostTakesIPv6Literals(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	w := e2e.StartWeb(t, s, "--allow-host", "fd00::5", "--allow-host", "[FD00::6]", "--allow-host", "::1")
	port := strings.TrimSuffix(w.Base[strings.LastIndex(w.Base, ":")+1:], "/")
	for _, host := range []string{"[fd00::5]:" + port, "[fd00::5]", "[fd00:0:0::6]:" + port, "[FD00::5]:" + port} {
		if code, body := getAs(t, w, host, "/api/sessions"); code != http.StatusOK {
			t.Fatalf("--allow-host fd00::5 [FD00::6], Host: %s: %d %s", host, code, body)
		}
	}
	if code, body := getAs(t, w, "[fd00::7]:"+port, "/api/sessions"); code != http.StatusMisdirectedRequest || !strings.Contains(body, "--allow-host fd00::7") {
		t.Fatalf("Host: [fd00::7] beside --allow-host fd00::5: %d %s", code, body)
	}
	for _, bad := range []string{"devbox.example:80", "[fd00::5]:80", "fd00::5%eth0", "http://devbox.example"} {
		if code, out := s.Hooksup(t, "web", "--listen", "127.0.0.1:0", "--allow-host", bad); code != 2 || !strings.Contains(out, "--allow-host takes") {
			t.Fatalf("--allow-host %s: exit %d\n%s", bad, code, out)
		}
	}
}
