package claude

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/claude/wire"
	"github.com/hooksup/hooksup/transcript"
)

// Agent is Anthropic's Claude Code. Its hook protocol is package hooks' (modelled on it); its
// settings, their injection and install, its versions and doctor's checks are here; its
// transcript is transcript's own format.
//
// Injection: one --settings file (0600, in hooksup's runtime directory, removed at exit) holds
// hooksup's hooks merged into a --settings of the user's, since claude takes one. Quirks: the
// events a settings file may name depend on claude's version (hooks.EventsFor; an older claude
// drops a file naming an unknown event whole), versions before MinVersion are refused,
// and claude overrides a Stop blocked 8 times in a row (hooks.BlockCap). Its own terminal
// reports (OSC 7501) and resume hints are read by the TUI.
type Agent struct{ wire.Dialect }

func (Agent) Product() string { return "Claude Code" }
func (Agent) BinEnv() string  { return "HOOKSUP_CLAUDE_BIN" }
func (Agent) InstallHint() string {
	return "install Claude Code (npm install -g @anthropic-ai/claude-code)"
}

func (Agent) Help() string {
	return "run claude under supervision (claude's exit status is hooksup's): the TUI in a terminal, headless otherwise"
}

// Events finds the version of the claude at bin, refuses one older than MinVersion, and
// returns the hook events that claude knows. A claude that is not found is left for Find to
// report; one whose version cannot be told gets every event (the supervisor warns if its hooks
// then never arrive).
func (c Agent) Events(ctx context.Context, bin string, args []string, logger *slog.Logger) ([]string, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, nil
	}
	start := time.Now()
	v, err := Version(ctx, path, os.Environ(), 10*time.Second)
	logger.Info("claude version", "path", path, "version", v, "took", time.Since(start), "err", err)
	if v.Known() && !Supported(v) {
		return nil, &ErrTooOld{Version: v, Path: path}
	}
	return EventsFor(v, c.Headless(args)), nil
}

// settingsSuffix ends the name of the settings file Inject writes in the runtime directory.
const settingsSuffix = ".settings.json"

// Leftovers: the settings file Inject writes.
func (Agent) Leftovers() []string { return []string{settingsSuffix} }

// Inject writes the settings claude gets (hooksup's hooks merged into a --settings of the
// user's) to a 0600 file in dir and passes it with --settings.
func (Agent) Inject(h agent.Hooks, args []string, dir, id string) (agent.Launch, error) {
	userSettings, rest, err := extractSettingsArg(args)
	if err != nil {
		return agent.Launch{}, err
	}
	events := h.Events
	if events == nil {
		events = InjectedEvents
	}
	settings, err := InjectedSettings(userSettings, Groups(events, h.Command, h.StopTimeout, h.OtherTimeout))
	if err != nil {
		return agent.Launch{}, fmt.Errorf("your --settings: %w", err)
	}
	path := filepath.Join(dir, id+settingsSuffix)
	if err := os.WriteFile(path, settings, 0o600); err != nil {
		return agent.Launch{}, fmt.Errorf("write injected settings: %w", err)
	}
	return agent.Launch{Args: append([]string{"--settings", path}, rest...), Files: []string{path}, Env: capEnv(h)}, nil
}

// capEnv raises claude's cap on blocked stops (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP) to hooksup's
// budget when that is larger than claude's default, so that hooksup's budget decides; a cap the
// person set stays theirs.
func capEnv(h agent.Hooks) []string {
	getenv := h.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if getenv(BlockCapEnv) != "" {
		return nil
	}
	if h.Blocks <= DefaultBlockCap {
		return nil
	}
	return []string{fmt.Sprintf("%s=%d", BlockCapEnv, h.Blocks)}
}

// Headless reports claude's -p/--print: no full-screen UI of its own.
func (Agent) Headless(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-p" || a == "--print" || strings.HasPrefix(a, "--print=") {
			return true
		}
	}
	return false
}

// BlockCap is claude's loop cap (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, 8 by default).
func (Agent) BlockCap(getenv func(string) string) int { return BlockCap(getenv) }

// CapEnded: claude writes a system informational line when its cap overrides a blocked stop
// ("A hook blocked the turn from ending 9 consecutive times—overriding and ending turn. …").
func (Agent) CapEnded(r transcript.Record) bool {
	return r.Kind == transcript.KindInformational && strings.Contains(r.Text, "overriding and ending turn")
}

// Transcripts are the session files in claude's project directory for projectDir.
func (Agent) Transcripts(getenv func(string) string, projectDir string) string {
	return filepath.Join(transcript.ProjectDir(transcript.ConfigDir(getenv), projectDir), "*.jsonl")
}

// Reply: an assistant line.
func (Agent) Reply(line []byte) bool { return bytes.Contains(line, []byte(`"type":"assistant"`)) }

// Transcript: claude's session JSONL is the parser's own format.
func (Agent) Transcript() func(maxText int) transcript.Decoder { return nil }

// ResumeID is the session id a transcript is named after (<session id>.jsonl).
func (Agent) ResumeID(transcriptPath string) string {
	return strings.TrimSuffix(filepath.Base(transcriptPath), ".jsonl")
}

// Resume is `hooksup claude --resume`.
func (Agent) Resume() string { return "hooksup claude --resume" }

// claudeResumeRE is the command claude prints as it exits, to resume its session: plain claude
// with some of the flags it was started with (e.g. --permission-mode, or the --settings file);
// settingsArgRE is a --settings flag in it: hooksup's own file, gone by then. They are compiled
// on first use.
var (
	claudeResumeRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^claude ((?:\S+ )*?(?:--resume \S+|--continue))$`)
	})
	settingsArgRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^| )--settings(?: |=)\S+`) })
)

// ResumeHint turns claude's resume command ("claude [flags] --resume ID" or "--continue")
// into `hooksup claude [flags] --resume ID`, without hooksup's --settings.
func (Agent) ResumeHint(line string) (string, bool) {
	m := claudeResumeRE().FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return "", false
	}
	return "hooksup claude " + strings.TrimSpace(settingsArgRE().ReplaceAllString(m[1], "")), true
}

// extractSettingsArg removes the user's own --settings (a file or inline JSON) from args and
// returns its content, so hooksup can merge its hooks into it: claude takes one --settings.
func extractSettingsArg(args []string) ([]byte, []string, error) {
	var content []byte
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		var val string
		switch {
		case a == "--":
			out = append(out, args[i:]...)
			return content, out, nil
		case a == "--settings" && i+1 < len(args):
			val = args[i+1]
			i++
		case strings.HasPrefix(a, "--settings="):
			val = strings.TrimPrefix(a, "--settings=")
		default:
			out = append(out, a)
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(val), "{") {
			content = []byte(val)
			continue
		}
		b, err := os.ReadFile(val)
		if err != nil {
			return nil, nil, fmt.Errorf("read your --settings file: %w", err)
		}
		content = b
	}
	return content, out, nil
}
