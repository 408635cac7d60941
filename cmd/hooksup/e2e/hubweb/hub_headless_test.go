package hubweb

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/internal/agentsim"
)

// A headless session (claude -p in a script) is listed too, while it runs, and not after.
func TestHubListsHeadlessSessions(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	started := filepath.Join(s.Project, "check-started")
	release := filepath.Join(s.Project, "release")
	cfg := s.Config(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "slow"
command = "echo started > %s; while [ ! -f %s ]; do sleep 0.05; done"
timeout = "1m"
`, started, release))
	ls := s.StartLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
	ls.WaitReady()
	ls.WaitFile(started)

	code, out := s.Hooksup(t, "ls", "--json")
	if code != 0 {
		t.Fatalf("hooksup ls --json: exit %d\n%s", code, out)
	}
	var list []struct {
		Agent string `json:"agent"`
		Cwd   string `json:"cwd"`
		PID   int    `json:"pid"`
		Mode  string `json:"mode"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(list) != 1 || list[0].Agent != "claude" || list[0].PID != ls.Cmd.Process.Pid || list[0].Mode != "auto" {
		t.Fatalf("hooksup ls --json while a headless session runs:\n%s", out)
	}

	os.WriteFile(release, nil, 0o600)
	if code := ls.Wait(30 * time.Second); code != 0 {
		t.Fatalf("hooksup exit %d", code)
	}
	if code, out := s.Hooksup(t, "ls", "--json"); code != 0 || out != "[]\n" {
		t.Fatalf("hooksup ls --json after the session ended: exit %d %q", code, out)
	}
}
