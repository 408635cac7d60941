package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/internal/agentsim"
)

// hangupWrappers start a command in a terminal: as a terminal starts a program, and in two ways
// that keep the terminal's SIGHUP from it.
var hangupWrappers = map[string]func(cmd string) string{
	// As a terminal starts a program through a shell: the shell leads the terminal's session,
	// and when the terminal hangs up the kernel sends SIGHUP to it and, as it exits, to the
	// program's process group.
	"plain": func(cmd string) string { return cmd },
	// A session of its own: the terminal is not its controlling terminal any more, so the
	// kernel signals nothing to it when the terminal hangs up.
	"setsid": func(cmd string) string { return "setsid sh -c " + e2e.ShellQuote(cmd+"; echo done") },
	// The session leader ignores SIGHUP and stays: nothing else in its session is signalled.
	"trap": func(cmd string) string { return "trap '' HUP; " + cmd + "; echo done" },
}

// deadTerminal is a program to start in tmux and leave there while the terminal dies.
type deadTerminal struct {
	name  string // the command as scripts/deadterm.sh counts it
	env   []string
	dir   string
	ready []string // the screen shows each once the program runs
	// running are the command lines (prefixes) that must each be running under the wrapper
	// before the terminal is killed.
	running []string
	// grace is how long what the program started has to end after the kill.
	grace time.Duration
	argv  []string
}

// killTerminal runs d's program under a wrapper in tmux, waits until the screen shows it ready,
// kills the tmux server (the terminal) with SIGKILL and returns the processes the program
// started that are still alive after d.grace.
func killTerminal(t *testing.T, wrapper string, d deadTerminal) []string {
	t.Helper()
	e2e.RequireTmux(t)
	if wrapper == "setsid" {
		if _, err := exec.LookPath("setsid"); err != nil {
			t.Skip("no setsid here")
		}
	}
	cmd := "env -i"
	for _, kv := range d.env {
		cmd += " " + e2e.ShellQuote(kv)
	}
	for _, a := range d.argv {
		cmd += " " + e2e.ShellQuote(a)
	}
	s := e2e.StartTmuxScript(t, 140, 40, d.dir, hangupWrappers[wrapper](cmd))
	s.WaitText(45*time.Second, d.ready...)

	pane, _ := strconv.Atoi(s.Display("#{pane_pid}"))
	server, _ := strconv.Atoi(s.Display("#{pid}"))
	started := descendants(t, pane)
	for _, want := range d.running {
		var found bool
		for _, args := range started {
			found = found || strings.HasPrefix(args, want)
		}
		if !found {
			t.Fatalf("%q is not running under the wrapper: %v", want, started)
		}
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
	deadline := time.Now().Add(d.grace)
	for {
		alive := alive(t, started)
		if len(alive) == 0 || time.Now().After(deadline) {
			// scripts/deadterm.sh counts these lines
			t.Logf("%s: terminal killed: %d of %d processes left", d.name, len(alive), len(started))
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

// sessionGrace is how long a session has to end after its terminal died: the agent gets SIGHUP,
// then SIGKILL after hooksup's grace period; this is well past it.
const sessionGrace = 40 * time.Second

// commandGrace is how long a command that starts nothing has to end after its terminal died.
const commandGrace = 10 * time.Second

// endsWithItsTerminal kills the terminal under the command setup describes, once under each
// wrapper, and fails if anything it started is still running after its grace period.
func endsWithItsTerminal(t *testing.T, setup func(t *testing.T) deadTerminal) {
	for wrapper := range hangupWrappers {
		t.Run(wrapper, func(t *testing.T) {
			if left := killTerminal(t, wrapper, setup(t)); len(left) > 0 {
				t.Fatalf("still running after the terminal died:\n%s", strings.Join(left, "\n"))
			}
		})
	}
}

// When the terminal dies, with or without a SIGHUP reaching hooksup, the session ends: the demo
// agent and hooksup are gone, under every wrapper.
func TestDeadTerminalEndsTheDemo(t *testing.T) {
	t.Parallel()
	endsWithItsTerminal(t, func(t *testing.T) deadTerminal {
		s := e2e.NewSandbox(t)
		return deadTerminal{name: "demo", env: append(append([]string{}, s.Env...), "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color"),
			dir: s.Project, ready: []string{"hooksup demo agent", "╭─ verdicts"}, grace: sessionGrace,
			running: []string{e2e.HooksupBin + " demo", e2e.HooksupBin + " --settings"}, argv: []string{e2e.HooksupBin, "demo"}}
	})
}

// The same with the real claude: neither claude nor hooksup outlives the terminal.
func TestDeadTerminalEndsClaude(t *testing.T) {
	t.Parallel()
	endsWithItsTerminal(t, func(t *testing.T) deadTerminal {
		rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("ok")}})
		rc.Env.Setenv("HOOKSUP_CLAUDE_BIN", rc.Env.Claude)
		cfg := rc.Config(`mode = "auto"`)
		return deadTerminal{name: "claude", env: rc.Env.Environ(), dir: rc.Env.WorkDir, ready: []string{"╭─ verdicts", "❯"},
			grace: sessionGrace, running: []string{e2e.HooksupBin + " --config", rc.Env.Claude},
			argv: []string{e2e.HooksupBin, "--config", cfg, "claude"}}
	})
}

// hooksup watch, with a session to watch (its event stream open), ends with its terminal.
func TestDeadTerminalEndsWatch(t *testing.T) {
	t.Parallel()
	endsWithItsTerminal(t, func(t *testing.T) deadTerminal {
		s := e2e.NewSandbox(t)
		ls := s.StartLive(s.Config(`mode = "auto"`), agentsim.Scenario{WorkDelay: agentsim.Duration{Duration: 10 * time.Minute}}, nil, "-p", "go")
		ls.WaitReady()
		return deadTerminal{name: "watch", env: append(append([]string{}, s.Env...), "TERM=xterm-256color"), dir: s.Project,
			ready: []string{"hooksup watch · 1 session"}, grace: commandGrace,
			running: []string{e2e.HooksupBin + " watch"}, argv: []string{e2e.HooksupBin, "watch"}}
	})
}

// hooksup log -f, which reads no input and has nothing to write, ends with its terminal.
func TestDeadTerminalEndsLogFollow(t *testing.T) {
	t.Parallel()
	endsWithItsTerminal(t, func(t *testing.T) deadTerminal {
		s := e2e.NewSandbox(t)
		logDir := filepath.Join(s.StateDir(), "sessions", "s-follow")
		if err := os.MkdirAll(logDir, 0o700); err != nil {
			t.Fatal(err)
		}
		line := `{"time":"2026-11-25T10:00:00Z","session_id":"s-follow","event":"Stop","turn":1,"stop":1,"decision":"allow","source":"checks"}` + "\n"
		if err := os.WriteFile(filepath.Join(logDir, "verdicts.jsonl"), []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
		return deadTerminal{name: "log -f", env: append(append([]string{}, s.Env...), "TERM=xterm-256color"), dir: s.Project,
			ready: []string{"session s-follow", "turn 1"}, grace: commandGrace,
			running: []string{e2e.HooksupBin + " log -f"}, argv: []string{e2e.HooksupBin, "log", "-f"}}
	})
}

// hooksup web, with a session to follow (its event stream open), ends with its terminal.
func TestDeadTerminalEndsWeb(t *testing.T) {
	t.Parallel()
	endsWithItsTerminal(t, func(t *testing.T) deadTerminal {
		s := e2e.NewSandbox(t)
		ls := s.StartLive(s.Config(`mode = "auto"`), agentsim.Scenario{WorkDelay: agentsim.Duration{Duration: 10 * time.Minute}}, nil, "-p", "go")
		ls.WaitReady()
		return deadTerminal{name: "web", env: append(append([]string{}, s.Env...), "TERM=xterm-256color"), dir: s.Project,
			ready: []string{"#pair="}, grace: commandGrace,
			running: []string{e2e.HooksupBin + " web"}, argv: []string{e2e.HooksupBin, "web", "--listen", "127.0.0.1:0"}}
	})
}
