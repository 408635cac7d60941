// Package codex holds what hooksup must know about OpenAI's Codex CLI to define its hooks for
// one run without touching the user's files: the -c overrides that define command hooks in
// Codex's session-flags configuration layer, and the trust entries that let Codex run exactly
// those hooks and nothing else.
//
// # How Codex decides to run a hook (0.169.0)
//
// Codex reads hooks from every configuration layer (system, the user's config.toml or
// hooks.json under CODEX_HOME, a trusted project's .codex, and the session-flags layer that
// -c overrides form). A hook that is not managed (system, MDM, cloud) runs only when it is
// trusted: the effective [hooks.state] table holds, under the hook's key, a trusted_hash equal
// to the hook's current hash. The flag --dangerously-bypass-hook-trust skips that check for
// every enabled hook of the run, the user's and the project's included; hooksup does not use it.
//
// The [hooks.state] table is read from the user layer and the session-flags layer (only those:
// a project cannot trust its own hooks). So a -c override can trust a hook for one run, and
// only the hook whose key and hash it names:
//
//   - the key is "<source>:<event label>:<group index>:<handler index>", where the source of
//     the session-flags layer is the fixed path "/<session-flags>/config.toml" and the label is
//     the event in snake case ("stop", "subagent_stop", ...);
//   - the hash is "sha256:" and the hex SHA-256 of a canonical JSON (keys sorted, no spaces,
//     serde_json's escaping) of {event_name: label, matcher (only for events that take one,
//     only when set), hooks: [{type: "command", command, timeout (seconds, normalized), async:
//     false}]}.
//
// A user's own hook keeps its key under its own file's path, so a trust entry made here can
// never apply to it, and editing hooksup's hook (another command) changes its hash, so a stale
// entry trusts nothing. Nothing is written anywhere: the entries live in Codex's argument list.
//
// TrustedHash and Overrides reproduce this; codex/testdata holds the keys and hashes that
// `codex app-server`'s hooks/list reported for the same definitions.
package codex

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hooksup/hooksup/internal/tomltext"
)

// SessionFlagsSource is the source path Codex gives hooks defined by -c overrides; it starts
// every trust key of the session-flags layer.
const SessionFlagsSource = "/<session-flags>/config.toml"

// DefaultTimeout is the timeout, in seconds, Codex gives a hook that sets none (except
// SessionEnd and Interrupt: 1 second, at most 3).
const DefaultTimeout = 600

// Hook is one command hook to define for a Codex run.
type Hook struct {
	Event   string // Codex's event name: "Stop", "SubagentStop", "PreToolUse", ...
	Matcher string // a regex, "*" or "" (none); Codex ignores it for Stop, UserPromptSubmit and Interrupt
	Command string // run with sh -c; Codex's environment reaches it
	Timeout int    // seconds; 0 means Codex's default
}

// event is what differs between Codex's hook events.
type event struct {
	label     string // in trust keys and hashes
	matcher   bool   // takes a matcher
	shortTime bool   // default 1 s, clamped to 1..3 s
}

var events = map[string]event{
	"PreToolUse":        {label: "pre_tool_use", matcher: true},
	"PermissionRequest": {label: "permission_request", matcher: true},
	"PostToolUse":       {label: "post_tool_use", matcher: true},
	"PreCompact":        {label: "pre_compact", matcher: true},
	"PostCompact":       {label: "post_compact", matcher: true},
	"SessionStart":      {label: "session_start", matcher: true},
	"SessionEnd":        {label: "session_end", matcher: true, shortTime: true},
	"UserPromptSubmit":  {label: "user_prompt_submit"},
	"SubagentStart":     {label: "subagent_start", matcher: true},
	"SubagentStop":      {label: "subagent_stop", matcher: true},
	"Stop":              {label: "stop"},
	"Interrupt":         {label: "interrupt", shortTime: true},
}

func lookup(name string) (event, error) {
	ev, ok := events[name]
	if !ok {
		return event{}, fmt.Errorf("codex: unknown hook event %q (Codex 0.169.0 knows PreToolUse, PermissionRequest, PostToolUse, PreCompact, PostCompact, SessionStart, SessionEnd, UserPromptSubmit, SubagentStart, SubagentStop, Stop, Interrupt)", name)
	}
	return ev, nil
}

// EventLabel returns the label Codex uses for an event in trust keys ("SubagentStop" →
// "subagent_stop").
func EventLabel(eventName string) (string, error) {
	ev, err := lookup(eventName)
	return ev.label, err
}

// TrustKey returns the [hooks.state] key of the first handler of the group-th matcher group
// (from 0) of an event defined by -c overrides.
func TrustKey(eventName string, group int) (string, error) {
	ev, err := lookup(eventName)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s:%s:%d:0", SessionFlagsSource, ev.label, group), nil
}

// EffectiveTimeout returns the timeout in seconds Codex gives the hook: its own or the
// default, at least 1 (SessionEnd and Interrupt: default 1, at most 3).
func (h Hook) EffectiveTimeout() int {
	ev := events[h.Event]
	t := h.Timeout
	if ev.shortTime {
		if t == 0 {
			t = 1
		}
		return min(max(t, 1), 3)
	}
	if t == 0 {
		t = DefaultTimeout
	}
	return max(t, 1)
}

// TrustedHash returns the hash Codex computes for the hook's definition, the value a
// [hooks.state] entry's trusted_hash must hold for Codex to run it.
func TrustedHash(h Hook) (string, error) {
	ev, err := lookup(h.Event)
	if err != nil {
		return "", err
	}
	if err := h.check(); err != nil {
		return "", err
	}
	// Keys in sorted order, as Codex canonicalizes them: event_name, hooks, matcher; and in
	// the handler async, command, timeout, type.
	var b strings.Builder
	b.WriteString(`{"event_name":`)
	writeJSONString(&b, ev.label)
	b.WriteString(`,"hooks":[{"async":false,"command":`)
	writeJSONString(&b, h.Command)
	b.WriteString(`,"timeout":`)
	b.WriteString(strconv.Itoa(h.EffectiveTimeout()))
	b.WriteString(`,"type":"command"}]`)
	if ev.matcher && h.Matcher != "" {
		b.WriteString(`,"matcher":`)
		writeJSONString(&b, h.Matcher)
	}
	b.WriteString("}")
	sum := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

func (h Hook) check() error {
	if strings.TrimSpace(h.Command) == "" {
		return fmt.Errorf("codex: %s hook has an empty command", h.Event)
	}
	if !utf8.ValidString(h.Command) || !utf8.ValidString(h.Matcher) {
		return fmt.Errorf("codex: %s hook: command and matcher must be UTF-8", h.Event)
	}
	if h.Timeout < 0 {
		return fmt.Errorf("codex: %s hook: negative timeout %d", h.Event, h.Timeout)
	}
	return nil
}

// Overrides returns the arguments ("-c", value, ...) that define hooks for one Codex run in
// its session-flags layer and trust exactly those definitions: one "-c hooks.<Event>=[...]"
// per event (each hook its own matcher group, in the order given) and one
// "-c hooks.state={...}" naming each hook's key and hash. Codex's other hooks keep their own
// trust.
//
// Where they go matters. A later -c for the same key replaces an earlier one (it does not
// append), and after a "--" they would be the prompt. After the user's arguments (before any
// "--") a user's -c hooks.<Event> or -c hooks.state cannot drop these, but is itself dropped
// for the run; first ("codex -c … exec …", which Codex accepts for every subcommand) the
// user's would win. Either way HookArgs finds the user's arguments that touch hooks.
func Overrides(hooks []Hook) ([]string, error) {
	var order []string
	groups := map[string][]string{}
	var state []string
	for _, h := range hooks {
		ev, err := lookup(h.Event)
		if err != nil {
			return nil, err
		}
		hash, err := TrustedHash(h)
		if err != nil {
			return nil, err
		}
		if _, ok := groups[h.Event]; !ok {
			order = append(order, h.Event)
		}
		key, _ := TrustKey(h.Event, len(groups[h.Event]))
		var g strings.Builder
		g.WriteString("{")
		if ev.matcher && h.Matcher != "" {
			g.WriteString("matcher=")
			g.WriteString(tomltext.Quote(h.Matcher))
			g.WriteString(",")
		}
		g.WriteString(`hooks=[{type="command",command=`)
		g.WriteString(tomltext.Quote(h.Command))
		if h.Timeout != 0 {
			fmt.Fprintf(&g, ",timeout=%d", h.Timeout)
		}
		g.WriteString("}]}")
		groups[h.Event] = append(groups[h.Event], g.String())
		var s strings.Builder
		s.WriteString(tomltext.Quote(key))
		s.WriteString("={trusted_hash=")
		s.WriteString(tomltext.Quote(hash))
		s.WriteString("}")
		state = append(state, s.String())
	}
	var args []string
	for _, name := range order {
		args = append(args, "-c", "hooks."+name+"=["+strings.Join(groups[name], ",")+"]")
	}
	if len(state) > 0 {
		args = append(args, "-c", "hooks.state={"+strings.Join(state, ",")+"}")
	}
	return args, nil
}

// writeJSONString writes s as serde_json does: only '"', '\\' and control characters
// escaped (\b \t \n \f \r, else \u00xx in lower-case hex); everything else, U+2028 and
// U+2029 included, as is. encoding/json escapes more (<, >, &, U+2028), which would change
// the hash.
func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}
