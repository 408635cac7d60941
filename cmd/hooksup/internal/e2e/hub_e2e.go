package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/web"
)

// OtherTerminal is the environment of a person's other terminal: a HOME of its own, and only the
// runtime directory shared with the sessions.
func OtherTerminal(t *testing.T, runDir string) (home string, env []string) {
	t.Helper()
	home = t.TempDir()
	return home, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + runDir,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config")}
}

// HubShell runs hooksup in a third shell, a person's other terminal (otherTerminal).
func HubShell(t *testing.T, runDir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(HooksupBin, args...)
	_, cmd.Env = OtherTerminal(t, runDir)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func HubLs(t *testing.T, runDir string) []web.Session {
	t.Helper()
	out, errText, code := HubShell(t, runDir, "ls", "--json")
	if code != 0 {
		t.Fatalf("hooksup ls --json: exit %d: %s", code, errText)
	}
	var ls []web.Session
	if err := json.Unmarshal([]byte(out), &ls); err != nil {
		t.Fatalf("hooksup ls --json: %v\n%s", err, out)
	}
	return ls
}
