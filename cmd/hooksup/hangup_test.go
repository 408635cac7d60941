package main

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// hangupWrappers start a command so that no SIGHUP reaches it when its terminal goes away.
var hangupWrappers = map[string]func(cmd string) string{
	// A session of its own: the terminal is not its controlling terminal any more, so the
	// kernel signals nothing to it when the terminal hangs up.
	"setsid": func(cmd string) string { return "setsid sh -c " + shellQuote(cmd+"; echo done") },
	// The session leader ignores SIGHUP and stays: nothing else in its session is signalled.
	"trap": func(cmd string) string { return "trap '' HUP; " + cmd + "; echo done" },
}

// killTerminal runs argv under a wrapper in tmux, waits until the screen shows ready, kills the
// tmux server (the terminal) with SIGKILL and returns the processes the program started that are
// still alive afterwards.
func killTerminal(t *testing.T, wrapper string, env []string, dir string, ready []string, argv ...string) []string {
	t.Helper()
	requireTmux(t)
	if wrapper == "setsid" {
		if _, err := exec.LookPath("setsid"); err != nil {
			t.Skip("no setsid here")
		}
	}
	cmd := "env -i"
	for _, kv := range env {
		cmd += " " + shellQuote(kv)
	}
	for _, a := range argv {
		cmd += " " + shellQuote(a)
	}
	s := &tmuxSession{t: t, socket: fmt.Sprintf("hs%d", time.Now().UnixNano()), name: "main"}
	s.tmux("-f", "/dev/null", "new-session", "-d", "-s", s.name, "-x", "140", "-y", "40", "-c", dir,
		"sh", "-c", hangupWrappers[wrapper](cmd))
	t.Cleanup(func() { exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	s.waitText(45*time.Second, ready...)

	pane, _ := strconv.Atoi(strings.TrimSpace(s.tmux("display-message", "-p", "-t", s.name, "#{pane_pid}")))
	server, _ := strconv.Atoi(strings.TrimSpace(s.tmux("display-message", "-p", "#{pid}")))
	started := descendants(t, pane)
	var agents int
	for _, args := range started {
		if strings.HasPrefix(args, hooksupBin+" ") {
			agents++ // hooksup, and the demo agent (hooksup re-executed)
		}
	}
	if agents == 0 || len(started) < 3 {
		t.Fatalf("hooksup and its agent are not both running under the wrapper: %v", started)
	}
	t.Logf("before the kill: %v", started)
	t.Cleanup(func() {
		for pid := range started { // whatever leaked must not outlive the test
			exec.Command("kill", "-KILL", strconv.Itoa(pid)).Run()
		}
	})
	if err := exec.Command("kill", "-KILL", strconv.Itoa(server)).Run(); err != nil {
		t.Fatal(err)
	}
	// The agent gets SIGHUP, then SIGKILL after hooksup's grace period: wait well past it.
	deadline := time.Now().Add(40 * time.Second)
	for {
		alive := alive(t, started)
		if len(alive) == 0 || time.Now().After(deadline) {
			t.Logf("terminal killed: %d of %d processes left", len(alive), len(started)) // scripts/deadterm.sh counts these
			return alive
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// process is one line of ps.
type process struct {
	pid, ppid  int
	stat, args string
}

func processes(t *testing.T) map[int]process {
	t.Helper()
	out, err := exec.Command("ps", "-A", "-o", "pid=,ppid=,stat=,args=").Output()
	if err != nil {
		t.Fatalf("ps: %v", err)
	}
	ps := map[int]process{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 {
			continue
		}
		pid, _ := strconv.Atoi(f[0])
		ppid, _ := strconv.Atoi(f[1])
		ps[pid] = process{pid, ppid, f[2], strings.Join(f[3:], " ")}
	}
	return ps
}

// descendants are the processes below pid (pid included), by their command line.
func descendants(t *testing.T, pid int) map[int]string {
	t.Helper()
	ps := processes(t)
	out := map[int]string{}
	var walk func(int)
	walk = func(p int) {
		out[p] = ps[p].args
		for _, c := range ps {
			if c.ppid == p {
				walk(c.pid)
			}
		}
	}
	walk(pid)
	return out
}

// alive lists which of procs still run (zombies waiting for a parent that is gone count as
// ended), as "pid command".
func alive(t *testing.T, procs map[int]string) []string {
	t.Helper()
	ps := processes(t)
	var out []string
	for pid, args := range procs {
		if p, ok := ps[pid]; ok && !strings.HasPrefix(p.stat, "Z") && p.args == args {
			out = append(out, fmt.Sprintf("%d %s", pid, args))
		}
	}
	return out
}

// When the terminal dies and no SIGHUP reaches hooksup, the end of its input ends the session:
// the demo agent and hooksup are gone, under either wrapper.
func TestDeadTerminalEndsTheDemo(t *testing.T) {
	for wrapper := range hangupWrappers {
		t.Run(wrapper, func(t *testing.T) {
			s := newSandbox(t)
			env := append(append([]string{}, s.env...), "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color")
			if left := killTerminal(t, wrapper, env, s.project, []string{"hooksup demo agent", "╭─ verdicts"}, hooksupBin, "demo"); len(left) > 0 {
				t.Fatalf("still running after the terminal died:\n%s", strings.Join(left, "\n"))
			}
		})
	}
}

// The same with the real claude: neither claude nor hooksup outlives the terminal.
func TestDeadTerminalEndsClaude(t *testing.T) {
	for wrapper := range hangupWrappers {
		t.Run(wrapper, func(t *testing.T) {
			rc := newRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ok")}})
			rc.env.Setenv("HOOKSUP_CLAUDE_BIN", rc.env.Claude)
			cfg := rc.config(`mode = "auto"`)
			if left := killTerminal(t, wrapper, rc.env.Environ(), rc.env.WorkDir, []string{"╭─ verdicts", "❯"}, hooksupBin, "--config", cfg, "claude"); len(left) > 0 {
				t.Fatalf("still running after the terminal died:\n%s", strings.Join(left, "\n"))
			}
		})
	}
}
