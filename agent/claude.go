package agent

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

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/transcript"
)

// Claude is Anthropic's Claude Code. Its hook protocol, settings and install are package hooks;
// its transcript is transcript's default format.
//
// Injection: one --settings file (0600, in hooksup's runtime directory, removed at exit) holds
// hooksup's hooks merged into a --settings of the user's, since claude takes one. Quirks: the
// events a settings file may name depend on claude's version (hooks.EventsFor; an older claude
// drops a file naming an unknown event whole), versions before hooks.MinVersion are refused,
// and claude overrides a Stop blocked 8 times in a row (hooks.BlockCap). Its own terminal
// reports (OSC 7501) and resume hints are read by the TUI.
type Claude struct{}

func (Claude) Name() string    { return "claude" }
func (Claude) Product() string { return "Claude Code" }
func (Claude) BinEnv() string  { return "HOOKSUP_CLAUDE_BIN" }
func (Claude) InstallHint() string {
	return "install Claude Code (npm install -g @anthropic-ai/claude-code)"
}

// Events finds the version of the claude at bin, refuses one older than hooks.MinVersion, and
// returns the hook events that claude knows. A claude that is not found is left for Find to
// report; one whose version cannot be told gets every event (the supervisor warns if its hooks
// then never arrive).
func (c Claude) Events(ctx context.Context, bin string, args []string, logger *slog.Logger) ([]string, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, nil
	}
	start := time.Now()
	v, err := hooks.ClaudeVersion(ctx, path, os.Environ(), 10*time.Second)
	logger.Info("claude version", "path", path, "version", v, "took", time.Since(start), "err", err)
	if v.Known() && !v.Supported() {
		return nil, &hooks.ErrTooOld{Version: v, Path: path}
	}
	return hooks.EventsFor(v, c.Headless(args)), nil
}

// Inject writes the settings claude gets (hooksup's hooks merged into a --settings of the
// user's) to a 0600 file in dir and passes it with --settings.
func (Claude) Inject(h Hooks, args []string, dir, id string) (Launch, error) {
	userSettings, rest, err := extractSettingsArg(args)
	if err != nil {
		return Launch{}, err
	}
	events := h.Events
	if events == nil {
		events = hooks.InjectedEvents
	}
	settings, err := hooks.InjectedSettings(userSettings, hooks.Groups(events, h.Command, h.StopTimeout, h.OtherTimeout))
	if err != nil {
		return Launch{}, fmt.Errorf("your --settings: %w", err)
	}
	path := filepath.Join(dir, id+".settings.json")
	if err := os.WriteFile(path, settings, 0o600); err != nil {
		return Launch{}, fmt.Errorf("write injected settings: %w", err)
	}
	return Launch{Args: append([]string{"--settings", path}, rest...), Files: []string{path}}, nil
}

// Headless reports claude's -p/--print: no full-screen UI of its own.
func (Claude) Headless(args []string) bool {
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

// Input: claude's input is hooksup's.
func (Claude) Input(*hooks.Input) {}

// Answer is hooks' codec: claude's.
func (Claude) Answer(a hooks.Answer) ([]byte, int) { return a.Encode() }

// BlockCap is claude's loop cap (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, 8 by default).
func (Claude) BlockCap(getenv func(string) string) int { return hooks.BlockCap(getenv) }

// Transcripts are the session files in claude's project directory for projectDir.
func (Claude) Transcripts(getenv func(string) string, projectDir string) string {
	return filepath.Join(transcript.ProjectDir(transcript.ConfigDir(getenv), projectDir), "*.jsonl")
}

// Reply: an assistant line.
func (Claude) Reply(line []byte) bool { return bytes.Contains(line, []byte(`"type":"assistant"`)) }

func (Claude) Transcript() transcript.Format { return transcript.FormatClaude }

// ResumeID is the session id a transcript is named after (<session id>.jsonl).
func (Claude) ResumeID(transcriptPath string) string {
	return strings.TrimSuffix(filepath.Base(transcriptPath), ".jsonl")
}

// Resume is `hooksup claude --resume`.
func (Claude) Resume() string { return "hooksup claude --resume" }

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
func (Claude) ResumeHint(line string) (string, bool) {
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
