package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/verdictlog"
)

// These tests run `hooksup claude` with the real Claude Code 2.1.330, offline, against the
// mock Messages API (in a loopback-only network namespace when the tests run as root).

const claudeTimeout = 90 * time.Second

// hooksupEnv is what a real agent's end-to-end environment holds whatever the agent: hooksup's
// state and runtime directories, and how to run a command in the agent's environment against
// its mock (the mock's Run, the environment's Command).
type hooksupEnv struct {
	t       *testing.T
	state   string // XDG_STATE_HOME
	run     string // XDG_RUNTIME_DIR
	home    string // the agent's $HOME
	runCmd  func(*exec.Cmd) mockapi.Result
	command func(ctx context.Context, name string, args ...string) *exec.Cmd
}

// newHooksupEnv makes hooksup's state, runtime and config directories under a short temporary
// directory named after prefix (socket paths must stay short) and sets them in the agent's
// environment with setenv.
func newHooksupEnv(t *testing.T, prefix, home string, setenv func(key, value string), runCmd func(*exec.Cmd) mockapi.Result, command func(context.Context, string, ...string) *exec.Cmd) hooksupEnv {
	t.Helper()
	short, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	h := hooksupEnv{t: t, state: filepath.Join(short, "state"), run: filepath.Join(short, "run"), home: home, runCmd: runCmd, command: command}
	os.MkdirAll(h.run, 0o700)
	setenv("XDG_STATE_HOME", h.state)
	setenv("XDG_RUNTIME_DIR", h.run)
	setenv("XDG_CONFIG_HOME", filepath.Join(short, "config"))
	return h
}

// config writes a trusted (explicit) config file.
func (h *hooksupEnv) config(toml string) string {
	p := filepath.Join(h.home, "hooksup-test.toml")
	if err := os.WriteFile(p, []byte(toml), 0o600); err != nil {
		h.t.Fatal(err)
	}
	return p
}

// hooksup runs hooksup with args (headless: no terminal) and waits for it.
func (h *hooksupEnv) hooksup(args ...string) mockapi.Result {
	h.t.Helper()
	return h.runBounded("hooksup", hooksupBin, args...)
}

// runBounded runs name with args in the agent's environment and waits for it, failing the test
// when it outlasts claudeTimeout; label names it in that failure.
func (h *hooksupEnv) runBounded(label, name string, args ...string) mockapi.Result {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(h.t.Context(), claudeTimeout)
	defer cancel()
	res := h.runCmd(h.command(ctx, name, args...))
	if ctx.Err() != nil {
		h.t.Fatalf("%s %v timed out\nstdout: %s\nstderr: %s", label, args, res.Stdout, res.Stderr)
	}
	return res
}

func (h *hooksupEnv) verdicts() []verdictlog.Verdict {
	s := &sandbox{t: h.t, state: h.state}
	return s.verdicts()
}

func (h *hooksupEnv) log() string {
	b, _ := os.ReadFile(filepath.Join(h.state, "hooksup", "hooksup.log"))
	return string(b)
}

// realClaude is one hooksup+claude environment.
type realClaude struct {
	hooksupEnv
	srv *mockapi.Server
	env *mockapi.Env
}

func newRealClaude(t *testing.T, h mockapi.Handler) *realClaude {
	t.Helper()
	return newRealClaudeOpts(t, h, mockapi.WithNetNS())
}

func newRealClaudeOpts(t *testing.T, h mockapi.Handler, opts ...mockapi.Option) *realClaude {
	t.Helper()
	srv := mockapi.NewServer(t, h, append(opts, mockapi.WithQuiet())...)
	env := mockapi.NewEnv(t, srv.URL, "")
	return &realClaude{hooksupEnv: newHooksupEnv(t, "hr", env.Home, env.Setenv, srv.Run, env.Command), srv: srv, env: env}
}

// f: a failing claude's status reaches the caller.
func TestClaudeExitStatusPassesThrough(t *testing.T) {
	rc := newRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Error(529, "overloaded_error", "Overloaded")}})
	res := rc.hooksup("--config", rc.config(`mode = "auto"`), "claude", "-p", "hi")
	if res.ExitCode != 1 {
		t.Fatalf("exit %d, want claude's 1; stderr %q", res.ExitCode, res.Stderr)
	}
}

// d: a failing subagent check makes the subagent (not the main agent) continue; steers are
// counted per agent.
func TestClaudeSubagentStop(t *testing.T) {
	rc := newRealClaude(t, &mockapi.Script{
		Main:     []mockapi.Reply{mockapi.ForegroundAgent("Look around", "List the files", "general-purpose"), mockapi.Text("All done.")},
		Subagent: []mockapi.Reply{mockapi.Text("Subagent: first try."), mockapi.Text("Subagent: fixed.")},
	})
	marker := filepath.Join(rc.env.Home, "sub-once")
	cfg := rc.config(fmt.Sprintf(`
mode = "auto"
[subagent_stop]
max_steers = 2
[[subagent_stop.checks]]
name = "sub-review"
command = "test -f %[1]s || { touch %[1]s; echo 'subagent: cite the file names'; exit 1; }"
`, marker))
	res := rc.hooksup("--config", cfg, "claude", "-p", "explore")
	if res.ExitCode != 0 || res.Stdout != "All done.\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	sub := rc.srv.Subagent()
	if len(sub) != 2 || !strings.Contains(sub[1].LastUserText(), "subagent: cite the file names") {
		t.Fatalf("subagent requests %d; last: %q", len(sub), lastUser(sub))
	}
	if n := len(rc.srv.Main()); n != 2 {
		t.Fatalf("the main agent made %d requests, want 2 (it must not be steered)", n)
	}
	vs := rc.verdicts()
	if got := e2e.Decisions(vs); got != "SubagentStop:block/check:sub-review SubagentStop:allow/checks Stop:allow/nochecks" {
		t.Fatalf("verdicts %s", got)
	}
	if vs[0].AgentID == "" || vs[0].AgentID != vs[1].AgentID || vs[0].Steers != 1 || vs[0].AgentType != "general-purpose" {
		t.Fatalf("subagent verdicts %+v / %+v", vs[0], vs[1])
	}
}

func lastUser(rs []mockapi.Request) string {
	if len(rs) == 0 {
		return ""
	}
	return rs[len(rs)-1].LastUserText()
}
