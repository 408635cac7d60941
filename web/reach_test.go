package web

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The Authorization scheme is case-insensitive (RFC 9110 11.1); another scheme is a wrong
// credential, and none is no credential.
func TestBearerSchemeInAnyCase(t *testing.T) {
	for h, want := range map[string]string{
		"Bearer tok": "tok", "bearer tok": "tok", "BEARER tok": "tok", "bEaReR   tok ": "tok",
		"Basic tok": "Basic tok", "Bearer": "Bearer", "Bearertok": "Bearertok",
	} {
		r, _ := http.NewRequest("GET", "/", nil)
		r.Header.Set("Authorization", h)
		if got, has := bearer(r); !has || got != want {
			t.Errorf("Authorization: %q: %q %v, want %q", h, got, has, want)
		}
	}
	r, _ := http.NewRequest("GET", "/", nil)
	if got, has := bearer(r); has || got != "" {
		t.Errorf("no Authorization: %q %v", got, has)
	}
}

// HTTPServer's header bound is MaxHeaderBytes, not net/http's MaxHeaderBytes plus the 4096
// bytes it reads past it: a request whose header is MaxHeaderBytes long is answered, one a
// byte longer is 431; on a kept-alive connection too, where net/http counts less of it.
func TestHTTPServerBoundsTheHeaderAtMaxHeaderBytes(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := HTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	for size, want := range map[int]int{MaxHeaderBytes - 1: 200, MaxHeaderBytes: 200, MaxHeaderBytes + 1: 431, MaxHeaderBytes + 4096: 431} {
		head := "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Pad: "
		req := head + strings.Repeat("a", size-len(head)-4) + "\r\n\r\n"
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(c, req)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		c.Close()
		if err != nil {
			t.Fatalf("a header of %d bytes: %v", size, err)
		}
		if resp.StatusCode != want {
			t.Errorf("a header of %d bytes: %d, want %d", size, resp.StatusCode, want)
		}
	}
}

// An allowed IPv6 address is answered in any of its spellings; with LocalAddrs, so is every
// address of this machine's interfaces, and no other address or name.
func TestAllowedAddressesAndThisMachines(t *testing.T) {
	var local []string
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() {
			local = append(local, net.JoinHostPort(n.IP.String(), "7862"))
		}
	}
	for _, every := range []bool{false, true} {
		ts, _ := newTestServerWith(t, newFakeHub(), Options{AllowHosts: []string{"fd00::5", "[FD00::6]"}, LocalAddrs: every})
		want := map[string]int{"[fd00::5]:7862": 200, "[FD00:0:0::5]": 200, "[fd00::6]:1": 200, "[fd00::7]:7862": 421,
			"192.0.2.250:7862": 421, "evil.example": 421}
		for _, h := range local {
			want[h] = map[bool]int{false: 421, true: 200}[every]
		}
		for host, code := range want {
			r, _ := http.NewRequest("GET", ts.URL+"/api/sessions", nil)
			r.Host = host
			r.Header.Set("Authorization", "Bearer "+testToken)
			resp, err := ts.Client().Do(r)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != code {
				t.Errorf("LocalAddrs %v, Host %s: %d, want %d", every, host, resp.StatusCode, code)
			}
		}
	}
}

func TestHTTPServerBoundsTheHeaderOnAKeptAliveConnection(t *testing.T) {
	ts := httptest.NewUnstartedServer(nil)
	ts.Config = HTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	ts.Start()
	defer ts.Close()
	for i, kib := range []int{15, 17, 15, 17, 17, 15} {
		r, _ := http.NewRequest("GET", ts.URL, nil)
		r.Header.Set("X-Pad", strings.Repeat("a", kib<<10))
		resp, err := ts.Client().Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if want := map[int]int{15: 200, 17: 431}[kib]; resp.StatusCode != want {
			t.Errorf("request %d, a %d KiB field: %d, want %d", i+1, kib, resp.StatusCode, want)
		}
	}
}
