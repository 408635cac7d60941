package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hooksup/hooksup/internal/agentsim"
)

// A headless session (claude -p in a script) is listed too, while it runs, and not after.
func TestHubListsHeadlessSessions(t *testing.T) {
	s := newSandbox(t)
	started := filepath.Join(s.project, "check-started")
	release := filepath.Join(s.project, "release")
	cfg := s.config(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "slow"
command = "echo started > %s; while [ ! -f %s ]; do sleep 0.05; done"
timeout = "1m"
`, started, release))
	ls := s.startLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
	ls.waitReady()
	ls.waitFile(started)

	code, out := s.hooksup(t, "ls", "--json")
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
	if len(list) != 1 || list[0].Agent != "claude" || list[0].PID != ls.cmd.Process.Pid || list[0].Mode != "auto" {
		t.Fatalf("hooksup ls --json while a headless session runs:\n%s", out)
	}

	os.WriteFile(release, nil, 0o600)
	if code := ls.wait(30 * time.Second); code != 0 {
		t.Fatalf("hooksup exit %d", code)
	}
	if code, out := s.hooksup(t, "ls", "--json"); code != 0 || out != "[]\n" {
		t.Fatalf("hooksup ls --json after the session ended: exit %d %q", code, out)
	}
}
