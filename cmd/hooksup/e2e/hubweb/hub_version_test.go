package hubweb

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/agentsim"
)

// nextSession registers, in the runtime directory dir, a session of a later hooksup: its
// registration as that hooksup writes it, and a control socket in this process that answers
// every request as a session of hub protocol 2 does. It returns the session's id.
func nextSession(t *testing.T, dir string) string {
	t.Helper()
	const id = "9f8e7d6c5b4a3210"
	ctl := filepath.Join(dir, id+".ctl")
	ln, err := net.Listen("unix", ctl)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if _, err := bufio.NewReader(c).ReadBytes('\n'); err == nil {
				fmt.Fprintf(c, `{"protocol":2,"code":"version","error":"the request speaks hub protocol 1, this session (pid %d) speaks 2"}`+"\n", os.Getpid())
			}
			c.Close()
		}
	}()
	entry, _ := json.Marshal(map[string]any{"id": id, "agent": "claude", "cwd": "/src/next", "pid": os.Getpid(),
		"started": time.Now(), "mode": "ask", "control": ctl, "hooksup": "v9.1.0"})
	if err := os.WriteFile(filepath.Join(dir, id+".session.json"), append(entry, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	return id
}

// A session that speaks another hub protocol is named on stderr, with both versions and what to
// do, and the others are still listed; like any session that cannot be asked, it does not
// change ls's exit status. status leaves it out; approve names it as ls does.
func TestLsNamesASessionOfAnotherProtocol(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	started, release := filepath.Join(s.Project, "check-started"), filepath.Join(s.Project, "release")
	cfg := s.Config(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "slow"
command = "echo started > %s; while [ ! -f %s ]; do sleep 0.05; done"
timeout = "1m"
`, started, release))
	live := s.StartLive(cfg, agentsim.Scenario{}, nil, "-p", "go")
	live.WaitReady()
	live.WaitFile(started)
	defer func() {
		os.WriteFile(release, nil, 0o600)
		if code := live.Wait(30 * time.Second); code != 0 {
			t.Errorf("hooksup exit %d", code)
		}
	}()
	dir := filepath.Dir(live.Env(hooks.EnvSocket))
	nextSession(t, dir)
	wantErr := fmt.Sprintf("hooksup ls: session 9f8e7d6c (/src/next): this hooksup speaks hub protocol 1, "+
		"the session's (pid %d, started by hooksup v9.1.0) speaks 2: upgrade this hooksup", os.Getpid())

	for _, args := range [][]string{{"ls"}, {"ls", "--json"}} {
		cmd := e2e.ExecHooksup(s, args...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		cmd.Run()
		code := cmd.ProcessState.ExitCode()
		if code != 0 {
			t.Errorf("hooksup %s: exit %d, want 0 as for any session that cannot be asked\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
		}
		if !strings.HasPrefix(errb.String(), wantErr) || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("hooksup %s: stderr %q, want one line %q…", strings.Join(args, " "), errb.String(), wantErr)
		}
		if !strings.Contains(out.String(), s.Project) || strings.Contains(out.String(), "/src/next") {
			t.Errorf("hooksup %s: stdout lists not just the live session in %s:\n%s", strings.Join(args, " "), s.Project, out.String())
		}
	}
	// The status line counts what it knows: the live session, at its check.
	if code, out := s.Hooksup(t, "status"); code != 0 || out != "1 working\n" {
		t.Errorf("hooksup status: exit %d, %q, want the live session alone", code, out)
	}
	// Answering it is refused with the same words.
	if code, out := s.Hooksup(t, "approve", "next"); code != 1 || !strings.Contains(out, strings.TrimPrefix(wantErr, "hooksup ls: ")) {
		t.Errorf("hooksup approve next: exit %d, %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "9f8e7d6c5b4a3210.session.json")); err != nil {
		t.Errorf("the other session's registration was removed: %v", err)
	}
}
