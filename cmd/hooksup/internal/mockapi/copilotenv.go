package mockapi

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// CopilotEnvVar names the environment variable giving the copilot binary.
const CopilotEnvVar = "HOOKSUP_TEST_COPILOT"

// CopilotVersion is the GitHub Copilot CLI the tests are written against (.ci/run installs it).
const CopilotVersion = "1.0.102"

// CopilotModel is the model CopilotEnv asks for (COPILOT_MODEL). BYOK needs one; a name from
// Copilot's catalogue gives it sane limits.
const CopilotModel = "gpt-4.1"

// CopilotTestKey is the provider key CopilotEnv gives copilot; it is sent as
// "Authorization: Bearer".
const CopilotTestKey = "mockapi-copilot-test-key"

// CopilotInitiatorHeader is the header Copilot CLI 1.0.102 sends with every model request:
// "user" for a turn that starts from a user message (the prompt, or a stop hook's reason,
// which copilot queues as one), "agent" for one that goes on from a tool result.
const CopilotInitiatorHeader = "X-Initiator"

// FindCopilot returns the copilot binary to test against: $HOOKSUP_TEST_COPILOT (it must then
// exist). Without it the test is skipped, except in CI, where that is a failure.
func FindCopilot(t testing.TB) string {
	t.Helper()
	return findAgent(t, CopilotEnvVar, "@github/copilot@"+CopilotVersion, "copilot")
}

// CopilotEnv is a throwaway environment for running the real copilot (or a program that runs
// copilot, like hooksup) offline against a ChatServer.
//
// Copilot CLI's BYOK mode needs no GitHub account: COPILOT_PROVIDER_BASE_URL (the mock),
// COPILOT_PROVIDER_API_KEY, COPILOT_MODEL, and COPILOT_OFFLINE=true, which skips GitHub
// authentication, telemetry, the web tools, the GitHub MCP server and the auto-update. So
// plain `copilot -p hi` runs offline with no extra arguments; a tool call needs
// --allow-all-tools in -p.
//
// npm's copilot is a loader that starts a native single-executable binary; on its first run
// that binary unpacks its JavaScript package (some 235 MB) into $COPILOT_CACHE_HOME/pkg. A
// fresh cache per test would cost that every time, so CacheHome is shared: a directory of the
// test user's cache (os.UserCacheDir), which copilot fills once (through a temporary name) and
// later only reads.
type CopilotEnv struct {
	Copilot   string // absolute path of the copilot binary (FindCopilot)
	BinDir    string // holds a "copilot" symlink to Copilot; first on PATH
	Home      string // throwaway $HOME
	ConfigDir string // $HOME/.copilot: settings, hooks, session-state, logs (COPILOT_HOME unset)
	CacheHome string // $COPILOT_CACHE_HOME, shared between tests
	TmpDir    string // $TMPDIR
	WorkDir   string // absolute project directory; cwd of commands
	BaseURL   string // COPILOT_PROVIDER_BASE_URL (ChatServer.URL)
	APIKey    string // COPILOT_PROVIDER_API_KEY

	// ID is exported as MOCKAPI_ENV_ID; every process started from the CopilotEnv inherits it
	// (copilot passes its environment to hooks), which is how KillAll finds them.
	ID string
	// Credential, when set, runs the commands as that user (who must own Home and WorkDir and
	// be able to read CacheHome).
	Credential *syscall.Credential

	root string
	envVars
}

// copilotStripped are inherited variables that must not reach copilot: a token or a provider
// of the test user's would take it online or elsewhere.
func copilotStripped(key string) bool {
	k := strings.ToUpper(key)
	for _, p := range []string{"COPILOT_", "GH_", "GITHUB_", "OPENAI_", "AZURE_OPENAI"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return stripped(key)
}

// CopilotCacheHome is the COPILOT_CACHE_HOME NewCopilotEnv gives copilot:
// <os.UserCacheDir()>/hooksup-mockapi/copilot, or "" when the user has no cache directory
// (NewCopilotEnv then uses one of the test's own).
func CopilotCacheHome() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "hooksup-mockapi", "copilot")
}

// NewCopilotEnv makes HOME, TMPDIR and WorkDir under root ("" means t.TempDir()), and the
// environment: the test's own minus anything Copilot/GitHub/OpenAI/Claude/proxy/HOOKSUP
// related, plus HOME, TMPDIR, the BYOK variables that point copilot at baseURL, COPILOT_OFFLINE,
// COPILOT_CACHE_HOME and PATH starting with a directory holding a "copilot" symlink. It skips
// the test when there is no copilot binary (see FindCopilot).
func NewCopilotEnv(t testing.TB, baseURL, root string) *CopilotEnv {
	t.Helper()
	copilot := FindCopilot(t)
	if root == "" {
		root = t.TempDir()
	}
	e := &CopilotEnv{
		Copilot:   copilot,
		BinDir:    filepath.Join(root, "bin"),
		Home:      filepath.Join(root, "home"),
		ConfigDir: filepath.Join(root, "home", ".copilot"),
		CacheHome: CopilotCacheHome(),
		TmpDir:    filepath.Join(root, "tmp"),
		WorkDir:   filepath.Join(root, "work"),
		BaseURL:   baseURL,
		APIKey:    CopilotTestKey,
		ID:        randomID(),
		root:      root,
	}
	if e.CacheHome == "" || os.MkdirAll(e.CacheHome, 0o755) != nil {
		// No cache of the user's (a user without a home): this test unpacks its own.
		e.CacheHome = filepath.Join(root, "copilot-cache")
	}
	e.WorkDir = agentDirs(t, copilot, e.BinDir, "copilot", e.WorkDir, e.Home, e.TmpDir, e.CacheHome)
	e.envVars = agentVars(t, copilotStripped, e.BinDir, map[string]string{
		"HOME":                      e.Home,
		"TMPDIR":                    e.TmpDir,
		"COPILOT_PROVIDER_BASE_URL": baseURL,
		"COPILOT_PROVIDER_API_KEY":  e.APIKey,
		"COPILOT_MODEL":             CopilotModel,
		"COPILOT_OFFLINE":           "true",
		"COPILOT_CACHE_HOME":        e.CacheHome,
		CopilotEnvVar:               copilot,
		EnvIDVar:                    e.ID,
	}, "CopilotEnv", e.ID)
	e.envVars.defaultTerm()
	return e
}

// SessionStateDir is where copilot keeps each session: <ConfigDir>/session-state/<session
// id>/events.jsonl is the transcript (a hook's transcriptPath), beside workspace.yaml and
// the checkpoints.
func (e *CopilotEnv) SessionStateDir() string { return filepath.Join(e.ConfigDir, "session-state") }

// LogsDir holds copilot's process-<time>-<pid>.log files (hook failures and timeouts are
// logged there).
func (e *CopilotEnv) LogsDir() string { return filepath.Join(e.ConfigDir, "logs") }

// Plugin writes a plugin directory for copilot's --plugin-dir: a manifest
// (.plugin/plugin.json, name "hooksup") and hooks/hooks.json registering one command hook per
// event in copilot's own form ({"version":1,"hooks":{"agentStop":[{"type":"command",
// "bash":…,"timeoutSec":30}]}}). Events are copilot's camelCase names (agentStop,
// subagentStop, preToolUse, …). It returns the directory, fresh under the env's root.
func (e *CopilotEnv) Plugin(commands map[string]string) (string, error) {
	dir, err := os.MkdirTemp(e.root, "plugin-")
	if err != nil {
		return "", err
	}
	hooks := map[string]any{}
	for event, cmd := range commands {
		hooks[event] = []any{map[string]any{"type": "command", "bash": cmd, "timeoutSec": 30}}
	}
	files := map[string]any{
		filepath.Join(dir, ".plugin", "plugin.json"): map[string]any{"name": "hooksup", "description": "mockapi test hooks", "version": "0.0.1"},
		filepath.Join(dir, "hooks", "hooks.json"):    map[string]any{"version": 1, "hooks": hooks},
	}
	for name, v := range files {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return "", err
		}
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(name, append(b, '\n'), 0o644); err != nil {
			return "", fmt.Errorf("plugin: %w", err)
		}
	}
	return dir, nil
}

// KillAll SIGKILLs every process started from the CopilotEnv (hooks included).
func (e *CopilotEnv) KillAll() int { return killAll(e.ID) }

// Command returns a command running name (looked up on the CopilotEnv's PATH, so "copilot" is
// the binary under test) with args in WorkDir with the CopilotEnv's environment, as
// Credential's user when set. It runs in its own process group; when ctx ends the group is
// killed, and every other process started from the CopilotEnv. Start it with ChatServer.Start
// or Run.
func (e *CopilotEnv) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return command(ctx, e.envVars, e.WorkDir, e.ID, e.Credential, name, args...)
}

// CopilotCommand returns Command(ctx, e.Copilot, args...).
func (e *CopilotEnv) CopilotCommand(ctx context.Context, args ...string) *exec.Cmd {
	return e.Command(ctx, e.Copilot, args...)
}
