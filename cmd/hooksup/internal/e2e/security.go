package e2e

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"testing"
)

// GateCheck is a config whose Stop check says it started, then waits until the test releases
// it, and passes.
func (s *Sandbox) GateCheck(extra string) (cfg, started, release string) {
	started = filepath.Join(s.Project, "gate-started")
	release = filepath.Join(s.Project, "gate-release")
	cfg = s.Config(fmt.Sprintf(`
mode = "auto"
%s
[[stop.checks]]
name = "gate"
command = "echo started > %s; while [ ! -f %s ]; do sleep 0.02; done"
timeout = "60s"
`, extra, started, release))
	return cfg, started, release
}

func RandomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// OtherUser creates a system user for the test and deletes it afterwards. It needs root (CI
// runs as root) and useradd.
func OtherUser(t *testing.T) *user.User {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root to create a second user (CI runs as root)")
	}
	useradd, err := exec.LookPath("useradd")
	if err != nil {
		t.Skip("useradd is missing: cannot create a second user")
	}
	name := "hooksuptest" + RandomHex(4)
	if out, err := exec.Command(useradd, "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name).CombinedOutput(); err != nil {
		t.Fatalf("useradd: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("userdel", name).CombinedOutput(); err != nil {
			t.Errorf("userdel %s: %v\n%s", name, err, out)
		}
	})
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
