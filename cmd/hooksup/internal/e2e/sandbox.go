package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/verdictlog"
)

// HooksupBin is the real hooksup binary, built once for a package's tests (Main), with the
// dedicated hook client HookClientBin beside it (as go install ./cmd/... puts them).
var HooksupBin, HookClientBin string

// Main is the TestMain body of a package of end-to-end tests: the test binary re-executed as the
// key echo (EnvKeyEcho) is that program; otherwise Main builds hooksup and the hook client from
// the packages at hooksupPkg and hookPkg into HooksupBin and HookClientBin, as b says, and the
// simulated claude into SimAgentBin (RunWithBinaries), and runs the tests. Its result is the
// exit code.
func Main(m *testing.M, hooksupPkg, hookPkg string, b Build) int {
	if sock := os.Getenv(EnvKeyEcho); sock != "" {
		return KeyEchoMain(sock)
	}
	return RunWithBinaries(m, hooksupPkg, hookPkg, b, &HooksupBin, &HookClientBin)
}

const EnvSimAgent = "HOOKSUP_TEST_SIM_AGENT"

// Sandbox is a throwaway HOME with hooksup's directories, so tests never touch the user's.
type Sandbox struct {
	t       *testing.T
	Home    string
	State   string
	Project string
	Env     []string
}

func NewSandbox(t *testing.T) *Sandbox {
	t.Helper()
	root, err := os.MkdirTemp("", "hs") // short: socket paths must fit 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	s := &Sandbox{t: t, Home: filepath.Join(root, "home"), Project: filepath.Join(root, "proj")}
	s.State = filepath.Join(root, "state")
	for _, d := range []string{s.Home, s.Project, s.State, filepath.Join(root, "run"), filepath.Join(root, "cfg")} {
		os.MkdirAll(d, 0o700)
	}
	s.Env = append(os.Environ(),
		"HOME="+s.Home, "XDG_STATE_HOME="+s.State, "XDG_CONFIG_HOME="+filepath.Join(root, "cfg"),
		"XDG_RUNTIME_DIR="+filepath.Join(root, "run"))
	return s
}

func (s *Sandbox) StateDir() string { return filepath.Join(s.State, "hooksup") }

// Config writes an explicit (trusted) config file and returns its path.
func (s *Sandbox) Config(toml string) string {
	p := filepath.Join(s.Project, "test.toml")
	if err := os.WriteFile(p, []byte(toml), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return p
}

type Result struct {
	Code           int
	Stdout, Stderr string
	Trace          []agentsim.TraceEntry
	Verdicts       []verdictlog.Verdict
}

// RunSim runs `hooksup --config CFG claude -p PROMPT` with the simulated claude.
func (s *Sandbox) RunSim(cfg string, sc agentsim.Scenario, args ...string) Result {
	s.t.Helper()
	return s.RunSimFlags(nil, cfg, sc, args...)
}

// RunSimFlags is runSim with hooksup's flags before the agent's name.
func (s *Sandbox) RunSimFlags(flags []string, cfg string, sc agentsim.Scenario, args ...string) Result {
	s.t.Helper()
	tracePath := filepath.Join(s.Project, "trace.jsonl")
	os.Remove(tracePath)
	scb, _ := json.Marshal(sc)
	self := SimAgentBin
	full := append(append(append([]string{}, flags...), "--config", cfg, "--claude-bin", self, "claude"), args...)
	cmd := exec.Command(HooksupBin, full...)
	cmd.Dir = s.Project
	cmd.Env = append(append([]string{}, s.Env...), EnvSimAgent+"=1", agentsim.EnvScenario+"="+string(scb), agentsim.EnvTrace+"="+tracePath)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		s.t.Fatalf("hooksup did not finish; stderr:\n%s", errb.String())
	}
	r := Result{Code: cmd.ProcessState.ExitCode(), Stdout: out.String(), Stderr: errb.String()}
	r.Trace = ReadTrace(s.t, tracePath)
	r.Verdicts = s.Verdicts()
	return r
}

func ReadTrace(t *testing.T, path string) []agentsim.TraceEntry {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []agentsim.TraceEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e agentsim.TraceEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("trace: %v", err)
		}
		out = append(out, e)
	}
	return out
}

// Verdicts reads every session's verdict log in the sandbox.
func (s *Sandbox) Verdicts() []verdictlog.Verdict {
	vs, err := Verdicts(s.StateDir())
	if err != nil {
		s.t.Fatal(err)
	}
	return vs
}

// StopTrace returns the trace entries of one event.
func StopTrace(tr []agentsim.TraceEntry, event string) []agentsim.TraceEntry {
	var out []agentsim.TraceEntry
	for _, e := range tr {
		if e.Event == event && e.Input != nil {
			out = append(out, e)
		}
	}
	return out
}

func ExecHooksup(s *Sandbox, args ...string) *exec.Cmd {
	cmd := exec.Command(HooksupBin, args...)
	cmd.Dir = s.Project
	cmd.Env = s.Env
	return cmd
}
