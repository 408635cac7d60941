package e2e

import (
	"bufio"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/internal/webtest"
)

// WebServer is a running hooksup web: its page's URL and pairing link, as it printed them, and
// the API token hooksup web token prints.
type WebServer struct {
	Cmd   *exec.Cmd
	Base  string // http://127.0.0.1:PORT/
	Link  string // the URL as printed, what a person opens: base#pair=CODE
	Code  string // the link's pairing code
	Token string
}

// StartWeb runs hooksup web on a free loopback port in s's environment and reads the URL it
// prints.
func StartWeb(t *testing.T, s *Sandbox, args ...string) *WebServer {
	t.Helper()
	return StartWebIn(t, s.Project, s.Env, args...)
}

// StartWebIn is startWeb in dir with env.
func StartWebIn(t *testing.T, dir string, env []string, args ...string) *WebServer {
	t.Helper()
	cmd := exec.Command(HooksupBin, append([]string{"web", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if l := strings.TrimSpace(sc.Text()); strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") {
				found <- l
			}
		}
		io.Copy(io.Discard, out)
	}()
	select {
	case line := <-found:
		u, err := url.Parse(line)
		if err != nil {
			t.Fatal(err)
		}
		code, ok := strings.CutPrefix(u.Fragment, "pair=")
		if !ok || code == "" || u.RawQuery != "" || strings.Contains(u.Path, code) {
			t.Fatalf("the URL %q does not carry a pairing code in its fragment alone", line)
		}
		u.Fragment = ""
		tc := exec.Command(HooksupBin, "web", "token")
		tc.Dir, tc.Env = dir, env
		tok, err := tc.Output()
		if err != nil || len(strings.TrimSpace(string(tok))) != 64 {
			t.Fatalf("hooksup web token: %v %q", err, tok)
		}
		if strings.Contains(line, strings.TrimSpace(string(tok))) {
			t.Fatalf("the printed URL %s carries the API token", line)
		}
		return &WebServer{Cmd: cmd, Base: u.String(), Link: line, Code: code, Token: strings.TrimSpace(string(tok))}
	case <-time.After(30 * time.Second):
		t.Fatal("hooksup web printed no URL")
	}
	return nil
}

// Device is a new browser device for w, not yet paired.
func (w *WebServer) Device(t *testing.T) *webtest.Device {
	t.Helper()
	d, err := webtest.NewDevice(w.Base)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func (w *WebServer) Do(t *testing.T, method, path, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	r, err := http.NewRequest(method, strings.TrimSuffix(w.Base, "/")+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		r.Header.Set(k, v)
	}
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}
