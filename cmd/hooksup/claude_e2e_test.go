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

// a, f: no checks: claude answers and stops; one allow verdict; claude's stdout and exit
// status reach the caller unchanged.
func TestClaudeNoChecks(t *testing.T) {
	rc := newRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("The answer is 42.")}})
	res := rc.hooksup("--config", rc.config(`mode = "auto"`), "claude", "-p", "what is the answer?")
	if res.ExitCode != 0 || res.Stdout != "The answer is 42.\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if got := decisions(rc.verdicts()); got != "Stop:allow/nochecks" {
		t.Fatalf("verdicts: %s\nstderr: %s", got, res.Stderr)
	}
	if len(rc.srv.Main()) != 1 {
		t.Fatalf("%d requests", len(rc.srv.Main()))
	}
	v := rc.verdicts()[0]
	if v.SessionID == "" || v.Observation == nil || v.Observation.LastMessage != "The answer is 42." {
		t.Fatalf("verdict %+v", v)
	}
	if !strings.Contains(res.Stderr, "hooksup: Stop → allow (no checks) 0/3") {
		t.Fatalf("stderr %q", res.Stderr)
	}
}

// f: a failing claude's status reaches the caller.
func TestClaudeExitStatusPassesThrough(t *testing.T) {
	rc := newRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Error(529, "overloaded_error", "Overloaded")}})
	res := rc.hooksup("--config", rc.config(`mode = "auto"`), "claude", "-p", "hi")
	if res.ExitCode != 1 {
		t.Fatalf("exit %d, want claude's 1; stderr %q", res.ExitCode, res.Stderr)
	}
}

// b: a check failing once then passing: claude continues once, its next request carries the
// check's reason as Stop hook feedback, then it stops; verdicts block then allow.
func TestClaudeCheckFailsOnceThenPasses(t *testing.T) {
	rc := newRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("Done, I think."), mockapi.Text("Fixed the test.")}})
	marker := filepath.Join(rc.env.Home, "ran-once")
	cfg := rc.config(fmt.Sprintf(`
mode = "auto"
[[stop.checks]]
name = "tests"
command = "test -f %[1]s || { touch %[1]s; echo '--- FAIL: TestParse (0.00s)'; echo 'parse_test.go:12: want 2, got 3'; exit 1; }"
`, marker))
	res := rc.hooksup("--config", cfg, "claude", "-p", "fix the parser")
	if res.ExitCode != 0 || res.Stdout != "Fixed the test.\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	main := rc.srv.Main()
	if len(main) != 2 {
		t.Fatalf("%d main requests, want 2", len(main))
	}
	fb := main[1].LastUserText()
	if !strings.Contains(fb, "Stop hook feedback:\n") || !strings.Contains(fb, `The check "tests" failed (exit 1)`) || !strings.Contains(fb, "parse_test.go:12: want 2, got 3") {
		t.Fatalf("second request's feedback: %q", fb)
	}
	if got := decisions(rc.verdicts()); got != "Stop:block/check:tests Stop:allow/checks" {
		t.Fatalf("verdicts %s", got)
	}
	if v := rc.verdicts()[1]; !v.StopHookActive || v.Continuations != 1 {
		t.Fatalf("second verdict %+v", v)
	}
}

// c: a check that always fails: exactly max_continuations blocks, then allow by the limit.
func TestClaudeAlwaysFailingCheckHitsTheLimit(t *testing.T) {
	rc := newRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("attempt")}})
	cfg := rc.config(`
mode = "auto"
[stop]
max_continuations = 3
[[stop.checks]]
name = "lint"
command = "echo 'main.go:3: unused variable x'; exit 1"
`)
	res := rc.hooksup("--config", cfg, "claude", "-p", "clean up")
	if res.ExitCode != 0 {
		t.Fatalf("exit %d stderr %q", res.ExitCode, res.Stderr)
	}
	want := "Stop:block/check:lint Stop:block/check:lint Stop:block/check:lint Stop:allow/limit"
	if got := decisions(rc.verdicts()); got != want {
		t.Fatalf("verdicts %s", got)
	}
	if n := len(rc.srv.Main()); n != 4 {
		t.Fatalf("%d main requests, want 4", n)
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
	if got := decisions(vs); got != "SubagentStop:block/check:sub-review SubagentStop:allow/checks Stop:allow/nochecks" {
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

// e: the supervisor's socket disappears mid-session: the hook fails open, claude finishes with
// exit 0, and hooksup's log says why.
func TestClaudeSocketGoneFailsOpen(t *testing.T) {
	rc := newRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("finished").WithDelay(1500 * time.Millisecond)}})
	cfg := rc.config("mode = \"auto\"\n[[stop.checks]]\nname = \"never\"\ncommand = \"exit 1\"\n")
	done := make(chan mockapi.Result, 1)
	go func() { done <- rc.hooksup("--config", cfg, "claude", "-p", "go") }()
	// When claude's first request arrives, remove the socket.
	ctx, cancel := context.WithTimeout(t.Context(), claudeTimeout)
	defer cancel()
	if _, err := rc.srv.Wait(ctx, func(rs []mockapi.Request) bool { return len(mockapi.Filter(rs, mockapi.KindMain)) > 0 }); err != nil {
		t.Fatal(err)
	}
	socks, _ := filepath.Glob(filepath.Join(rc.run, "hooksup", "*.sock"))
	if len(socks) != 1 {
		t.Fatalf("sockets: %v", socks)
	}
	os.Remove(socks[0])
	res := <-done
	if res.ExitCode != 0 || res.Stdout != "finished\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if n := len(rc.verdicts()); n != 0 {
		t.Fatalf("%d verdicts: the hook reached a supervisor without a socket?", n)
	}
	if l := rc.log(); !strings.Contains(l, "hook Stop: supervisor unreachable") || !strings.Contains(l, "(allowed)") {
		t.Fatalf("hooksup.log:\n%s", l)
	}
}
