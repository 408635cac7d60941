// Package copilot is all hooksup knows of GitHub Copilot CLI (npm @github/copilot).
package copilot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/copilot/wire"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/transcript"
)

// Agent is GitHub Copilot CLI. Its hooks have names of their own: agentStop is the stop (its
// answer {"decision":"block","reason":…} on stdout sends the reason as the next user message,
// and the next agentStop carries stop_hook_active), subagentStop a subagent's (a block continues
// the subagent), userPromptSubmitted a prompt, notification a permission prompt
// (notification_type permission_prompt), postToolUse a tool's end, sessionStart and sessionEnd.
// Copilot ends a turn whose stop was blocked 8 times in a row itself; it has no answer that
// halts a turn (hooksup's halt is an allow and hooksup's own message); its window title tells
// no state (the hooks do).
//
// Injection: a plugin of hooksup's in the runtime directory, its manifest and hooks/hooks.json,
// named with --plugin-dir for the session. Copilot runs a --plugin-dir plugin's hooks in a
// folder it does not trust, as non-root, on --resume, and whatever disableAllHooks says;
// nothing of the person's is written. hooksup never trusts a folder for the person
// (no --trust-folder, COPILOT_ALLOW_ALL or GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS).
type Agent struct{ wire.Dialect }

// MinVersion is the oldest Copilot CLI hooksup supervises: agentStop's input and answer, and
// --plugin-dir's hooks, as 1.0.102 has them. Older ones are refused at start.
var MinVersion = hooks.Version{Major: 1, Minor: 0, Patch: 102}

// Cap is how many stops in a row Copilot lets a hook block: the next one ends the turn ("Agent
// stop hook blocked 8 consecutive times; ending turn.").
const Cap = 8

// copilotEvent is Copilot's name of each hook event hooksup injects into it.
var copilotEvent = map[string]string{
	hooks.SessionStart:     "sessionStart",
	hooks.UserPromptSubmit: "userPromptSubmitted",
	hooks.Notification:     "notification",
	hooks.PostToolUse:      "postToolUse",
	hooks.Stop:             "agentStop",
	hooks.SubagentStop:     "subagentStop",
	hooks.SessionEnd:       "sessionEnd",
}

// copilotEvents are the events hooksup injects, by hooksup's names, in order.
var copilotEvents = []string{hooks.SessionStart, hooks.UserPromptSubmit, hooks.Notification, hooks.PostToolUse,
	hooks.Stop, hooks.SubagentStop, hooks.SessionEnd}

// HookEvents are the hook events hooksup copilot defines, by Copilot's names.
func HookEvents() []string {
	out := make([]string, len(copilotEvents))
	for i, ev := range copilotEvents {
		out[i] = copilotEvent[ev]
	}
	return out
}

// pluginName names hooksup's plugin (Copilot shows it when a hook of it fails or times out).
const pluginName = "hooksup"

func (Agent) Product() string { return "GitHub Copilot CLI" }
func (Agent) BinEnv() string  { return "HOOKSUP_COPILOT_BIN" }
func (Agent) InstallHint() string {
	return "install GitHub Copilot CLI (npm install -g @github/copilot)"
}
func (Agent) Help() string {
	return "run copilot under supervision (copilot's exit status is hooksup's): the TUI in a terminal, headless for copilot -p"
}

// Events refuses a copilot older than MinVersion and returns the events hooksup injects. A
// copilot that is not found is left for Find to report; one whose version cannot be told gets
// them all (the supervisor warns if its hooks then never arrive).
func (Agent) Events(ctx context.Context, bin string, _ []string, logger *slog.Logger) ([]string, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, nil
	}
	start := time.Now()
	v, err := Version(ctx, path, os.Environ(), 20*time.Second)
	logger.Info("copilot version", "path", path, "version", v, "took", time.Since(start), "err", err)
	if err := tooOld(path, v); err != nil {
		return nil, err
	}
	return append([]string(nil), copilotEvents...), nil
}

// tooOld is the refusal of a copilot older than MinVersion (nil when it is not).
func tooOld(path string, v hooks.Version) error {
	if v.Known() && v.Less(MinVersion) {
		return fmt.Errorf("%s is GitHub Copilot CLI %s, older than %s, the oldest hooksup supervises (its agentStop hook and --plugin-dir): "+
			"update it (npm install -g @github/copilot@latest), or point --copilot-bin / HOOKSUP_COPILOT_BIN at a newer copilot", path, v, MinVersion)
	}
	return nil
}

// Version finds the version of the copilot at bin (a path): an npm install names it in the
// package.json of @github/copilot (or of the platform's package, whose binary that is), read
// without running copilot; otherwise `bin --version` ("GitHub Copilot CLI 1.0.102.") runs once,
// with env, for at most timeout.
func Version(ctx context.Context, bin string, env []string, timeout time.Duration) (hooks.Version, error) {
	for _, pkg := range []string{"@github/copilot", "@github/copilot-linux-x64", "@github/copilot-linux-arm64",
		"@github/copilot-darwin-arm64", "@github/copilot-darwin-x64"} {
		if v, ok := agent.NPMVersion(bin, pkg); ok {
			return v, nil
		}
	}
	return hooks.RunVersion(ctx, bin, env, timeout)
}

// Home is Copilot's directory as its environment sets it: $COPILOT_HOME, else ~/.copilot. Its
// settings, session state (the transcripts) and logs are there.
func Home(getenv func(string) string) string {
	if d := getenv("COPILOT_HOME"); d != "" {
		return d
	}
	h := getenv("HOME")
	if h == "" {
		h, _ = os.UserHomeDir()
	}
	return filepath.Join(h, ".copilot")
}

// pluginSuffix ends the name of the plugin Inject writes in the runtime directory.
const pluginSuffix = ".copilot-plugin"

// Leftovers: the plugin Inject writes.
func (Agent) Leftovers() []string { return []string{pluginSuffix} }

// Inject writes hooksup's plugin for the session in dir (a manifest and hooks/hooks.json, a
// hook for each event with its timeout in seconds) and names it with --plugin-dir before the
// person's arguments. It is removed when the session ends.
func (Agent) Inject(h agent.Hooks, args []string, dir, id string) (agent.Launch, error) {
	events := h.Events
	if events == nil {
		events = copilotEvents
	}
	root := filepath.Join(dir, id+pluginSuffix)
	hooksJSON, err := pluginHooks(events, h)
	if err != nil {
		return agent.Launch{}, err
	}
	manifest, _ := json.Marshal(map[string]string{"name": pluginName, "description": "hooksup's hooks for one session", "version": "1.0.0"})
	if err := os.MkdirAll(filepath.Join(root, "hooks"), 0o700); err != nil {
		return agent.Launch{}, fmt.Errorf("copilot's plugin for the session: %w", err)
	}
	for name, b := range map[string][]byte{"plugin.json": manifest, filepath.Join("hooks", "hooks.json"): hooksJSON} {
		if err := os.WriteFile(filepath.Join(root, name), b, 0o600); err != nil {
			os.RemoveAll(root)
			return agent.Launch{}, fmt.Errorf("copilot's plugin for the session: %w", err)
		}
	}
	out := append([]string{"--plugin-dir", root}, args...)
	return agent.Launch{Args: out, Cleanup: func() error { return os.RemoveAll(root) }}, nil
}

// pluginHooks is the plugin's hooks/hooks.json: for each of events Copilot knows, one command
// hook, its timeout in whole seconds (timeoutSec), rounded up.
func pluginHooks(events []string, h agent.Hooks) ([]byte, error) {
	type hook struct {
		Type       string `json:"type"`
		Bash       string `json:"bash"`
		TimeoutSec int64  `json:"timeoutSec"`
	}
	hs := map[string][]hook{}
	for _, ev := range events {
		name, ok := copilotEvent[ev]
		if !ok {
			continue
		}
		t := h.OtherTimeout
		if hooks.IsStop(ev) {
			t = h.StopTimeout
		}
		hs[name] = append(hs[name], hook{Type: "command", Bash: h.Command(ev), TimeoutSec: seconds(t)})
	}
	return json.MarshalIndent(map[string]any{"version": 1, "hooks": hs}, "", "  ")
}

// seconds is d in whole seconds, rounded up, at least 1.
func seconds(d time.Duration) int64 {
	return max(int64(math.Ceil(d.Seconds())), 1)
}

// Headless reports copilot's -p/--prompt: no full-screen UI of its own. (-i/--interactive
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

// BlockCap: Copilot ends a turn whose stop was blocked Cap times in a row.
func (Agent) BlockCap(func(string) string) int { return Cap }

// Transcripts are the sessions' event logs under $COPILOT_HOME/session-state.
func (Agent) Transcripts(getenv func(string) string, _ string) string {
	return filepath.Join(Home(getenv), "session-state", "*", "events.jsonl")
}

// Reply: the model's message.
func (Agent) Reply(line []byte) bool {
	return bytes.Contains(line, []byte(`"type":"assistant.message"`))
}

// Transcript: the session's events.jsonl (events.go).
func (Agent) Transcript() func(maxText int) transcript.Decoder {
	return func(maxText int) transcript.Decoder { return &events{maxText: maxText} }
}

// ResumeID is the session whose events the transcript holds: its directory's name.
func (Agent) ResumeID(transcriptPath string) string {
	if transcriptPath == "" || filepath.Base(transcriptPath) != "events.jsonl" {
		return ""
	}
	return filepath.Base(filepath.Dir(transcriptPath))
}

// Resume is `hooksup copilot --resume`, which takes copilot's session id.
func (Agent) Resume() string { return "hooksup copilot --resume" }

// ResumeHint turns copilot's `copilot --resume=ID` into `hooksup copilot --resume=ID`, in place.
func (Agent) ResumeHint(line string) (string, bool) {
	// Copilot CLI 1.0.102 ends with "Resume     copilot --resume=ID" in its parting lines.
	l := strings.TrimRight(line, " ")
	i := strings.Index(l, "copilot --resume")
	if i < 0 || (i > 0 && l[i-1] != ' ') || strings.HasSuffix(l[:i], "hooksup ") {
		return "", false
	}
	return l[:i] + "hooksup " + l[i:], true
}

// PromptEmpty: copilot's empty input is a row holding its mark alone between two rules: "┃"
// between "╻▄▄…" and "╹▀▀…" (1.0.102 in a terminal of 256 colours), "❯" between "───" rows
// (when CI is set). A row holding the mark alone inside the person's text of several lines
// has text around it.
func (Agent) PromptEmpty(screen []string) bool {
	rule := func(i int) bool {
		if i < 0 || i >= len(screen) {
			return false
		}
		r := strings.TrimSpace(screen[i])
		return r != "" && strings.Trim(r, "╻╹▄▀─━") == ""
	}
	for i, l := range screen {
		if m := strings.TrimSpace(l); (m == "┃" || m == "❯") && rule(i-1) && rule(i+1) {
			return true
		}
	}
	return false
}
