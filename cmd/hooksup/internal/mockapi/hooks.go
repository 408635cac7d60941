package mockapi

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// HookSettings returns a value for claude's --settings flag that registers
// one command hook per event, e.g.
//
//	HookSettings(map[string]string{"Stop": log.Command("Stop", "")})
//
// Tool events (PreToolUse, PostToolUse, PermissionRequest, ...) get the
// matcher "*".
func HookSettings(commands map[string]string) string {
	hooks := map[string]any{}
	for event, cmd := range commands {
		group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": cmd}}}
		if strings.Contains(event, "Tool") || event == "PermissionRequest" {
			group["matcher"] = "*"
		}
		hooks[event] = []any{group}
	}
	b, err := json.Marshal(map[string]any{"hooks": hooks})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// HookLog records what hooks receive on stdin: each call of a command made
// by Command stores its stdin as a file in Dir.
type HookLog struct {
	Dir string
	t   testing.TB
}

// NewHookLog makes an empty HookLog in a fresh t.TempDir().
func NewHookLog(t testing.TB) *HookLog {
	return &HookLog{Dir: t.TempDir(), t: t}
}

// Command returns a shell command for a hook of this event: it saves its
// stdin, then runs then (a shell snippet; "" for nothing: exit 0, no
// output). The snippet may use $HOOKLOG_DIR, the log directory, e.g. for
// marker files.
func (h *HookLog) Command(event, then string) string {
	cmd := fmt.Sprintf(`HOOKLOG_DIR=%s; f="$HOOKLOG_DIR/$(date +%%s%%N)-$$-%s"; cat > "$f.tmp" && mv "$f.tmp" "$f.json"`, shellQuote(h.Dir), event)
	if then != "" {
		cmd += "; " + then
	}
	return cmd
}

// HookInput is one recorded hook stdin.
type HookInput struct {
	Event string         // as passed to Command
	Raw   []byte         // the exact stdin
	JSON  map[string]any // Raw decoded (nil if it is not a JSON object)
}

// String returns "Event <stdin>".
func (in HookInput) String() string { return in.Event + " " + string(in.Raw) }

// Get returns a top-level string field of the input ("" if absent).
func (in HookInput) Get(key string) string {
	s, _ := in.JSON[key].(string)
	return s
}

// Inputs returns the recorded inputs of the given events (all if none), in
// the order the hooks ran. It may be called from any goroutine (errors are
// reported with t.Errorf).
func (h *HookLog) Inputs(events ...string) []HookInput {
	h.t.Helper()
	names, err := filepath.Glob(filepath.Join(h.Dir, "*.json"))
	if err != nil {
		h.t.Errorf("mockapi: HookLog: %v", err)
		return nil
	}
	sort.Strings(names) // the names start with a 19-digit nanosecond time
	var out []HookInput
	for _, name := range names {
		parts := strings.SplitN(strings.TrimSuffix(filepath.Base(name), ".json"), "-", 3)
		if len(parts) != 3 {
			continue
		}
		ev := parts[2]
		if len(events) > 0 && !contains(events, ev) {
			continue
		}
		raw, err := os.ReadFile(name)
		if err != nil {
			h.t.Errorf("mockapi: HookLog: %v", err)
			continue
		}
		in := HookInput{Event: ev, Raw: raw}
		if json.Unmarshal(raw, &in.JSON) != nil {
			in.JSON = nil
		}
		out = append(out, in)
	}
	return out
}

// WaitFor polls until at least n inputs of the given events (all if none)
// are recorded or timeout passes, and returns what is there. Use it for
// hooks claude does not wait for (StopFailure, SessionEnd, Notification) or
// while claude is still running.
func (h *HookLog) WaitFor(timeout time.Duration, n int, events ...string) []HookInput {
	h.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		in := h.Inputs(events...)
		if len(in) >= n || time.Now().After(deadline) {
			return in
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
