package supervisor

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// RuntimeDir is the private directory for hooksup's sockets: $XDG_RUNTIME_DIR/hooksup, else
// hooksup-<uid> in this system's place for it (fallbackRuntimeBase). It is created 0700 and
// must be owned by this user and closed to others.
func RuntimeDir(getenv func(string) string) (string, error) {
	base := getenv("XDG_RUNTIME_DIR")
	name := "hooksup"
	if fi, err := os.Stat(base); base == "" || !filepath.IsAbs(base) || err != nil || !fi.IsDir() {
		// No usable runtime dir (unset, or set to one that does not exist).
		base = fallbackRuntimeBase()
		name = fmt.Sprintf("hooksup-%d", os.Getuid())
	}
	dir := filepath.Join(base, name)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("socket directory: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("socket directory: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() {
		return "", fmt.Errorf("socket directory %s is not a directory owned by you: remove it and run again", dir)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return "", fmt.Errorf("socket directory %s has mode %o and cannot be made 0700: %w", dir, fi.Mode().Perm(), err)
		}
	}
	return dir, nil
}

// SweepStale removes what hooksup sessions that were killed left in the runtime dir: a socket
// nobody listens on, and the settings file beside it.
func SweepStale(dir string) {
	socks, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
	for _, p := range socks {
		if fi, err := os.Lstat(p); err != nil || time.Since(fi.ModTime()) < 10*time.Second {
			continue // a session still starting up
		}
		c, err := net.DialTimeout("unix", p, 200*time.Millisecond)
		if err == nil {
			c.Close()
			continue // a live session
		}
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, os.ErrNotExist) {
			os.Remove(p)
			os.Remove(strings.TrimSuffix(p, ".sock") + ".settings.json")
		}
	}
}
