package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"time"

	"github.com/hooksup/hooksup/hooks"
)

// InjectedEvents are the events hooksup registers when it supervises claude, in the order they
// appear in the generated settings; EventsFor picks those a given claude knows.
var InjectedEvents = []string{
	hooks.SessionStart, hooks.UserPromptSubmit, hooks.Stop, hooks.SubagentStart, hooks.SubagentStop, hooks.StopFailure,
	hooks.Notification, hooks.PermissionRequest, hooks.PreToolUse, hooks.SessionEnd,
}

// injectedMatchers narrow an injected event to some tools: PreToolUse only for the tools that
// wait for the person, so ordinary tool calls do not start a hook process.
var injectedMatchers = map[string]string{hooks.PreToolUse: "AskUserQuestion|ExitPlanMode"}

// PermissionTimeout is the PermissionRequest hook's timeout: claude shows its dialog beside the
// hook, which waits for an answer from elsewhere as long as the dialog may stay open (it has no
// timeout of its own), and is answered at once when the person answers at the dialog.
const PermissionTimeout = 24 * time.Hour

// Groups builds hooksup's matcher group for each of events (see EventsFor), running
// command(event), with stopTimeout for Stop and SubagentStop (they may wait for checks and a
// person) and otherTimeout for the rest (answered at once).
func Groups(events []string, command func(event string) string, stopTimeout, otherTimeout time.Duration) map[string][]hooks.MatcherGroup {
	m := make(map[string][]hooks.MatcherGroup, len(events))
	for _, ev := range events {
		t := otherTimeout
		switch {
		case hooks.IsStop(ev):
			t = stopTimeout
		case ev == hooks.PermissionRequest:
			t = PermissionTimeout
		}
		m[ev] = []hooks.MatcherGroup{{Matcher: injectedMatchers[ev], Hooks: []hooks.HookCommand{{
			Type: "command", Command: command(ev), Timeout: seconds(t),
		}}}}
	}
	return m
}

func seconds(d time.Duration) float64 {
	return math.Ceil(d.Seconds())
}

// InjectedSettings merges hooksup's hooks into base (the user's own --settings value as a JSON
// object, or nil) and returns the settings to pass with --settings. Every key of base is kept;
// hooksup's groups are appended after the user's for each event; "disableAllHooks" is set to
// false, because a project's disableAllHooks:true would silence hooksup too.
func InjectedSettings(base []byte, groups map[string][]hooks.MatcherGroup) ([]byte, error) {
	obj := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(base)) > 0 {
		if err := json.Unmarshal(base, &obj); err != nil {
			return nil, fmt.Errorf("settings are not a JSON object: %w", err)
		}
	}
	hs := map[string][]json.RawMessage{}
	if raw, ok := obj["hooks"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &hs); err != nil {
			return nil, fmt.Errorf("settings \"hooks\" is not an object of arrays: %w", err)
		}
	}
	for _, ev := range InjectedEvents {
		for _, g := range groups[ev] {
			b, err := json.Marshal(g)
			if err != nil {
				return nil, err
			}
			hs[ev] = append(hs[ev], b)
		}
	}
	hb, err := json.Marshal(hs)
	if err != nil {
		return nil, err
	}
	obj["hooks"] = hb
	obj["disableAllHooks"] = json.RawMessage("false")
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(obj); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// DefaultBlockCap is Claude Code's own loop cap: after this many consecutive blocks of a stop,
// it overrides the next one and ends the turn.
const DefaultBlockCap = 8

// BlockCapEnv is the variable that sets claude's loop cap.
const BlockCapEnv = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"

// BlockCap is claude's loop cap as its environment sets it (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP;
// 0 turns it off).
func BlockCap(getenv func(string) string) int {
	if v := getenv(BlockCapEnv); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			return n
		}
	}
	return DefaultBlockCap
}

// Scopes are the install scopes, in the order the help lists them: local
// (.claude/settings.local.json), project (.claude/settings.json), user (~/.claude/settings.json).
func Scopes() []string { return []string{"local", "project", "user"} }

// SettingsPath is the settings file for an install scope: local (.claude/settings.local.json),
// project (.claude/settings.json) or user (~/.claude/settings.json).
func SettingsPath(scope, projectDir, home string) (string, error) {
	switch scope {
	case "local":
		return filepath.Join(projectDir, ".claude", "settings.local.json"), nil
	case "project":
		return filepath.Join(projectDir, ".claude", "settings.json"), nil
	case "user":
		return filepath.Join(home, ".claude", "settings.json"), nil
	}
	return "", fmt.Errorf("unknown scope %q: use local, project or user", scope)
}
