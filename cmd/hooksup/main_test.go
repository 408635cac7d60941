package main

import (
	"bufio"
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/internal/agentsim"
	"github.com/hooksup/hooksup/verdictlog"
)

// hooksupBin is the real hooksup binary, built once for the package's tests, with the
// dedicated hook client hookClientBin beside it (as go install ./cmd/... puts them).
var hooksupBin, hookClientBin string

const envSimAgent = "HOOKSUP_TEST_SIM_AGENT"

func TestMain(m *testing.M) {
	// Re-executed as the simulated claude.
	if os.Getenv(envSimAgent) == "1" {
		os.Exit(agentsim.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	if sock := os.Getenv(envKeyEcho); sock != "" {
		os.Exit(keyEchoMain(sock))
	}
	os.Exit(e2e.RunWithBinaries(m, ".", "../hooksup-hook", &hooksupBin, &hookClientBin))
}

// The binaries the end-to-end tests drive carry the race detector exactly when the tests do.
func TestBinariesBuiltLikeTheTests(t *testing.T) {
	for _, bin := range []string{hooksupBin, hookClientBin} {
		info, err := buildinfo.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		race := false
		for _, s := range info.Settings {
			if s.Key == "-race" {
				race = s.Value == "true"
			}
		}
		if race != e2e.RaceEnabled {
			t.Errorf("%s built with -race=%v, the tests run with -race=%v", filepath.Base(bin), race, e2e.RaceEnabled)
		}
	}
}

// sandbox is a throwaway HOME with hooksup's directories, so tests never touch the user's.
type sandbox struct {
	t       *testing.T
	home    string
	state   string
	project string
	env     []string
}

func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	root, err := os.MkdirTemp("", "hs") // short: socket paths must fit 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	s := &sandbox{t: t, home: filepath.Join(root, "home"), project: filepath.Join(root, "proj")}
	s.state = filepath.Join(root, "state")
	for _, d := range []string{s.home, s.project, s.state, filepath.Join(root, "run"), filepath.Join(root, "cfg")} {
		os.MkdirAll(d, 0o700)
	}
	s.env = append(os.Environ(),
		"HOME="+s.home, "XDG_STATE_HOME="+s.state, "XDG_CONFIG_HOME="+filepath.Join(root, "cfg"),
		"XDG_RUNTIME_DIR="+filepath.Join(root, "run"))
	return s
}

func (s *sandbox) stateDir() string { return filepath.Join(s.state, "hooksup") }

// config writes an explicit (trusted) config file and returns its path.
func (s *sandbox) config(toml string) string {
	p := filepath.Join(s.project, "test.toml")
	if err := os.WriteFile(p, []byte(toml), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return p
}

type result struct {
	code           int
	stdout, stderr string
	trace          []agentsim.TraceEntry
	verdicts       []verdictlog.Verdict
}

// runSim runs `hooksup --config CFG claude -p PROMPT` with the simulated claude.
func (s *sandbox) runSim(cfg string, sc agentsim.Scenario, args ...string) result {
	s.t.Helper()
	return s.runSimFlags(nil, cfg, sc, args...)
}

// runSimFlags is runSim with hooksup's flags before the agent's name.
func (s *sandbox) runSimFlags(flags []string, cfg string, sc agentsim.Scenario, args ...string) result {
	s.t.Helper()
	tracePath := filepath.Join(s.project, "trace.jsonl")
	os.Remove(tracePath)
	scb, _ := json.Marshal(sc)
	self, _ := os.Executable()
	full := append(append(append([]string{}, flags...), "--config", cfg, "--claude-bin", self, "claude"), args...)
	cmd := exec.Command(hooksupBin, full...)
	cmd.Dir = s.project
	cmd.Env = append(append([]string{}, s.env...), envSimAgent+"=1", agentsim.EnvScenario+"="+string(scb), agentsim.EnvTrace+"="+tracePath)
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
	r := result{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errb.String()}
	r.trace = readTrace(s.t, tracePath)
	r.verdicts = s.verdicts()
	return r
}

func readTrace(t *testing.T, path string) []agentsim.TraceEntry {
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

// verdicts reads every session's verdict log in the sandbox.
func (s *sandbox) verdicts() []verdictlog.Verdict {
	vs, err := e2e.Verdicts(s.stateDir())
	if err != nil {
		s.t.Fatal(err)
	}
	return vs
}

// stopTrace returns the trace entries of one event.
func stopTrace(tr []agentsim.TraceEntry, event string) []agentsim.TraceEntry {
	var out []agentsim.TraceEntry
	for _, e := range tr {
		if e.Event == event && e.Input != nil {
			out = append(out, e)
		}
	}
	return out
}

func execHooksup(s *sandbox, args ...string) *exec.Cmd {
	cmd := exec.Command(hooksupBin, args...)
	cmd.Dir = s.project
	cmd.Env = s.env
	return cmd
}
