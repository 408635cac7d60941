package codex

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/codex/wire"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/transcript"
)

// Agent is OpenAI's Codex CLI (npm @openai/codex). Its hooks are modelled on Claude Code's: the
// same event names, the same input fields (plus turn_id), the same answers
// ({"decision":"block","reason":…} makes it continue with the reason as its next prompt).
//
// Injection: -c overrides after the user's arguments define hooksup's hooks in Codex's
// session-flags layer for this run only, and trust exactly those definitions by the key and
// hash Codex keeps in [hooks.state] (trust.go). Nothing is written: not in CODEX_HOME,
// not in the project. Codex's other hooks keep their own trust; --dangerously-bypass-hook-trust
// is never used. A -c replaces the same key of an earlier one, so hooksup's come last: a user's
// own -c hooks.<Event> (which they would replace for the run) is warned about.
//
// Transcript: the rollout JSONL under $CODEX_HOME/sessions that every hook names in
// transcript_path (rollout.go). Codex has no loop cap on blocked stops of its own.
type Agent struct{ wire.Dialect }

// MinVersion is the oldest Codex hooksup supervises: the trust it gives hooksup's hooks is
// computed as 0.169.0 computes it. Older ones are refused at start.
var MinVersion = hooks.Version{Major: 0, Minor: 169, Patch: 0}

// codexEvents are the events hooksup injects into Codex: its stops, and what tells the agent's
// state (Codex has no Notification event).
var codexEvents = []string{hooks.SessionStart, hooks.UserPromptSubmit, hooks.PreToolUse, hooks.PermissionRequest,
	hooks.PostToolUse, hooks.Stop, hooks.SubagentStop}

// HookEvents are the hook events hooksup codex defines.
func HookEvents() []string { return append([]string(nil), codexEvents...) }

// HookFiles are the files where Codex would read hooks of its own for a session in
// projectDir, among those that exist: hooks.json and config.toml in CODEX_HOME and in the
// project's .codex (Codex reads a project's only when the project is trusted, and runs a hook
// of any of them only once its definition is trusted).
func HookFiles(getenv func(string) string, projectDir string) []string {
	var out []string
	for _, dir := range []string{Home(getenv), filepath.Join(projectDir, ".codex")} {
		if b, err := os.ReadFile(filepath.Join(dir, "hooks.json")); err == nil && len(bytes.TrimSpace(b)) > 0 {
			out = append(out, filepath.Join(dir, "hooks.json"))
		}
		if b, err := os.ReadFile(filepath.Join(dir, "config.toml")); err == nil && codexTOMLHooks().Match(b) {
			out = append(out, filepath.Join(dir, "config.toml")+" [hooks]")
		}
	}
	return out
}

// codexTOMLHooks finds a hook definition in a config.toml: a [hooks…] table, or a hooks.Event
// or hooks = key (the trust state alone, [hooks.state], defines none). It is compiled on first
// use.
var codexTOMLHooks = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(\[\[?\s*hooks\s*[.\]]\s*(?:[A-Z"]|\])|hooks\s*(\.\s*[A-Z]\w*\s*)?=)`)
})

func (Agent) Product() string     { return "Codex" }
func (Agent) BinEnv() string      { return "HOOKSUP_CODEX_BIN" }
func (Agent) InstallHint() string { return "install Codex (npm install -g @openai/codex)" }
func (Agent) Help() string {
	return "run codex under supervision (codex's exit status is hooksup's): the TUI in a terminal, headless for codex exec"
}

// Events refuses a Codex older than MinVersion and returns the events hooksup injects. A codex
// that is not found is left for Find to report; one whose version cannot be told gets them
// all (the supervisor warns if its hooks then never arrive).
func (Agent) Events(ctx context.Context, bin string, _ []string, logger *slog.Logger) ([]string, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, nil
	}
	start := time.Now()
	v, err := Version(ctx, path, os.Environ(), 10*time.Second)
	logger.Info("codex version", "path", path, "version", v, "took", time.Since(start), "err", err)
	if v.Known() && v.Less(MinVersion) {
		return nil, fmt.Errorf("%s is Codex %s, older than %s, the oldest hooksup supervises: update it (npm install -g @openai/codex@latest), or point --codex-bin / HOOKSUP_CODEX_BIN at a newer codex",
			path, v, MinVersion)
	}
	return append([]string(nil), codexEvents...), nil
}

// Version finds the version of the codex at bin (a path): an npm install names it in the
// package.json of @openai/codex, read without running codex; otherwise `bin --version` runs
// once ("codex-cli 0.169.0"), with env, for at most timeout.
func Version(ctx context.Context, bin string, env []string, timeout time.Duration) (hooks.Version, error) {
	if v, ok := agent.NPMVersion(bin, "@openai/codex"); ok {
		return v, nil
	}
	return hooks.RunVersion(ctx, bin, env, timeout)
}

// Inject puts the -c overrides that define and trust hooksup's hooks after the user's
// arguments (Codex reads them after exec and its prompt too), before a "--" that ends its
// options, so that no -c of the user's replaces them.
func (Agent) Inject(h agent.Hooks, args []string, _, _ string) (agent.Launch, error) {
	events := h.Events
	if events == nil {
		events = codexEvents
	}
	var hs []Hook
	for _, ev := range events {
		t := h.OtherTimeout
		if hooks.IsStop(ev) {
			t = h.StopTimeout
		}
		hs = append(hs, Hook{Event: ev, Command: h.Command(ev), Timeout: int((t + time.Second - 1) / time.Second)})
	}
	over, err := Overrides(hs)
	if err != nil {
		return agent.Launch{}, err
	}
	end := len(args)
	if i := slices.Index(args, "--"); i >= 0 {
		end = i
	}
	out := slices.Concat(args[:end], over, args[end:])
	var warnings []string
	for _, arg := range HookArgs(args) {
		switch {
		case arg == "--dangerously-bypass-hook-trust":
			warnings = append(warnings, "your --dangerously-bypass-hook-trust makes Codex run every enabled hook of this run, trusted or not, not only hooksup's")
		case strings.HasPrefix(arg, "-c hooks") || strings.HasPrefix(arg, "--config hooks"):
			warnings = append(warnings, fmt.Sprintf("your %s is replaced for this run by hooksup's own hooks: Codex keeps the last -c of a key", clipArg(arg)))
		default: // features.hooks, --enable/--disable hooks
			warnings = append(warnings, fmt.Sprintf("your %s decides whether Codex runs hooks at all, hooksup's too", clipArg(arg)))
		}
	}
	return agent.Launch{Args: out, Warnings: warnings}, nil
}

// clipArg is an argument cut for a message.
func clipArg(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// codexValueFlags are Codex's options that take a value, so the word after them is not a
// subcommand.
var codexValueFlags = map[string]bool{
	"-c": true, "--config": true, "--enable": true, "--disable": true, "-i": true, "--image": true,
	"-m": true, "--model": true, "--local-provider": true, "-p": true, "--profile": true,
	"-s": true, "--sandbox": true, "-a": true, "--ask-for-approval": true, "-C": true, "--cd": true,
	"--add-dir": true, "--remote": true, "--remote-auth-token-env": true,
}

// Headless reports `codex exec …` (or its alias `codex e`): no full-screen UI, the final
// message on stdout.
func (Agent) Headless(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return false
		case codexValueFlags[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a == "exec" || a == "e"
		}
	}
	return false
}

// BlockCap: Codex has no limit of its own on blocked stops.
func (Agent) BlockCap(func(string) string) int { return 0 }

// Home is Codex's home as its environment sets it: $CODEX_HOME, else ~/.codex.
func Home(getenv func(string) string) string {
	if d := getenv("CODEX_HOME"); d != "" {
		return d
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".codex")
}

// Transcripts are the rollouts under $CODEX_HOME/sessions/YYYY/MM/DD (Codex keeps them by day,
// not by project).
func (Agent) Transcripts(getenv func(string) string, _ string) string {
	return filepath.Join(Home(getenv), "sessions", "*", "*", "*", "rollout-*.jsonl")
}

// Reply: a response_item holding the model's message.
func (Agent) Reply(line []byte) bool {
	return bytes.Contains(line, []byte(`"type":"response_item"`)) && bytes.Contains(line, []byte(`"role":"assistant"`))
}

// Transcript: the rollout (rollout.go).
func (Agent) Transcript() func(maxText int) transcript.Decoder {
	return func(maxText int) transcript.Decoder { return &rollout{maxText: maxText} }
}

// ResumeID is the session id at the end of a rollout's name (rollout-<time>-<session id>.jsonl).
func (Agent) ResumeID(transcriptPath string) string {
	name := strings.TrimSuffix(filepath.Base(transcriptPath), ".jsonl")
	const idLen = 36 // a UUID
	if !strings.HasPrefix(name, "rollout-") || len(name) < len("rollout-")+idLen {
		return ""
	}
	return name[len(name)-idLen:]
}

// Resume is `hooksup codex resume`.
func (Agent) Resume() string { return "hooksup codex resume" }

// codexResumeRE is a line of what Codex 0.169.0 prints as it exits, naming its own resume
// command: "  codex resume ID" (after "To continue this session, run:"), "Or run codex resume
// and select TITLE.", and older Codex's "To continue this session, run codex resume ID".
var codexResumeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\s*|.*\brun )codex (resume\b.*)$`)
})

// ResumeHint turns Codex's `codex resume …` into `hooksup codex resume …`, in place.
func (Agent) ResumeHint(line string) (string, bool) {
	m := codexResumeRE().FindStringSubmatch(strings.TrimRight(line, " "))
	if m == nil {
		return "", false
	}
	return m[1] + "hooksup codex " + m[2], true
}

// PromptEmpty: codex's empty composer shows a placeholder after its mark "›" (0.169.0: "Ask
// Codex to do anything" before the first prompt, "Ask a follow-up question" after).
func (Agent) PromptEmpty(screen []string) bool {
	return agent.PromptWith(screen, "Ask Codex to do anything", "Ask a follow-up question")
}
