// Package runtimedir is where hooksup's sockets live: the private per-user directory, chosen
// from the environment so that a socket path fits in sun_path on Linux and macOS, and the sweep
// of what killed sessions left there.
package runtimedir

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// A session's socket is <runtime dir>/<IDBytes as hex>.sock.
const (
	IDBytes       = 8
	socketNameLen = 2*IDBytes + len(".sock")
)

// SunPathLen is the size of sun_path in a unix socket address on goos, its terminating NUL
// included: 108 bytes on Linux, 104 on macOS and the BSDs.
func SunPathLen(goos string) int {
	if goos == "linux" {
		return 108
	}
	return 104
}

// PathFits reports whether a socket path of n bytes can be bound on goos.
func PathFits(n int, goos string) bool { return n < SunPathLen(goos) }

// chooseRuntimeDir picks the directory for hooksup's sockets on goos: the first of
// $XDG_RUNTIME_DIR/hooksup (Linux's per-user runtime dir; macOS has none), hooksup-UID in $TMPDIR
// (per-user and private on macOS), and /tmp/hooksup-UID, that exists and where a session's
// socket path fits in sun_path. macOS's $TMPDIR is already some 50 bytes long, and a unix socket
// path may have 103 there, so a longer one is passed over rather than failing at bind.
func chooseRuntimeDir(getenv func(string) string, goos string, uid int, isDir func(string) bool) (string, error) {
	private := fmt.Sprintf("hooksup-%d", uid)
	candidates := []struct{ base, name string }{
		{getenv("XDG_RUNTIME_DIR"), "hooksup"},
		{getenv("TMPDIR"), private},
		{"/tmp", private},
	}
	var passed []string
	for _, c := range candidates {
		if c.base == "" || !filepath.IsAbs(c.base) || !isDir(c.base) {
			continue
		}
		dir := filepath.Join(c.base, c.name)
		if n := len(dir) + 1 + socketNameLen; !PathFits(n, goos) {
			passed = append(passed, fmt.Sprintf("%s (a socket path there would be %d bytes)", dir, n))
			continue
		}
		return dir, nil
	}
	return "", fmt.Errorf("no directory for hooksup's socket where its path fits the %d bytes a unix socket path may have: %s; set XDG_RUNTIME_DIR or TMPDIR to a shorter directory",
		SunPathLen(goos)-1, strings.Join(passed, ", "))
}

// mkdirFix says how to let hooksup create its socket directory in base: which variable chose
// base, and what hooksup would use without it.
func mkdirFix(getenv func(string) string, base string) string {
	for _, v := range []string{"XDG_RUNTIME_DIR", "TMPDIR"} {
		if getenv(v) == base {
			return fmt.Sprintf("%s is %s, where you may not create files: make it writable for you, or unset %s (hooksup then takes the next of $TMPDIR and /tmp)", v, base, v)
		}
	}
	return fmt.Sprintf("you may not create files in %s: make it writable for you, or set XDG_RUNTIME_DIR to a private directory of yours", base)
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Dir is the private directory for hooksup's sockets (see chooseRuntimeDir), created 0700;
// it must be owned by this user and closed to others.
func Dir(getenv func(string) string) (string, error) {
	dir, err := chooseRuntimeDir(getenv, runtime.GOOS, os.Getuid(), isDir)
	if err != nil {
		return "", err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("cannot create hooksup's socket directory: %w: %s", err, mkdirFix(getenv, filepath.Dir(dir)))
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
// nobody listens on, and beside it what the agent's injection wrote there, named by the
// session's id and one of leftovers (agent.Leftovers); a directory goes whole, its links not
// followed.
func SweepStale(dir string, leftovers ...string) {
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
			for _, l := range leftovers {
				os.RemoveAll(strings.TrimSuffix(p, ".sock") + l)
			}
		}
	}
}
