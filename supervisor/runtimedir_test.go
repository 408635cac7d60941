package supervisor

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

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
			if n := len(filepath.Join(got, "0123456789abcdef.sock")); n >= sunPathLen(tc.goos) {
				t.Fatalf("a socket path there is %d bytes: over %s's %d", n, tc.goos, sunPathLen(tc.goos))
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

// A socket path too long for sun_path is refused up front with a message that says what to do,
// not with bind's "invalid argument".
func TestListenRefusesALongPathClearly(t *testing.T) {
	dir := shortDir(t)
	limit := sunPathLen(runtime.GOOS)
	path := filepath.Join(dir, strings.Repeat("s", limit-len(dir))+".sock")
	_, err := Listen(path, "tok", nil)
	want := fmt.Sprintf("socket path %s is %d bytes, longer than the %d a unix socket path may have here: set XDG_RUNTIME_DIR or TMPDIR to a shorter directory", path, len(path), limit-1)
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}
