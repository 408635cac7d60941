package mockapi

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hooksup/hooksup/internal/tomltext"
)

// CodexEnvVar names the environment variable giving the codex binary.
const CodexEnvVar = "HOOKSUP_TEST_CODEX"

// CodexVersion is the Codex CLI the tests are written against (.ci/run installs it).
const CodexVersion = "0.169.0"

// CodexKeyVar is the variable holding the mock provider's API key (its env_key).
const CodexKeyVar = "HOOKSUP_MOCK_OPENAI_KEY"

// CodexTestKey is the key CodexEnv gives codex; Codex sends it as "Authorization: Bearer".
const CodexTestKey = "sk-mockapi-codex-test-key"

// FindCodex returns the codex binary to test against: $HOOKSUP_TEST_CODEX (it must then
// exist: a wrong path fails the test). Without it the test is skipped, except in CI
// (CI set), where that is a failure: .ci/run installs Codex and sets the variable.
func FindCodex(t testing.TB) string {
	t.Helper()
	return findAgent(t, CodexEnvVar, "@openai/codex@"+CodexVersion, "codex")
}

// CodexEnv is a throwaway environment for running the real codex (or a program that runs
// codex, like hooksup) offline against a ResponsesServer.
//
// Codex reads its configuration from $CODEX_HOME/config.toml; NewCodexEnv writes one there
// that points it at the mock (model_provider "mock", wire_api "responses", the key in
// CodexKeyVar) and trusts WorkDir as a project, and makes WorkDir a git repository: so plain
// `codex exec "hi"` and the interactive `codex` run offline with no extra arguments (no
// --skip-git-repo-check, no trust-directory prompt, no login). OfflineArgs gives the same
// provider settings as -c flags, for a CODEX_HOME without that file.
//
// The file also turns off what would reach for the network or outlive the test: analytics
// (an OTEL metrics flush to ab.chatgpt.com at exit), the curated-plugin sync
// (api.github.com), the update check, and the app-server daemon a plain interactive codex
// otherwise installs into CODEX_HOME/packages (a copy of its binary, ~10 s) and leaves
// running after it exits. Codex given any -c override runs its session in-process anyway.
type CodexEnv struct {
	Codex     string // absolute path of the codex binary (FindCodex)
	BinDir    string // holds a "codex" symlink to Codex; first on PATH
	Home      string // throwaway $HOME
	CodexHome string // throwaway $CODEX_HOME, holding config.toml
	TmpDir    string // $TMPDIR
	WorkDir   string // absolute project directory (a git repository); cwd of commands
	BaseURL   string // the provider's base_url (ResponsesServer.URL)
	APIKey    string // in CodexKeyVar

	// ID is exported as MOCKAPI_ENV_ID; every process started from the CodexEnv inherits it
	// (Codex passes its environment to hooks), which is how KillAll finds them.
	ID string
	// Credential, when set, runs the commands as that user (who must own Home, CodexHome and
	// WorkDir).
	Credential *syscall.Credential

	envVars
}

// codexStripped are inherited variables that must not reach codex: they could point it at
// real services or another configuration.
func codexStripped(key string) bool {
	k := strings.ToUpper(key)
	for _, p := range []string{"OPENAI_", "CODEX_", "AZURE_OPENAI", "ANTHROPIC_", "CLAUDE", "XDG_", "OTEL_", "HOOKSUP_", "RUST_LOG"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return stripped(key)
}

// NewCodexEnv makes HOME, CODEX_HOME (with config.toml), TMPDIR and a git WorkDir under
// t.TempDir() (workdir "" means a fresh one), and the environment: the test's own minus
// anything OpenAI/Codex/Claude/proxy/HOOKSUP related, plus HOME, CODEX_HOME, TMPDIR, the
// key, and PATH starting with a directory holding a "codex" symlink. It skips the test when
// there is no codex binary (see FindCodex).
func NewCodexEnv(t testing.TB, baseURL, workdir string) *CodexEnv {
	t.Helper()
	codex := FindCodex(t)
	root := t.TempDir()
	e := &CodexEnv{
		Codex:     codex,
		BinDir:    filepath.Join(root, "bin"),
		Home:      filepath.Join(root, "home"),
		CodexHome: filepath.Join(root, "home", ".codex"),
		TmpDir:    filepath.Join(root, "tmp"),
		BaseURL:   baseURL,
		APIKey:    CodexTestKey,
		ID:        randomID(),
	}
	e.WorkDir = agentDirs(t, codex, e.BinDir, "codex", absWorkDir(t, root, workdir), e.Home, e.CodexHome, e.TmpDir)
	e.envVars = agentVars(t, codexStripped, e.BinDir, map[string]string{
		"HOME":       e.Home,
		"CODEX_HOME": e.CodexHome,
		"TMPDIR":     e.TmpDir,
		CodexKeyVar:  e.APIKey,
		CodexEnvVar:  codex,
		EnvIDVar:     e.ID,
	}, "CodexEnv", e.ID)
	e.envVars.defaultTerm()
	if _, err := os.Stat(filepath.Join(e.WorkDir, ".git")); err != nil {
		cmd := exec.Command("git", "init", "-q", e.WorkDir)
		cmd.Env = e.Environ()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mockapi: git init %s: %v: %s", e.WorkDir, err, out)
		}
	}
	if err := os.WriteFile(e.ConfigPath(), []byte(e.configTOML()), 0o600); err != nil {
		t.Fatal(err)
	}
	return e
}

// ConfigPath is $CODEX_HOME/config.toml.
func (e *CodexEnv) ConfigPath() string { return filepath.Join(e.CodexHome, "config.toml") }

// SessionsDir is where Codex writes its rollout files: $CODEX_HOME/sessions/YYYY/MM/DD/
// rollout-<time>-<session id>.jsonl.
func (e *CodexEnv) SessionsDir() string { return filepath.Join(e.CodexHome, "sessions") }

func (e *CodexEnv) configTOML() string {
	return fmt.Sprintf(`# Written by the tests: Codex runs offline against a local mock of the Responses API.
model_provider = "mock"
model = "mock-model"
check_for_update_on_startup = false

[analytics]
enabled = false

[features]
plugins = false
daemon_auto_start = false

[model_providers.mock]
name = "mock"
base_url = %s
wire_api = "responses"
env_key = %s

[projects.%s]
trust_level = "trusted"
`, tomltext.Quote(e.BaseURL), tomltext.Quote(CodexKeyVar), tomltext.Quote(e.WorkDir))
}

// OfflineArgs returns -c flags that point codex at the mock: the provider settings
// config.toml holds, for a CODEX_HOME without them. (codex exec outside a git repository
// also needs --skip-git-repo-check.)
func (e *CodexEnv) OfflineArgs() []string {
	return []string{
		"-c", "model_provider=mock",
		"-c", "model=mock-model",
		"-c", "model_providers.mock.name=mock",
		"-c", "model_providers.mock.base_url=" + tomltext.Quote(e.BaseURL),
		"-c", "model_providers.mock.wire_api=responses",
		"-c", "model_providers.mock.env_key=" + CodexKeyVar,
	}
}

// AppendConfig appends TOML to $CODEX_HOME/config.toml (the user's configuration, e.g. a
// hook of their own).
func (e *CodexEnv) AppendConfig(toml string) error {
	f, err := os.OpenFile(e.ConfigPath(), os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString("\n" + toml + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// KillAll SIGKILLs every process started from the CodexEnv (hooks included).
func (e *CodexEnv) KillAll() int { return killAll(e.ID) }

// Command returns a command running name (looked up on the CodexEnv's PATH, so "codex" is
// the binary under test) with args in WorkDir with the CodexEnv's environment and stdin
// /dev/null (codex exec reads stdin when it is not a terminal). It runs in its own process
// group; when ctx ends the group is killed, and every other process started from the
// CodexEnv; as Credential's user when set. Start it with ResponsesServer.Start or Run.
func (e *CodexEnv) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return command(ctx, e.envVars, e.WorkDir, e.ID, e.Credential, name, args...)
}

// CodexCommand returns Command(ctx, e.Codex, args...).
func (e *CodexEnv) CodexCommand(ctx context.Context, args ...string) *exec.Cmd {
	return e.Command(ctx, e.Codex, args...)
}
