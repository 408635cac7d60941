// Package qwen is all hooksup knows of Qwen Code (npm @qwen-code/qwen-code), a fork of Gemini
// CLI that speaks Claude Code's hook contract.
package qwen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/qwen/wire"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/transcript"
)

// Agent is Qwen Code. Its hooks are Claude Code's, by name, input and answer (Stop,
// SubagentStop, {"decision":"block","reason":…}), with these differences (0.24.4):
//
//   - {"continue":false} on a Stop continues the turn like a block, so a halt is sent as an
//     allow with hooksup's message (wire.Dialect.Answer);
//   - a hook's timeout is read as milliseconds from 1000 up (seconds below), so hooksup writes
//     milliseconds;
//   - it ends a turn itself at the 8th block in a row (stopHookBlockingCap,
//     QWEN_CODE_STOP_HOOK_BLOCK_CAP): 7 continuations are honoured;
//   - it runs a project's own .qwen/settings.json hooks without asking (folder trust is off by
//     default), and joins their reasons with hooksup's into the one prompt it continues with;
//   - its transcript does not record that prompt (hooksup counts from the hooks).
//
// Injection: qwen reads a layer of system defaults from the file QWEN_CODE_SYSTEM_DEFAULTS_PATH
// names, below every settings file of the person's. hooksup writes its own for the session
// (0600, in its runtime directory): the system defaults qwen would have read, with hooksup's
// hooks added. The person's settings win as they would; nothing of theirs is written.
type Agent struct{ wire.Dialect }

// MinVersion is the oldest Qwen Code hooksup supervises: the Stop hook's input and answer and
// the system defaults' hooks as 0.24.4 has them. Older ones are refused at start.
var MinVersion = hooks.Version{Major: 0, Minor: 24, Patch: 4}

// MinNode is the oldest Node.js Qwen Code runs on (its package's "engines").
const MinNode = 22

// qwenEvents are the events hooksup injects into qwen, by hooksup's names (qwen's are the same).
var qwenEvents = []string{
	hooks.SessionStart, hooks.UserPromptSubmit, hooks.Notification, hooks.Stop,
	hooks.SubagentStart, hooks.SubagentStop, hooks.SessionEnd,
}

// HookEvents are the hook events hooksup qwen defines.
func HookEvents() []string { return append([]string(nil), qwenEvents...) }

// hookName names hooksup's hooks in qwen's settings (qwen shows it while a hook runs).
const hookName = "hooksup"

// npmPackage is Qwen Code's npm package.
const npmPackage = "@qwen-code/qwen-code"

// settingsVersion is the "$version" of qwen's settings files: without it qwen rewrites a file
// it reads.
const settingsVersion = 4

func (Agent) Product() string { return "Qwen Code" }
func (Agent) BinEnv() string  { return "HOOKSUP_QWEN_BIN" }
func (Agent) InstallHint() string {
	return "install Qwen Code (npm install -g " + npmPackage + "; it needs Node.js 22 or newer)"
}
func (Agent) Help() string {
	return "run qwen under supervision (qwen's exit status is hooksup's): the TUI in a terminal, headless for qwen -p"
}

// Events refuses a qwen older than MinVersion and returns the events hooksup injects. A qwen
// that is not found is left for Find to report; one whose version cannot be told gets them all
// (the supervisor warns if its hooks then never arrive).
func (Agent) Events(ctx context.Context, bin string, _ []string, logger *slog.Logger) ([]string, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, nil
	}
	start := time.Now()
	v, err := Version(ctx, path, os.Environ(), 20*time.Second)
	logger.Info("qwen version", "path", path, "version", v, "took", time.Since(start), "err", err)
	if v.Known() && v.Less(MinVersion) {
		return nil, fmt.Errorf("%s is Qwen Code %s, older than %s, the oldest hooksup supervises: update it (npm install -g %s@latest), or point --qwen-bin / HOOKSUP_QWEN_BIN at a newer qwen",
			path, v, MinVersion, npmPackage)
	}
	return HookEvents(), nil
}

// Version finds the version of the qwen at bin (a path): an npm install names it in the
// package.json of @qwen-code/qwen-code, read without running qwen; otherwise `bin --version`
// runs once, with env, for at most timeout.
func Version(ctx context.Context, bin string, env []string, timeout time.Duration) (hooks.Version, error) {
	if v, ok := agent.NPMVersion(bin, npmPackage); ok {
		return v, nil
	}
	return hooks.RunVersion(ctx, bin, env, timeout)
}

// Home is qwen's directory as its environment sets it: $QWEN_HOME, else ~/.qwen. Its settings,
// credentials and chats are there.
func Home(getenv func(string) string) string {
	if d := getenv("QWEN_HOME"); d != "" {
		return d
	}
	h := getenv("HOME")
	if h == "" {
		h, _ = os.UserHomeDir()
	}
	return filepath.Join(h, ".qwen")
}

// SystemSettingsPath is the administrator's settings, which outrank the person's.
func SystemSettingsPath(getenv func(string) string) string {
	if p := getenv("QWEN_CODE_SYSTEM_SETTINGS_PATH"); p != "" {
		return p
	}
	if runtime.GOOS == "darwin" {
		return "/Library/Application Support/QwenCode/settings.json"
	}
	return "/etc/qwen-code/settings.json"
}

// SystemDefaultsPath is the layer of defaults below every other settings file: the one
// QWEN_CODE_SYSTEM_DEFAULTS_PATH names, else system-defaults.json beside the system settings.
func SystemDefaultsPath(getenv func(string) string) string {
	if p := getenv("QWEN_CODE_SYSTEM_DEFAULTS_PATH"); p != "" {
		return p
	}
	return filepath.Join(filepath.Dir(SystemSettingsPath(getenv)), "system-defaults.json")
}

// defaultsVar is the variable that points qwen at hooksup's system defaults.
const defaultsVar = "QWEN_CODE_SYSTEM_DEFAULTS_PATH"

// defaultsSuffix ends the name of the system defaults Inject writes in the runtime directory.
const defaultsSuffix = ".qwen-system-defaults.json"

// Leftovers: the system defaults Inject writes.
func (Agent) Leftovers() []string { return []string{defaultsSuffix} }

// Inject writes the session's system defaults in dir (the ones qwen would read, with hooksup's
// hooks) and points QWEN_CODE_SYSTEM_DEFAULTS_PATH at them. The arguments are the person's;
// what would keep qwen from running hooksup's hooks, or add hooks of its own to its stops, is
// said in the warnings.
func (Agent) Inject(h agent.Hooks, args []string, dir, id string) (agent.Launch, error) {
	getenv := h.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	events := h.Events
	if events == nil {
		events = qwenEvents
	}
	from := SystemDefaultsPath(getenv)
	base, err := os.ReadFile(from)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return agent.Launch{}, fmt.Errorf("read qwen's system defaults: %w", err)
	}
	b, err := defaultsWithHooks(base, events, h)
	if err != nil {
		return agent.Launch{}, fmt.Errorf("%s: %w", from, err)
	}
	path := filepath.Join(dir, id+defaultsSuffix)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return agent.Launch{}, fmt.Errorf("qwen's settings for the session: %w", err)
	}
	cwd, _ := os.Getwd()
	return agent.Launch{Args: args, Files: []string{path}, Env: append([]string{defaultsVar + "=" + path}, capEnv(h.Blocks, getenv)...),
		Warnings: Warnings(args, getenv, cwd)}, nil
}

// blockCapVar sets qwen's cap on blocked stops (1 to 100): the block that reaches it ends the turn.
const blockCapVar = "QWEN_CODE_STOP_HOOK_BLOCK_CAP"

// maxBlockCap is the highest cap qwen takes: it cannot be turned off, so a budget beyond 99 in
// a row is qwen's to end.
const maxBlockCap = 100

// capEnv raises qwen's cap so that it honours hooksup's budget of blocks in a row (blocks; one
// more, as qwen's last block ends the turn; 100 at most) when that is larger than qwen's
// default. A cap the person set (the variable, or
// stopHookBlockingCap in their settings) stays theirs.
func capEnv(blocks int, getenv func(string) string) []string {
	if getenv(blockCapVar) != "" {
		return nil
	}
	if _, ok := userSettings(getenv).blockCap(); ok {
		return nil
	}
	if blocks < DefaultBlockCap {
		return nil
	}
	return []string{fmt.Sprintf("%s=%d", blockCapVar, min(blocks+1, maxBlockCap))}
}

// defaultsWithHooks is the system defaults (JSON with comments; empty when there are none)
// with "$version" and hooksup's hook for each of events appended to the hooks qwen runs for it.
func defaultsWithHooks(base []byte, events []string, h agent.Hooks) ([]byte, error) {
	m := map[string]any{}
	if len(bytes.TrimSpace(base)) > 0 {
		if err := decodeSettings(base, &m); err != nil {
			return nil, fmt.Errorf("not a JSON object: %w", err)
		}
	}
	if _, ok := m["$version"]; !ok {
		m["$version"] = settingsVersion
	}
	hs, _ := m["hooks"].(map[string]any)
	if hs == nil {
		hs = map[string]any{}
	}
	for _, ev := range events {
		t := h.OtherTimeout
		if hooks.IsStop(ev) {
			t = h.StopTimeout
		}
		group := map[string]any{"hooks": []any{map[string]any{
			"name": hookName, "type": "command", "command": h.Command(ev), "timeout": Millis(t),
		}}}
		list, _ := hs[ev].([]any)
		hs[ev] = append(list, group)
	}
	m["hooks"] = hs
	return json.MarshalIndent(m, "", "  ")
}

// Millis is a hook's timeout as qwen reads it: milliseconds from 1000 up (a number below is
// seconds), so never less than a second.
func Millis(d time.Duration) int64 { return max(d.Milliseconds(), 1000) }

// decodeSettings reads a qwen settings file (JSON with comments) into v, numbers kept as they are.
func decodeSettings(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(hooks.StripJSONComments(b)))
	dec.UseNumber()
	return dec.Decode(v)
}

// Headless reports qwen's -p/--prompt: no full-screen UI of its own. (-i/--prompt-interactive
// runs the TUI.)
func (Agent) Headless(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-p" || a == "--prompt" || strings.HasPrefix(a, "--prompt=") {
			return true
		}
	}
	return false
}

// TitleState reads qwen's window title (0.24.4: "Qwen - dir" idle, "◐︎ Qwen - dir" while it
// responds, "✳︎ Qwen - dir" while it waits for the person to confirm a tool call).
func (Agent) TitleState(title string) (state, kind, msg string, ok bool) {
	t := strings.TrimSpace(title)
	switch {
	case strings.HasPrefix(t, "◐"):
		return "working", "", "responding", true
	case strings.HasPrefix(t, "✳"):
		return "blocked", "permission", "waiting for confirmation", true
	case strings.HasPrefix(t, "Qwen - ") || t == "Qwen":
		return "idle", "", "ready", true
	}
	return "", "", "", false
}

// DefaultBlockCap is qwen's own limit on Stop hook blocks in a row: the 8th ends the turn.
const DefaultBlockCap = 8

// BlockCap is how many continuations in a row qwen honours: one less than its cap
// (QWEN_CODE_STOP_HOOK_BLOCK_CAP, else the person's stopHookBlockingCap, else 8), whose last
// block ends the turn instead.
func (Agent) BlockCap(getenv func(string) string) int {
	cap := DefaultBlockCap
	if v := strings.TrimSpace(getenv(blockCapVar)); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 1 {
			cap = min(n, 100)
		}
	} else if n, ok := userSettings(getenv).blockCap(); ok {
		cap = n
	}
	return cap - 1
}

// Transcripts are the chats of the sessions in projectDir: $QWEN_HOME/projects/<projectDir
// with every character but letters and digits as ->/chats/<session>.jsonl.
func (Agent) Transcripts(getenv func(string) string, projectDir string) string {
	return filepath.Join(Home(getenv), "projects", ProjectKey(projectDir), "chats", "*.jsonl")
}

// ProjectKey is qwen's name of a project's directory under projects/.
func ProjectKey(dir string) string {
	var b strings.Builder
	for _, r := range dir {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else if r >= 0x10000 {
			b.WriteString("--") // JavaScript replaces each UTF-16 unit: two here
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// Reply: a record of the model's.
func (Agent) Reply(line []byte) bool { return bytes.Contains(line, []byte(`"type":"assistant"`)) }

// Transcript: the chat (chat.go).
func (Agent) Transcript() func(maxText int) transcript.Decoder {
	return func(maxText int) transcript.Decoder { return &chat{maxText: maxText} }
}

// ResumeID is the session a chat is named after (<session id>.jsonl).
func (Agent) ResumeID(transcriptPath string) string {
	return strings.TrimSuffix(filepath.Base(transcriptPath), ".jsonl")
}

// Resume is `hooksup qwen --resume`, which takes qwen's session id.
func (Agent) Resume() string { return "hooksup qwen --resume" }

// ResumeHint turns qwen's `qwen --resume ID` (0.24.4 prints "To continue this session, run" and
// the command on the next line as it exits) into `hooksup qwen --resume ID`.
func (Agent) ResumeHint(line string) (string, bool) {
	l := strings.TrimRight(line, " ")
	i := strings.Index(l, "qwen --resume ")
	if i < 0 || (i > 0 && l[i-1] != ' ') || strings.HasSuffix(l[:i], "hooksup ") {
		return "", false
	}
	return l[:i] + "hooksup " + l[i:], true
}

// executedPlaceholder is what qwen joins in for a Stop hook that printed plain text and let it
// stop (0.24.4, convertPlainTextToHookOutput).
const executedPlaceholder = "Hook executed successfully"

// OtherStopReasons: qwen joins the reasons of the Stop hooks that blocked with "\n", in the order
// project, user, system (hooksup's hooks are system defaults, so its reason comes last), and a
// plain-text hook's placeholder among them. What is left once hooksup's reason and the
// placeholders are taken out is what the other hooks said.
func (Agent) OtherStopReasons(prompt, sent string) string {
	if sent != "" {
		if i := strings.LastIndex(prompt, sent); i >= 0 {
			prompt = prompt[:i] + prompt[i+len(sent):]
		}
	}
	var said []string
	for _, l := range strings.Split(prompt, "\n") {
		if strings.TrimSpace(l) != executedPlaceholder {
			said = append(said, l)
		}
	}
	return strings.TrimSpace(strings.Join(said, "\n"))
}

// PromptEmpty: qwen's empty input shows its placeholder after its mark (0.24.4:
// ">   Type your message or @path/to/file").
func (Agent) PromptEmpty(screen []string) bool { return agent.PromptWith(screen, placeholder) }

// placeholder is what qwen's empty input shows.
const placeholder = "Type your message or @path/to/file"
