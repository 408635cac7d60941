package runtimedir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func shortDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "hs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// Where the sockets go on Linux and on macOS, chosen from the environment alone, and never
// where a session's socket path would not fit in sun_path (108 bytes on Linux, 104 on macOS).
func TestChooseRuntimeDir(t *testing.T) {
	const (
		macTmp = "/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/" // what macOS sets TMPDIR to
		uid    = 501
	)
	long := func(n int) string { return "/" + strings.Repeat("d", n-1) } // an absolute path of n bytes
	// The longest base whose hooksup-501 still fits: base + "/hooksup-501/" + 21 bytes < limit.
	fitsMac, fitsLinux := long(104-1-len("/hooksup-501/")-socketNameLen), long(108-1-len("/hooksup-501/")-socketNameLen)
	for _, tc := range []struct {
		name string
		goos string
		env  map[string]string
		want string
	}{
		{"linux: the runtime dir", "linux", map[string]string{"XDG_RUNTIME_DIR": "/run/user/501", "TMPDIR": "/var/tmp"}, "/run/user/501/hooksup"},
		{"linux: no runtime dir, TMPDIR", "linux", map[string]string{"TMPDIR": "/var/tmp"}, "/var/tmp/hooksup-501"},
		{"linux: neither", "linux", nil, "/tmp/hooksup-501"},
		{"linux: a runtime dir that does not exist", "linux", map[string]string{"XDG_RUNTIME_DIR": "/run/user/missing"}, "/tmp/hooksup-501"},
		{"linux: a relative runtime dir", "linux", map[string]string{"XDG_RUNTIME_DIR": "run"}, "/tmp/hooksup-501"},
		{"linux: a runtime dir too long for a socket", "linux", map[string]string{"XDG_RUNTIME_DIR": long(90), "TMPDIR": "/var/tmp"}, "/var/tmp/hooksup-501"},
		{"linux: the longest TMPDIR that fits", "linux", map[string]string{"TMPDIR": fitsLinux}, fitsLinux + "/hooksup-501"},
		{"linux: one byte longer", "linux", map[string]string{"TMPDIR": fitsLinux + "x"}, "/tmp/hooksup-501"},
		{"macOS: the per-user TMPDIR", "darwin", map[string]string{"TMPDIR": macTmp}, macTmp + "hooksup-501"},
		{"macOS: a runtime dir if one is set", "darwin", map[string]string{"XDG_RUNTIME_DIR": "/Users/me/.run", "TMPDIR": macTmp}, "/Users/me/.run/hooksup"},
		{"macOS: the longest TMPDIR that fits", "darwin", map[string]string{"TMPDIR": fitsMac}, fitsMac + "/hooksup-501"},
		{"macOS: one byte longer", "darwin", map[string]string{"TMPDIR": fitsMac + "x"}, "/tmp/hooksup-501"},
		{"macOS: what fits on Linux does not", "darwin", map[string]string{"TMPDIR": fitsLinux}, "/tmp/hooksup-501"},
		{"macOS: no TMPDIR", "darwin", nil, "/tmp/hooksup-501"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) string { return tc.env[k] }
			exists := func(p string) bool { return !strings.Contains(p, "missing") }
			got, err := chooseRuntimeDir(getenv, tc.goos, uid, exists)
			if err != nil || filepath.Clean(got) != filepath.Clean(tc.want) {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
			if n := len(filepath.Join(got, "0123456789abcdef.sock")); n >= SunPathLen(tc.goos) {
				t.Fatalf("a socket path there is %d bytes: over %s's %d", n, tc.goos, SunPathLen(tc.goos))
			}
		})
	}
	// Nowhere short enough (even /tmp missing): a clear error naming what was passed over.
	_, err := chooseRuntimeDir(func(k string) string { return map[string]string{"TMPDIR": long(100)}[k] }, "darwin", uid,
		func(p string) bool { return p != "/tmp" })
	if err == nil || !strings.Contains(err.Error(), "103 bytes") || !strings.Contains(err.Error(), "set XDG_RUNTIME_DIR or TMPDIR to a shorter directory") {
		t.Fatalf("err = %v", err)
	}
}

// The socket directory must be a real directory of this user: a symlink, a file or another
// user's directory is refused with a clear error; a directory of ours that is open to others is
// closed to 0700.
func TestRuntimeDirRefusesWhatIsNotPrivate(t *testing.T) {
	getenv := func(base string) func(string) string {
		return func(k string) string {
			if k == "XDG_RUNTIME_DIR" {
				return base
			}
			return ""
		}
	}
	const notOurs = "is not a directory owned by you: remove it and run again"
	t.Run("symlink", func(t *testing.T) {
		base := shortDir(t)
		elsewhere := filepath.Join(base, "elsewhere")
		os.Mkdir(elsewhere, 0o700)
		os.Symlink(elsewhere, filepath.Join(base, "hooksup"))
		if _, err := Dir(getenv(base)); err == nil || !strings.Contains(err.Error(), notOurs) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("file", func(t *testing.T) {
		base := shortDir(t)
		os.WriteFile(filepath.Join(base, "hooksup"), nil, 0o600)
		if _, err := Dir(getenv(base)); err == nil || !strings.Contains(err.Error(), notOurs) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("another user's", func(t *testing.T) {
		if os.Getuid() != 0 {
			t.Skip("needs root to give a directory to another user")
		}
		base := shortDir(t)
		d := filepath.Join(base, "hooksup")
		os.Mkdir(d, 0o700)
		if err := os.Chown(d, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if _, err := Dir(getenv(base)); err == nil || !strings.Contains(err.Error(), notOurs) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ours but open", func(t *testing.T) {
		base := shortDir(t)
		d := filepath.Join(base, "hooksup")
		os.Mkdir(d, 0o755)
		os.Chmod(d, 0o777)
		got, err := Dir(getenv(base))
		if err != nil || got != d {
			t.Fatalf("%q %v", got, err)
		}
		if fi, _ := os.Stat(d); fi.Mode().Perm() != 0o700 {
			t.Fatalf("mode %o", fi.Mode().Perm())
		}
	})
}
