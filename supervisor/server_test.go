package supervisor

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/runtimedir"
)

const stopInput = `{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done"}`

// shortDir returns a directory whose paths fit a unix socket address.
func shortDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "hs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func startServer(t *testing.T, h Handler) (*Server, string) {
	t.Helper()
	dir := shortDir(t)
	srv, err := Listen(filepath.Join(dir, "s.sock"), "secret", nil)
	if err != nil {
		t.Fatal(err)
	}
	srv.HandleDefault(h)
	ctx, cancel := context.WithCancel(context.Background())
	go srv.Serve(ctx)
	t.Cleanup(func() { cancel(); srv.Close() })
	return srv, dir
}

// runClient runs the real hook client against env and returns exit, stdout and the log text.
func runClient(t *testing.T, env map[string]string, event, input string) (int, string, string) {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "hooksup.log")
	env[hooks.EnvLog] = logPath
	var out, errb bytes.Buffer
	code := hooks.Client{Getenv: func(k string) string { return env[k] }}.Run(event, strings.NewReader(input), &out, &errb)
	if errb.Len() > 0 {
		t.Errorf("the hook client wrote to stderr: %q", errb.String())
	}
	logText, _ := os.ReadFile(logPath)
	return code, out.String(), string(logText)
}

func TestHookClientRelaysTheSupervisorsAnswer(t *testing.T) {
	var got *hooks.Input
	srv, _ := startServer(t, func(_ context.Context, in *hooks.Input) ([]byte, int) {
		got = in
		return hooks.Answer{Decision: hooks.Block, Reason: "tests fail"}.Encode()
	})
	code, out, logText := runClient(t, map[string]string{hooks.EnvSocket: srv.Path, hooks.EnvToken: "secret"}, "Stop", stopInput)
	if code != 0 || out != `{"decision":"block","reason":"tests fail"}`+"\n" {
		t.Fatalf("exit %d stdout %q", code, out)
	}
	if got == nil || got.LastAssistantMessage != "done" || got.HookEventName != "Stop" {
		t.Fatalf("server saw %+v", got)
	}
	if logText != "" {
		t.Fatalf("log on the happy path: %q", logText)
	}
}

// Whatever is wrong on hooksup's side, claude gets exit 0 and nothing on stdout, at once, and
// the log says why.
func TestHookClientFailsOpen(t *testing.T) {
	srv, dir := startServer(t, func(context.Context, *hooks.Input) ([]byte, int) {
		return hooks.Answer{Decision: hooks.Block, Reason: "x"}.Encode()
	})
	// A listener that accepts and hangs up without answering: a supervisor that died mid-call.
	dropPath := filepath.Join(dir, "drop.sock")
	ln, err := net.Listen("unix", dropPath)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 10)
			c.Read(buf)
			c.Close()
		}
	}()
	for _, tc := range []struct {
		name, sock, token, wantLog string
	}{
		{"no socket", filepath.Join(dir, "missing.sock"), "secret", "unreachable"},
		{"wrong token", srv.Path, "wrong", "refused the call (token)"},
		{"missing token", srv.Path, "", "refused the call (token)"},
		{"dropped connection", dropPath, "secret", "gave no answer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			code, out, logText := runClient(t, map[string]string{hooks.EnvSocket: tc.sock, hooks.EnvToken: tc.token}, "Stop", stopInput)
			if code != 0 || out != "" {
				t.Fatalf("exit %d stdout %q: not failing open", code, out)
			}
			if !strings.Contains(logText, tc.wantLog) || !strings.Contains(logText, "(allowed)") {
				t.Fatalf("log %q lacks %q", logText, tc.wantLog)
			}
			if strings.Contains(logText, "secret") {
				t.Fatal("the token leaked into the log")
			}
			t.Logf("answered in %v", time.Since(start))
		})
	}
}

func TestHookClientWithoutSupervisorAllows(t *testing.T) {
	code, out, _ := runClient(t, map[string]string{}, "Stop", stopInput)
	if code != 0 || out != "" {
		t.Fatalf("exit %d stdout %q", code, out)
	}
}

func TestServerRefusesOversizedInput(t *testing.T) {
	called := false
	srv, _ := startServer(t, func(context.Context, *hooks.Input) ([]byte, int) { called = true; return nil, 0 })
	c, err := net.Dial("unix", srv.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Claim a huge payload but send only the header: the refusal must come without the body.
	c.Write([]byte("HOOKSUP/1 secret Stop 999999999\n"))
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	buf := make([]byte, 100)
	n, _ := c.Read(buf)
	if !strings.HasPrefix(string(buf[:n]), "HOOKSUP/1 size") {
		t.Fatalf("got %q", buf[:n])
	}
	if called {
		t.Fatal("handler ran")
	}
}

func TestSocketAndDirArePrivateUnderPermissiveUmask(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	base := shortDir(t)
	dir, err := runtimedir.Dir(func(k string) string {
		if k == "XDG_RUNTIME_DIR" {
			return base
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Listen(filepath.Join(dir, "x.sock"), "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for path, want := range map[string]os.FileMode{dir: 0o700, srv.Path: 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s has mode %o, want %o", path, fi.Mode().Perm(), want)
		}
	}
}

func TestListenReplacesStaleSocketButNotLiveOne(t *testing.T) {
	dir := shortDir(t)
	path := filepath.Join(dir, "s.sock")
	// A stale socket file: bound once, listener gone without unlinking.
	ln, _ := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	ln.SetUnlinkOnClose(false)
	ln.Close()
	srv, err := Listen(path, "t", nil)
	if err != nil {
		t.Fatalf("stale socket not replaced: %v", err)
	}
	defer srv.Close()
	if _, err := Listen(path, "t", nil); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("live socket taken over: %v", err)
	}
}

func TestServerCloseRemovesSocket(t *testing.T) {
	dir := shortDir(t)
	srv, err := Listen(filepath.Join(dir, "s.sock"), "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(context.Background())
	srv.Close()
	if _, err := os.Stat(srv.Path); !os.IsNotExist(err) {
		t.Fatalf("socket left behind: %v", err)
	}
}
