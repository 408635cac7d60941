package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// InjectedEvents are the events hooksup registers when it supervises claude, in the order they
// appear in the generated settings; EventsFor picks those a given claude knows.
var InjectedEvents = []string{
	SessionStart, UserPromptSubmit, Stop, SubagentStart, SubagentStop, StopFailure,
	Notification, PermissionRequest, PreToolUse, SessionEnd,
}

// injectedMatchers narrow an injected event to some tools: PreToolUse only for the tools that
// wait for the person, so ordinary tool calls do not start a hook process.
var injectedMatchers = map[string]string{PreToolUse: "AskUserQuestion|ExitPlanMode"}

// HookCommand is one command hook as Claude Code's settings spell it.
type HookCommand struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout,omitempty"` // seconds
}

// MatcherGroup is one entry of settings.hooks.<Event>.
type MatcherGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []HookCommand `json:"hooks"`
}

// Command returns the short command line a hook runs: the binary (quoted by ShellQuote only
// when it must be) and `hook EVENT`. Claude shows the whole line to the model when a hook exits 2, so it
// stays short.
func Command(bin, event string) string {
	return ShellQuote(bin) + " hook " + event
}

// ClientCommand is the command line of the dedicated hook client (cmd/hooksup-hook) for event.
func ClientCommand(bin, event string) string { return ShellQuote(bin) + " " + event }

// Groups builds hooksup's matcher group for each of events (see EventsFor), running
// command(event), with stopTimeout for Stop and SubagentStop (they may wait for checks and a
// person) and otherTimeout for the rest (answered at once).
func Groups(events []string, command func(event string) string, stopTimeout, otherTimeout time.Duration) map[string][]MatcherGroup {
	m := make(map[string][]MatcherGroup, len(events))
	for _, ev := range events {
		t := otherTimeout
		if IsStop(ev) {
			t = stopTimeout
		}
		m[ev] = []MatcherGroup{{Matcher: injectedMatchers[ev], Hooks: []HookCommand{{
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
func InjectedSettings(base []byte, groups map[string][]MatcherGroup) ([]byte, error) {
	obj := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(base)) > 0 {
		if err := json.Unmarshal(base, &obj); err != nil {
			return nil, fmt.Errorf("settings are not a JSON object: %w", err)
		}
	}
	hooks := map[string][]json.RawMessage{}
	if raw, ok := obj["hooks"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &hooks); err != nil {
			return nil, fmt.Errorf("settings \"hooks\" is not an object of arrays: %w", err)
		}
	}
	for _, ev := range InjectedEvents {
		for _, g := range groups[ev] {
			b, err := json.Marshal(g)
			if err != nil {
				return nil, err
			}
			hooks[ev] = append(hooks[ev], b)
		}
	}
	hb, err := json.Marshal(hooks)
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
