package mockapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/transcript"
)

// ClaudeEnvVar names the environment variable giving the claude binary.
const ClaudeEnvVar = "HOOKSUP_TEST_CLAUDE"

// TestAPIKey is the API key NewEnv gives claude.
const TestAPIKey = "sk-ant-api03-mockapi-test-key-0123456789abcdefghijKLMNOPQRST"

// FindClaude returns the claude binary to test against: $HOOKSUP_TEST_CLAUDE
// if set (it must then exist: a wrong path fails the test), else "claude" on
// PATH, else it skips the test.
func FindClaude(t testing.TB) string {
	t.Helper()
	if p := agentFromEnv(t, ClaudeEnvVar); p != "" {
		return p
	}
	if p, err := exec.LookPath("claude"); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("mockapi: no claude binary in CI: .ci/run must install it and set %s", ClaudeEnvVar)
	}
	t.Skipf("mockapi: no claude binary: set %s to Claude Code 2.1.330's claude (npm install @anthropic-ai/claude-code@2.1.330 → node_modules/.bin/claude) or put claude on PATH", ClaudeEnvVar)
	return ""
}

// findAgent returns the binary $envVar names (it must then exist: a wrong path fails the
// test). Without it the test is skipped, except in CI (CI set), where that is a failure:
// .ci/run installs npmPackage and sets the variable.
func findAgent(t testing.TB, envVar, npmPackage, bin string) string {
	t.Helper()
	if p := agentFromEnv(t, envVar); p != "" {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("mockapi: no %s binary in CI: .ci/run must install %s and set %s", bin, npmPackage, envVar)
	}
	t.Skipf("mockapi: no %s binary: set %s to %s's %s (npm install %s → node_modules/.bin/%s)", bin, envVar, npmPackage, bin, npmPackage, bin)
	return ""
}

// agentFromEnv returns the absolute path $envVar names, "" when it is unset; a path that does
// not exist fails the test.
func agentFromEnv(t testing.TB, envVar string) string {
	t.Helper()
	p := os.Getenv(envVar)
	if p == "" {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err == nil {
		_, err = os.Stat(abs)
	}
	if err != nil {
		t.Fatalf("mockapi: %s=%q: %v", envVar, p, err)
	}
	return abs
}

// Env is a throwaway environment for running claude (or a program that runs
// claude, like hooksup) against a mock server.
type Env struct {
	Claude  string // absolute path of the claude binary (FindClaude)
	BinDir  string // holds a "claude" symlink to Claude; first on PATH
	Home    string // throwaway $HOME, holding the seeded .claude.json
	TmpDir  string // $TMPDIR and $CLAUDE_CODE_TMPDIR
	WorkDir string // absolute project directory; cwd of commands
	BaseURL string // ANTHROPIC_BASE_URL
	APIKey  string // ANTHROPIC_API_KEY

	// ID is a random token exported as MOCKAPI_ENV_ID; every process
	// started from the Env inherits it (claude passes its environment to
	// hooks), which is how KillAll finds them.
	ID string
	// Credential, when set, runs the commands as that user (who must own Home and WorkDir).
	Credential *syscall.Credential

	envVars
}

// EnvIDVar names the variable carrying Env.ID.
const EnvIDVar = "MOCKAPI_ENV_ID"

// stripped are inherited variables that must not reach claude: they could
// point it at real services, another config, or make it think it is nested
// in another Claude Code session.
func stripped(key string) bool {
	k := strings.ToUpper(key)
	for _, p := range []string{"ANTHROPIC_", "CLAUDE", "XDG_", "OTEL_", "AWS_", "GOOGLE_", "VERTEX_", "CLOUD_ML_", "MCP_", "DISABLE_", "HOOKSUP_", "AI_AGENT"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	switch k {
	case "HOME", "TMPDIR", "PWD", "OLDPWD", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "NODE_OPTIONS", "NODE_EXTRA_CA_CERTS", "TMUX", "TMUX_PANE", "STY":
		return true
	}
	return false
}

// NewEnv makes a throwaway HOME and TMPDIR under t.TempDir(), seeds
// $HOME/.claude.json for the interactive TUI (onboarding done, the API key
// approved, workdir trusted) and prepares the environment: the test's own
// environment minus anything Anthropic/Claude/proxy related (HOOKSUP_*
// too: set those with Setenv), plus ANTHROPIC_BASE_URL=baseURL, ANTHROPIC_API_KEY, the switches that turn off
// claude's other traffic, and PATH starting with a directory holding a
// "claude" symlink (so a program that runs "claude" finds the one under
// test). workdir "" means a fresh t.TempDir(); it is made absolute. It
// skips the test when there is no claude binary (see FindClaude).
func NewEnv(t testing.TB, baseURL, workdir string) *Env {
	t.Helper()
	claude := FindClaude(t)
	root := t.TempDir()
	e := &Env{
		Claude:  claude,
		BinDir:  filepath.Join(root, "bin"),
		Home:    filepath.Join(root, "home"),
		TmpDir:  filepath.Join(root, "tmp"),
		BaseURL: baseURL,
		APIKey:  TestAPIKey,
		ID:      randomID(),
	}
	// Resolve symlinks: claude keys .claude.json projects and transcript
	// directories by the real path.
	e.WorkDir = agentDirs(t, claude, e.BinDir, "claude", absWorkDir(t, root, workdir), e.Home, e.TmpDir)
	e.envVars = agentVars(t, stripped, e.BinDir, map[string]string{
		"HOME":                e.Home,
		"TMPDIR":              e.TmpDir,
		"CLAUDE_CODE_TMPDIR":  e.TmpDir,
		"ANTHROPIC_BASE_URL":  baseURL,
		"ANTHROPIC_API_KEY":   e.APIKey,
		ClaudeEnvVar:          claude,
		EnvIDVar:              e.ID,
		"DISABLE_AUTOUPDATER": "1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC":             "1",
		"DISABLE_TELEMETRY":                                    "1",
		"DISABLE_ERROR_REPORTING":                              "1",
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
		// Makes claude label each messages request with
		// X-Claude-Code-Request-Class (main/subagent/auxiliary/...), which
		// Classify relies on.
		"CLAUDE_CODE_GATEWAY_HINT_HEADERS": "1",
	}, "Env", e.ID)
	e.envVars.defaultTerm()
	if err := e.UpdateClaudeJSON(func(m map[string]any) {
		m["hasCompletedOnboarding"] = true
		m["customApiKeyResponses"] = map[string]any{"approved": []any{last20(e.APIKey)}, "rejected": []any{}}
		projects, _ := m["projects"].(map[string]any)
		if projects == nil {
			projects = map[string]any{}
		}
		projects[e.WorkDir] = map[string]any{"hasTrustDialogAccepted": true}
		m["projects"] = projects
	}); err != nil {
		t.Fatal(err)
	}
	return e
}

func last20(s string) string {
	if len(s) <= 20 {
		return s
	}
	return s[len(s)-20:]
}

// envVars is the environment an agent's commands get (Env, CodexEnv, GeminiEnv, CopilotEnv,
// QwenEnv).
type envVars map[string]string

// Setenv sets (or with value "" still sets, empty) a variable for commands made after the
// call.
func (v envVars) Setenv(key, value string) { v[key] = value }

// Unsetenv removes a variable for commands made after the call.
func (v envVars) Unsetenv(key string) { delete(v, key) }

// Getenv returns a variable of the environment.
func (v envVars) Getenv(key string) string { return v[key] }

// Environ returns the environment as KEY=VALUE strings, sorted.
func (v envVars) Environ() []string { return environ(v) }

// absWorkDir is workdir made absolute, root/work when it is "".
func absWorkDir(t testing.TB, root, workdir string) string {
	t.Helper()
	if workdir == "" {
		workdir = filepath.Join(root, "work")
	}
	abs, err := filepath.Abs(workdir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// agentDirs makes binDir, workDir and dirs, and in binDir a symlink name to bin (so a program
// that runs name finds the one under test); it returns workDir with its symlinks resolved.
func agentDirs(t testing.TB, bin, binDir, name, workDir string, dirs ...string) string {
	t.Helper()
	for _, d := range append([]string{binDir, workDir}, dirs...) {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if real, err := filepath.EvalSymlinks(workDir); err == nil {
		workDir = real
	}
	if err := os.Symlink(bin, filepath.Join(binDir, name)); err != nil {
		t.Fatal(err)
	}
	return workDir
}

// agentVars is the environment of an env's commands: the test's own minus the variables strip
// names, with PATH starting with binDir, and set. At the end of the test every process started
// from the env (id, its ID) is killed; the log names it env.
func agentVars(t testing.TB, strip func(key string) bool, binDir string, set map[string]string, env, id string) envVars {
	vars := envVars(inherit(strip, binDir))
	maps.Copy(vars, set)
	t.Cleanup(func() {
		if n := killAll(id); n > 0 {
			t.Logf("mockapi: killed %d leftover process(es) started from the %s", n, env)
		}
	})
	return vars
}

// defaultTerm sets TERM to xterm-256color unless the test's environment has one.
func (v envVars) defaultTerm() {
	if _, ok := v["TERM"]; !ok {
		v["TERM"] = "xterm-256color"
	}
}

// environ returns vars as KEY=VALUE strings, sorted.
func environ(vars map[string]string) []string {
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// inherit returns the test's environment minus the variables strip names, with PATH starting
// with binDir.
func inherit(strip func(key string) bool, binDir string) map[string]string {
	vars := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, ok := strings.Cut(kv, "=")
		if ok && !strip(k) {
			vars[k] = v
		}
	}
	path := vars["PATH"]
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	vars["PATH"] = binDir + string(os.PathListSeparator) + path
	return vars
}

func randomID() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b[:])
}

// KillAll SIGKILLs every process whose environment holds this Env's
// MOCKAPI_ENV_ID and returns how many it killed. That includes what hooks
// left running in the background: claude runs each hook in a session of its
// own, so killing claude's process group does not reach them. It is called
// when a Command's context ends and at the end of the test.
func (e *Env) KillAll() int { return killAll(e.ID) }

// killAll SIGKILLs every process whose environment holds MOCKAPI_ENV_ID=id and returns how
// many it killed.
func killAll(id string) int {
	marker := []byte(EnvIDVar + "=" + id + "\x00")
	self := os.Getpid()
	killed := 0
	for range 10 {
		found := 0
		ents, err := os.ReadDir("/proc")
		if err != nil {
			return killed
		}
		for _, ent := range ents {
			pid, err := strconv.Atoi(ent.Name())
			if err != nil || pid == self {
				continue
			}
			env, err := os.ReadFile("/proc/" + ent.Name() + "/environ")
			if err != nil || !(bytes.HasPrefix(env, marker) || bytes.Contains(env, append([]byte{0}, marker...))) {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				found++
			}
		}
		if found == 0 {
			break
		}
		killed += found
		time.Sleep(10 * time.Millisecond)
	}
	return killed
}

// ClaudeJSONPath is $HOME/.claude.json.
func (e *Env) ClaudeJSONPath() string { return filepath.Join(e.Home, ".claude.json") }

// UpdateClaudeJSON edits $HOME/.claude.json (created if missing), e.g. to set
// messageIdleNotifThresholdMs.
func (e *Env) UpdateClaudeJSON(edit func(m map[string]any)) error {
	m := map[string]any{}
	b, err := os.ReadFile(e.ClaudeJSONPath())
	if err == nil {
		if err := json.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("%s: %w", e.ClaudeJSONPath(), err)
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	edit(m)
	b, err = json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(e.ClaudeJSONPath(), b, 0o600)
}

// ProjectDir returns claude's per-project directory for WorkDir, where the
// session transcripts go: $HOME/.claude/projects/<WorkDir with every
// character other than [A-Za-z0-9] replaced by "-"> ("_" too, not just "/"
// and "."). Names over 200 characters are cut to 200 and given a hash
// suffix by claude; ProjectDir then finds the directory by that prefix once
// claude has created it.
func (e *Env) ProjectDir() string {
	return transcript.ProjectDir(filepath.Join(e.Home, ".claude"), e.WorkDir)
}

// KillGrace is how long Command's processes get between the context ending
// and their stdio being closed regardless (exec.Cmd.WaitDelay).
var KillGrace = 2 * time.Second

// Command returns a command running name (looked up on the Env's PATH, so
// "claude" is the binary under test) with args in WorkDir with the Env's
// environment. It runs in its own process group; when ctx ends the group
// is killed, and so is every other process started from the Env (KillAll); as Credential's user
// when set. Start it with Server.Start or
// Server.Run so that it can reach a server in a network namespace.
func (e *Env) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return command(ctx, e.envVars, e.WorkDir, e.ID, e.Credential, name, args...)
}

// command is the Envs' Command: name (looked up on vars' PATH unless it holds a path
// separator) with args in dir with vars as its environment, as cred's user when set, in its own
// process group, which is killed when ctx ends, and with it every process holding
// MOCKAPI_ENV_ID=id.
func command(ctx context.Context, vars map[string]string, dir, id string, cred *syscall.Credential, name string, args ...string) *exec.Cmd {
	if !strings.ContainsRune(name, os.PathSeparator) {
		for _, d := range filepath.SplitList(vars["PATH"]) {
			p := filepath.Join(d, name)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
				name = p
				break
			}
		}
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = environ(vars)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: cred}
	cmd.Cancel = func() error {
		// Negative pid: the process group; then whatever escaped it.
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if err != nil {
			err = cmd.Process.Kill()
		}
		killAll(id)
		return err
	}
	cmd.WaitDelay = KillGrace
	return cmd
}

// ClaudeCommand returns Command(ctx, e.Claude, args...).
func (e *Env) ClaudeCommand(ctx context.Context, args ...string) *exec.Cmd {
	return e.Command(ctx, e.Claude, args...)
}
