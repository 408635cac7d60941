package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Version is a Claude Code version, as `claude --version` prints it ("2.1.330 (Claude Code)").
// The zero Version is unknown.
type Version struct{ Major, Minor, Patch int }

// MinVersion is the oldest Claude Code hooksup supervises; older ones are refused at start.
// Before 2.1.26 SubagentStop names no agent_type and claude fires SubagentStart/SubagentStop
// for the warm-up agents it starts at launch (spurious subagent verdicts); before 2.1.47 Stop
// has no last_assistant_message; before 2.1.59 the transcript keeps each reply's output tokens
// as 1, so every token figure would be wrong. From 2.1.59 on, hooksup's end-to-end tests pass
// (StopFailure is left out up to 2.1.77).
var MinVersion = Version{2, 1, 59}

// TestedVersion is the Claude Code the test suite pins; newer versions are expected to work.
var TestedVersion = Version{2, 1, 330}

// eventSince is the first Claude Code version whose settings accept each event hooksup
// injects (found in each release's list of hook events). A settings file that names an event
// its claude does not know is rejected whole, and silently, up to 2.1.100: then no hook runs at
// all. From 2.1.101 on, claude skips the unknown event and says so on stderr.
var eventSince = map[string]Version{
	PreToolUse:        {1, 0, 0},
	Notification:      {1, 0, 0},
	Stop:              {1, 0, 31},
	SubagentStop:      {1, 0, 41},
	UserPromptSubmit:  {1, 0, 53},
	SessionStart:      {1, 0, 62},
	SessionEnd:        {1, 0, 85},
	SubagentStart:     {2, 0, 44},
	PermissionRequest: {2, 0, 45},
	StopFailure:       {2, 1, 78},
}

// versionRE is compiled on first use, not when the package loads: the hook client
// (cmd/hooksup-hook) links this package and runs on every hook call without reading versions.
var versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(\d+)\.(\d+)\.(\d+)\b`) })

// ParseVersion reads the first x.y.z in s (e.g. `claude --version`'s output).
func ParseVersion(s string) (Version, bool) {
	m := versionRE().FindStringSubmatch(s)
	if m == nil {
		return Version{}, false
	}
	var v Version
	for i, p := range []*int{&v.Major, &v.Minor, &v.Patch} {
		n, err := strconv.Atoi(m[i+1])
		if err != nil {
			return Version{}, false
		}
		*p = n
	}
	return v, true
}

// Known reports whether the version was found.
func (v Version) Known() bool { return v != Version{} }

func (v Version) String() string {
	if !v.Known() {
		return "unknown"
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// Less reports whether v is older than w.
func (v Version) Less(w Version) bool {
	if v.Major != w.Major {
		return v.Major < w.Major
	}
	if v.Minor != w.Minor {
		return v.Minor < w.Minor
	}
	return v.Patch < w.Patch
}

// Supported reports whether hooksup supervises this version: at least MinVersion, or unknown
// (hooksup then injects every event and watches that its hooks arrive).
func (v Version) Supported() bool { return !v.Known() || !v.Less(MinVersion) }

// EventsFor returns the events to inject into claude v: those of InjectedEvents that v knows
// (all of them when v is unknown). In print mode (-p) SessionStart is left out: claude reports
// a SessionStart hook on stdout (stream-json's hook_started/hook_response lines), and the
// first hook that does fire there (UserPromptSubmit) names the session as well.
func EventsFor(v Version, print bool) []string {
	out := make([]string, 0, len(InjectedEvents))
	for _, ev := range InjectedEvents {
		if v.Known() && v.Less(eventSince[ev]) {
			continue
		}
		if print && ev == SessionStart {
			continue
		}
		out = append(out, ev)
	}
	return out
}

// ErrTooOld is returned for a claude older than MinVersion.
type ErrTooOld struct {
	Version Version
	Path    string
}

func (e *ErrTooOld) Error() string {
	return fmt.Sprintf("%s is Claude Code %s, older than %s, the oldest hooksup supervises (tested with %s). "+
		"Update it (claude update, or npm install -g @anthropic-ai/claude-code@latest), or point --claude-bin / HOOKSUP_CLAUDE_BIN at a newer claude",
		e.Path, e.Version, MinVersion, TestedVersion)
}

// ClaudeVersion finds the version of the claude at bin (a path). An npm install names it in the
// package.json beside the binary, and the native installer in the file name of the version it
// links to; both are read without running claude. Otherwise it runs `bin --version` once,
// with env, for at most timeout. It returns the zero Version and an error when it cannot tell.
func ClaudeVersion(ctx context.Context, bin string, env []string, timeout time.Duration) (Version, error) {
	if v, ok := versionFromFiles(bin); ok {
		return v, nil
	}
	return RunVersion(ctx, bin, env, timeout)
}

// RunVersion runs `bin --version` once, with env, for at most timeout, and reads the version
// in the first line it prints. It returns the zero Version and an error when it cannot tell.
func RunVersion(ctx context.Context, bin string, env []string, timeout time.Duration) (Version, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = env
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		return Version{}, fmt.Errorf("%s --version: %w", bin, err)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	v, ok := ParseVersion(first)
	if !ok {
		return Version{}, fmt.Errorf("%s --version printed %q, not a version", bin, clipString(first, 80))
	}
	return v, nil
}

// versionFromFiles reads the version of an npm install (…/@anthropic-ai/claude-code/cli.js or
// …/bin/claude.exe with package.json one or two levels up, or the platform package's
// …/@anthropic-ai/claude-code-linux-x64/claude) or of the native installer
// (~/.local/share/claude/versions/2.1.330).
func versionFromFiles(bin string) (Version, bool) {
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return Version{}, false
	}
	if filepath.Base(filepath.Dir(real)) == "versions" {
		if v, ok := ParseVersion(filepath.Base(real)); ok && filepath.Base(real) == v.String() {
			return v, true
		}
	}
	dir := filepath.Dir(real)
	for range 2 {
		b, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil {
			var p struct{ Name, Version string }
			if json.Unmarshal(b, &p) == nil && strings.HasPrefix(p.Name, "@anthropic-ai/claude-code") {
				return ParseVersion(p.Version)
			}
		}
		dir = filepath.Dir(dir)
	}
	return Version{}, false
}

// clipString is s cut to n bytes and marked "…" when it is longer.
func clipString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
