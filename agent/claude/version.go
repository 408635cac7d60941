package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hooksup/hooksup/hooks"
)

// MinVersion is the oldest Claude Code hooksup supervises; older ones are refused at start.
// Before 2.1.26 SubagentStop names no agent_type and claude fires SubagentStart/SubagentStop
// for the warm-up agents it starts at launch (spurious subagent verdicts); before 2.1.47 Stop
// has no last_assistant_message; before 2.1.59 the transcript keeps each reply's output tokens
// as 1, so every token figure would be wrong. From 2.1.59 on, hooksup's end-to-end tests pass
// (StopFailure is left out up to 2.1.77).
var MinVersion = hooks.Version{Major: 2, Minor: 1, Patch: 59}

// TestedVersion is the Claude Code the test suite pins; newer versions are expected to work.
var TestedVersion = hooks.Version{Major: 2, Minor: 1, Patch: 330}

// eventSince is the first Claude Code version whose settings accept each event hooksup
// injects (found in each release's list of hook events). A settings file that names an event
// its claude does not know is rejected whole, and silently, up to 2.1.100: then no hook runs at
// all. From 2.1.101 on, claude skips the unknown event and says so on stderr.
var eventSince = map[string]hooks.Version{
	hooks.PreToolUse:        {Major: 1, Minor: 0, Patch: 0},
	hooks.Notification:      {Major: 1, Minor: 0, Patch: 0},
	hooks.Stop:              {Major: 1, Minor: 0, Patch: 31},
	hooks.SubagentStop:      {Major: 1, Minor: 0, Patch: 41},
	hooks.UserPromptSubmit:  {Major: 1, Minor: 0, Patch: 53},
	hooks.SessionStart:      {Major: 1, Minor: 0, Patch: 62},
	hooks.SessionEnd:        {Major: 1, Minor: 0, Patch: 85},
	hooks.SubagentStart:     {Major: 2, Minor: 0, Patch: 44},
	hooks.PermissionRequest: {Major: 2, Minor: 0, Patch: 45},
	hooks.StopFailure:       {Major: 2, Minor: 1, Patch: 78},
}

// Supported reports whether hooksup supervises claude v: at least MinVersion, or unknown
// (hooksup then injects every event and watches that its hooks arrive).
func Supported(v hooks.Version) bool { return !v.Known() || !v.Less(MinVersion) }

// EventsFor returns the events to inject into claude v: those of InjectedEvents that v knows
// (all of them when v is unknown). In print mode (-p) SessionStart is left out: claude reports
// a SessionStart hook on stdout (stream-json's hook_started/hook_response lines), and the
// first hook that does fire there (UserPromptSubmit) names the session as well.
func EventsFor(v hooks.Version, print bool) []string {
	out := make([]string, 0, len(InjectedEvents))
	for _, ev := range InjectedEvents {
		if v.Known() && v.Less(eventSince[ev]) {
			continue
		}
		if print && ev == hooks.SessionStart {
			continue
		}
		out = append(out, ev)
	}
	return out
}

// ErrTooOld is returned for a claude older than MinVersion.
type ErrTooOld struct {
	Version hooks.Version
	Path    string
}

func (e *ErrTooOld) Error() string {
	return fmt.Sprintf("%s is Claude Code %s, older than %s, the oldest hooksup supervises (tested with %s). "+
		"Update it (claude update, or npm install -g @anthropic-ai/claude-code@latest), or point --claude-bin / HOOKSUP_CLAUDE_BIN at a newer claude",
		e.Path, e.Version, MinVersion, TestedVersion)
}

// Version finds the version of the claude at bin (a path). An npm install names it in the
// package.json beside the binary, and the native installer in the file name of the version it
// links to; both are read without running claude. Otherwise it runs `bin --version` once,
// with env, for at most timeout. It returns the zero Version and an error when it cannot tell.
func Version(ctx context.Context, bin string, env []string, timeout time.Duration) (hooks.Version, error) {
	if v, ok := versionFromFiles(bin); ok {
		return v, nil
	}
	return hooks.RunVersion(ctx, bin, env, timeout)
}

// versionFromFiles reads the version of an npm install (…/@anthropic-ai/claude-code/cli.js or
// …/bin/claude.exe with package.json one or two levels up, or the platform package's
// …/@anthropic-ai/claude-code-linux-x64/claude) or of the native installer
// (~/.local/share/claude/versions/2.1.330).
func versionFromFiles(bin string) (hooks.Version, bool) {
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return hooks.Version{}, false
	}
	if filepath.Base(filepath.Dir(real)) == "versions" {
		if v, ok := hooks.ParseVersion(filepath.Base(real)); ok && filepath.Base(real) == v.String() {
			return v, true
		}
	}
	dir := filepath.Dir(real)
	for range 2 {
		b, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil {
			var p struct{ Name, Version string }
			if json.Unmarshal(b, &p) == nil && strings.HasPrefix(p.Name, "@anthropic-ai/claude-code") {
				return hooks.ParseVersion(p.Version)
			}
		}
		dir = filepath.Dir(dir)
	}
	return hooks.Version{}, false
}
