package mockapi

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// GeminiEnvVar names the environment variable giving the gemini binary.
const GeminiEnvVar = "HOOKSUP_TEST_GEMINI"

// GeminiVersion is the Gemini CLI the tests are written against (.ci/run installs it).
const GeminiVersion = "0.61.0"

// GeminiModel is the model the tests' gemini asks for (a fixed model skips gemini's router).
const GeminiModel = "gemini-2.5-flash"

// FindGemini returns the gemini binary to test against: $HOOKSUP_TEST_GEMINI (it must then
// exist: a wrong path fails the test). Without it the test is skipped, except in CI (CI set),
// where that is a failure: .ci/run installs Gemini CLI and sets the variable.
func FindGemini(t testing.TB) string {
	t.Helper()
	return findAgent(t, GeminiEnvVar, "@google/gemini-cli@"+GeminiVersion, "gemini")
}

// GeminiEnv is a throwaway environment for running the real gemini (or a program that runs
// gemini, like hooksup) offline against a GeminiServer.
//
// gemini reads the person's settings from $HOME/.gemini/settings.json; NewGeminiEnv writes one
// there that selects the API-key authentication (GEMINI_API_KEY, sent to the mock at
// GOOGLE_GEMINI_BASE_URL) and turns off what would reach for the network (usage statistics,
// telemetry, the update check, the IDE companion), and trusts WorkDir in trustedFolders.json,
// as the person would have: so plain `gemini -p hi` runs offline with no extra arguments.
type GeminiEnv struct {
	Gemini    string // absolute path of the gemini binary (FindGemini)
	BinDir    string // holds a "gemini" symlink to Gemini; first on PATH
	Home      string // throwaway $HOME
	GeminiDir string // $HOME/.gemini
	TmpDir    string // $TMPDIR
	WorkDir   string // absolute project directory; cwd of commands

	// ID is exported as MOCKAPI_ENV_ID; every process started from the GeminiEnv inherits it,
	// which is how KillAll finds them.
	ID string
	// Credential, when set, runs the commands as that user (who must own Home and WorkDir).
	Credential *syscall.Credential

	envVars
}

// geminiStripped are inherited variables that must not reach gemini.
func geminiStripped(key string) bool {
	k := strings.ToUpper(key)
	// CI's variables make gemini take the terminal for a CI job's (its is-in-ci): the TUI then
	// starts non-interactive and exits, as plain gemini would. A person's terminal has none.
	if k == "CI" || k == "CONTINUOUS_INTEGRATION" || strings.HasPrefix(k, "CI_") {
		return true
	}
	for _, p := range []string{"GEMINI_", "GOOGLE_", "OPENAI_", "CODEX_", "CLOUDSDK_", "GCLOUD_"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return stripped(key)
}

// NewGeminiEnv makes HOME (with .gemini/settings.json and trustedFolders.json), TMPDIR and
// WorkDir under root ("" means t.TempDir()), and the environment: the test's own minus anything
// Google/Gemini/proxy/HOOKSUP related, plus HOME, TMPDIR, GOOGLE_GEMINI_BASE_URL=baseURL, a
// GEMINI_API_KEY, and PATH starting with a directory holding a "gemini" symlink. It skips the
// test when there is no gemini binary (see FindGemini).
func NewGeminiEnv(t testing.TB, baseURL, root string) *GeminiEnv {
	t.Helper()
	gemini := FindGemini(t)
	if root == "" {
		root = t.TempDir()
	}
	e := &GeminiEnv{
		Gemini:    gemini,
		BinDir:    filepath.Join(root, "bin"),
		Home:      filepath.Join(root, "home"),
		GeminiDir: filepath.Join(root, "home", ".gemini"),
		TmpDir:    filepath.Join(root, "tmp"),
		WorkDir:   filepath.Join(root, "work"),
		ID:        randomID(),
	}
	e.WorkDir = agentDirs(t, gemini, e.BinDir, "gemini", e.WorkDir, e.Home, e.GeminiDir, e.TmpDir)
	e.envVars = agentVars(t, geminiStripped, e.BinDir, map[string]string{
		"HOME":                   e.Home,
		"TMPDIR":                 e.TmpDir,
		"GOOGLE_GEMINI_BASE_URL": baseURL,
		"GEMINI_API_KEY":         "mockapi-gemini-test-key",
		"COLORTERM":              "truecolor", // else a warning about colours on stderr
		GeminiEnvVar:             gemini,
		EnvIDVar:                 e.ID,
	}, "GeminiEnv", e.ID)
	settings, _ := json.MarshalIndent(OfflineGeminiSettings(), "", "  ")
	if err := os.WriteFile(e.SettingsPath(), append(settings, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := e.Trust(e.WorkDir); err != nil {
		t.Fatal(err)
	}
	return e
}

// OfflineGeminiSettings are the settings that run gemini offline against the mock.
func OfflineGeminiSettings() map[string]any {
	return map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"general":   map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
		"ide":       map[string]any{"enabled": false},
		"model":     map[string]any{"name": GeminiModel},
	}
}

// SettingsPath is the person's settings: $HOME/.gemini/settings.json.
func (e *GeminiEnv) SettingsPath() string { return filepath.Join(e.GeminiDir, "settings.json") }

// Trust records dir as a trusted folder in $HOME/.gemini/trustedFolders.json, as gemini's trust
// dialog does; Untrust removes every entry.
func (e *GeminiEnv) Trust(dir string) error {
	b, _ := json.MarshalIndent(map[string]string{dir: "TRUST_FOLDER"}, "", "  ")
	return os.WriteFile(filepath.Join(e.GeminiDir, "trustedFolders.json"), b, 0o600)
}

// Untrust empties $HOME/.gemini/trustedFolders.json.
func (e *GeminiEnv) Untrust() error {
	return os.WriteFile(filepath.Join(e.GeminiDir, "trustedFolders.json"), []byte("{}"), 0o600)
}

// ChatsGlob matches the chats gemini writes (every project's).
func (e *GeminiEnv) ChatsGlob() string {
	return filepath.Join(e.GeminiDir, "tmp", "*", "chats", "session-*.jsonl")
}

// KillAll SIGKILLs every process started from the GeminiEnv (hooks included).
func (e *GeminiEnv) KillAll() int { return killAll(e.ID) }

// Command returns a command running name (looked up on the GeminiEnv's PATH, so "gemini" is the
// binary under test) with args in WorkDir with the GeminiEnv's environment, as Credential's user
// when set. It runs in its own process group; when ctx ends the group is killed, and every
// other process started from the GeminiEnv. Start it with GeminiServer.Start or Run.
func (e *GeminiEnv) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return command(ctx, e.envVars, e.WorkDir, e.ID, e.Credential, name, args...)
}
