package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// Git runs git in the sandbox's project.
func (s *Sandbox) Git(args ...string) {
	s.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = s.Project, append(s.Env, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Fatalf("git %s: %v %s", args[0], err, out)
	}
}

// GoEnv is the environment for the go command in a sandbox: the machine's build cache, offline.
func GoEnv(t *testing.T) []string {
	t.Helper()
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Skipf("go env: %v", err)
	}
	return []string{"GOCACHE=" + strings.TrimSpace(string(gocache)), "GOTOOLCHAIN=local", "GOFLAGS=", "GOPROXY=off"}
}
