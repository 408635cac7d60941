package supervisor

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/hooks"
)

// Whatever a crash left at the socket path — a socket nobody listens on, a plain file, a
// symlink to somewhere else — is removed (only the link, never its target) and the new socket
// serves.
func TestListenReplacesWhatACrashLeftBehind(t *testing.T) {
	dir := shortDir(t)
	target := filepath.Join(dir, "precious")
	if err := os.WriteFile(target, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, leave := range map[string]func(path string) error{
		"stale socket": func(p string) error {
			ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: p, Net: "unix"})
			if err != nil {
				return err
			}
			ln.SetUnlinkOnClose(false)
			return ln.Close()
		},
		"plain file":      func(p string) error { return os.WriteFile(p, []byte("x"), 0o600) },
		"symlink":         func(p string) error { return os.Symlink(target, p) },
		"dangling link":   func(p string) error { return os.Symlink(filepath.Join(dir, "nowhere"), p) },
		"empty directory": func(p string) error { return os.Mkdir(p, 0o700) },
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, "s.sock")
			os.RemoveAll(path)
			if err := leave(path); err != nil {
				t.Fatal(err)
			}
			srv, err := Listen(path, "tok", nil)
			if err != nil {
				t.Fatalf("the leftover was not replaced: %v", err)
			}
			srv.HandleDefault(func(context.Context, *hooks.Input) ([]byte, int) {
				return hooks.Answer{Decision: hooks.Block, Reason: "served"}.Encode()
			})
			ctx, cancel := context.WithCancel(context.Background())
			go srv.Serve(ctx)
			defer func() { cancel(); srv.Close() }()
			code, out, logText := runClient(t, map[string]string{hooks.EnvSocket: path, hooks.EnvToken: "tok"}, "Stop", stopInput)
			if code != 0 || !strings.Contains(out, "served") {
				t.Fatalf("exit %d stdout %q log %q", code, out, logText)
			}
			if b, err := os.ReadFile(target); err != nil || string(b) != "keep" {
				t.Fatalf("the symlink's target was touched: %q %v", b, err)
			}
		})
	}
}

// A directory that is not empty at the socket path is not ours to remove: a clear error.
func TestListenRefusesANonEmptyDirectory(t *testing.T) {
	dir := shortDir(t)
	path := filepath.Join(dir, "s.sock")
	os.Mkdir(path, 0o700)
	os.WriteFile(filepath.Join(path, "f"), nil, 0o600)
	if _, err := Listen(path, "tok", nil); err == nil || !strings.Contains(err.Error(), "remove stale socket") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(path, "f")); err != nil {
		t.Fatal("its content was removed")
	}
}
