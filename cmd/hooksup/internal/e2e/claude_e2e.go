package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/verdictlog"
)

const ClaudeTimeout = 90 * time.Second

// HooksupEnv is what a real agent's end-to-end environment holds whatever the agent: hooksup's
// state and runtime directories, and how to run a command in the agent's environment against
// its mock (the mock's Run, the environment's Command).
type HooksupEnv struct {
	T       *testing.T
	Timeout time.Duration // bounds each run (ClaudeTimeout when 0)
	State   string        // XDG_STATE_HOME
	Run     string        // XDG_RUNTIME_DIR
	home    string        // the agent's $HOME
	runCmd  func(*exec.Cmd) mockapi.Result
	command func(ctx context.Context, name string, args ...string) *exec.Cmd
}

// NewHooksupEnv makes hooksup's state, runtime and config directories under a short temporary
// directory named after prefix (socket paths must stay short) and sets them in the agent's
// environment with setenv.
func NewHooksupEnv(t *testing.T, prefix, home string, setenv func(key, value string), runCmd func(*exec.Cmd) mockapi.Result, command func(context.Context, string, ...string) *exec.Cmd) HooksupEnv {
	t.Helper()
	short, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	h := HooksupEnv{T: t, State: filepath.Join(short, "state"), Run: filepath.Join(short, "run"), home: home, runCmd: runCmd, command: command}
	os.MkdirAll(h.Run, 0o700)
	setenv("XDG_STATE_HOME", h.State)
	setenv("XDG_RUNTIME_DIR", h.Run)
	setenv("XDG_CONFIG_HOME", filepath.Join(short, "config"))
	return h
}

// Config writes a trusted (explicit) config file.
func (h *HooksupEnv) Config(toml string) string {
	p := filepath.Join(h.home, "hooksup-test.toml")
	if err := os.WriteFile(p, []byte(toml), 0o600); err != nil {
		h.T.Fatal(err)
	}
	return p
}

// Hooksup runs hooksup with args (headless: no terminal) and waits for it.
func (h *HooksupEnv) Hooksup(args ...string) mockapi.Result {
	h.T.Helper()
	return h.RunBounded("hooksup", HooksupBin, args...)
}

// RunBounded runs name with args in the agent's environment and waits for it, failing the test
// when it outlasts h.Timeout (ClaudeTimeout when 0); label names it in that failure.
func (h *HooksupEnv) RunBounded(label, name string, args ...string) mockapi.Result {
	h.T.Helper()
	limit := h.Timeout
	if limit == 0 {
		limit = ClaudeTimeout
	}
	ctx, cancel := context.WithTimeout(h.T.Context(), limit)
	defer cancel()
	res := h.runCmd(h.command(ctx, name, args...))
	if ctx.Err() != nil {
		h.T.Fatalf("%s %v timed out\nstdout: %s\nstderr: %s", label, args, res.Stdout, res.Stderr)
	}
	return res
}

func (h *HooksupEnv) Verdicts() []verdictlog.Verdict {
	s := &Sandbox{t: h.T, State: h.State}
	return s.Verdicts()
}

func (h *HooksupEnv) Log() string {
	b, _ := os.ReadFile(filepath.Join(h.State, "hooksup", "hooksup.log"))
	return string(b)
}

// RealClaude is one hooksup+claude environment.
type RealClaude struct {
	HooksupEnv
	Srv *mockapi.Server
	Env *mockapi.Env
}

func NewRealClaude(t *testing.T, h mockapi.Handler) *RealClaude {
	t.Helper()
	return NewRealClaudeOpts(t, h, mockapi.WithNetNS())
}

func NewRealClaudeOpts(t *testing.T, h mockapi.Handler, opts ...mockapi.Option) *RealClaude {
	t.Helper()
	srv := mockapi.NewServer(t, h, append(opts, mockapi.WithQuiet())...)
	env := mockapi.NewEnv(t, srv.URL, "")
	return &RealClaude{HooksupEnv: NewHooksupEnv(t, "hr", env.Home, env.Setenv, srv.Run, env.Command), Srv: srv, Env: env}
}

func LastUser(rs []mockapi.Request) string {
	if len(rs) == 0 {
		return ""
	}
	return rs[len(rs)-1].LastUserText()
}
