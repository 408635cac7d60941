package headless

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// An XDG_RUNTIME_DIR the person may not write to (a stale one from another login, a mount
// made read-only) stops hooksup with the variable, its value and the fix, as an ordinary user
// meets it: not a bare "permission denied".
func TestUnwritableRuntimeDirNamesTheFix(t *testing.T) {
	t.Parallel()
	u := e2e.OtherUser(t)
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	pub, err := os.MkdirTemp("", "hsu")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(pub) })
	os.Chmod(pub, 0o777)
	bin := filepath.Join(pub, "hooksup")
	data, err := os.ReadFile(e2e.HooksupBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(pub, "home")
	runtime := filepath.Join(pub, "run") // root's, 0755: the other user may not create in it
	for _, d := range []string{home, runtime} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.Chown(home, uid, gid)

	for _, args := range [][]string{{"ls"}, {"claude", "-p", "hi"}} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = home
		cmd.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin", "XDG_RUNTIME_DIR=" + runtime, "TERM=dumb"}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("hooksup %s: %v (want exit 1)\n%s", strings.Join(args, " "), err, stderr.String())
		}
		msg := stderr.String()
		for _, want := range []string{"XDG_RUNTIME_DIR is " + runtime, "make it writable for you, or unset XDG_RUNTIME_DIR"} {
			if !strings.Contains(msg, want) {
				t.Errorf("hooksup %s: the error does not say %q:\n%s", strings.Join(args, " "), want, msg)
			}
		}
	}
}
