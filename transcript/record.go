package transcript

import (
	"maps"
	"slices"
	"time"

	"github.com/hooksup/hooksup/session"
)

// Kind says what a transcript line was, as far as hooksup cares.
type Kind uint8

// The kinds of [Record] and [Update]. Lines of types the parser does not interpret are
// [KindOther]; they are counted and never delivered as updates.
const (
	KindOther         Kind = iota // a line type or subtype hooksup does not interpret
	KindMalformed                 // not a JSON object, or truncated
	KindPrompt                    // a user prompt that starts a turn (also <task-notification> turns)
	KindCommand                   // a slash command or shell escape typed by the user; no model turn
	KindInterrupt                 // "[Request interrupted by user…]": the user pressed Escape
	KindToolResult                // a user line carrying tool_result blocks
	KindMeta                      // a user line claude wrote itself: isMeta, compact summary, hook feedback
	KindAssistant                 // one assistant content block (text, tool_use, thinking) with usage
	KindAPIError                  // an API error: a synthetic assistant line or a system api_error line
	KindTurnDuration              // system turn_duration: a turn ended
	KindHook                      // a hook's outcome: stop_hook_summary or a hook_* attachment
	KindCompaction                // system compact_boundary
	KindInformational             // system informational, e.g. the stop-hook loop cap warning
	KindModel                     // the model attachment at session start
	KindTitle                     // ai-title
	KindStopHook                  // the main agent's stop hook started (an agent whose transcript says so: Copilot CLI's)
	KindSubagent                  // watcher: a subagent transcript appeared or its meta changed
	KindReset                     // watcher: a file was truncated or replaced; its aggregates restart
	KindSession                   // watcher: now following another session file (see Watcher.Switch)
	KindError                     // watcher: a non-fatal error, in Update.Err
)

// String returns the kind's lowercase name.
func (k Kind) String() string {
	switch k {
	case KindOther:
		return "other"
	case KindMalformed:
		return "malformed"
	case KindPrompt:
		return "prompt"
	case KindCommand:
		return "command"
	case KindInterrupt:
		return "interrupt"
	case KindToolResult:
		return "tool_result"
	case KindMeta:
		return "meta"
	case KindAssistant:
		return "assistant"
	case KindAPIError:
		return "api_error"
	case KindTurnDuration:
		return "turn_duration"
	case KindHook:
		return "hook"
	case KindCompaction:
		return "compaction"
	case KindInformational:
		return "informational"
	case KindModel:
		return "model"
	case KindTitle:
		return "title"
	case KindStopHook:
		return "stop_hook"
	case KindSubagent:
		return "subagent"
	case KindReset:
		return "reset"
	case KindSession:
		return "session"
	case KindError:
		return "error"
	}
	return "unknown"
}

// MarshalText encodes the kind as its name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// ToolUse is one tool_use content block.
type ToolUse struct {
	ID   string `json:"id"`   // tool_use id, as in PreToolUse's tool_use_id
	Name string `json:"name"` // tool name, e.g. Bash, Agent, mcp__server__tool
}

// Record is what one transcript line said. Only the fields of its Kind are set; strings are
// copies (capped by Options.MaxText), never views of the line.
type Record struct {
	Kind Kind      `json:"kind"`
	Type string    `json:"type,omitempty"` // the line's "type" (interned), empty if malformed
	Time time.Time `json:"time"`           // the line's timestamp, zero if it has none

	// KindAssistant (Model and Usage also on KindModel and KindAPIError where known).
	Model      string        `json:"model,omitempty"`
	Usage      session.Usage `json:"usage"` // this line's usage; repeats for each block of a message
	Tools      []ToolUse     `json:"tools,omitempty"`
	StopReason string        `json:"stop_reason,omitempty"`
	AgentType  string        `json:"agent_type,omitempty"` // attributionAgent on subagent lines

	// Text: assistant text, prompt, command name, informational content, title.
	// KindStopHook: the parser sets Text to the main agent's latest assistant text before it,
	// the reply the stop is about.
	Text   string `json:"text,omitempty"`
	Origin string `json:"origin,omitempty"` // KindPrompt: turnOrigin, e.g. sdk, task_notification
	Level  string `json:"level,omitempty"`  // KindInformational: info, warning, …
	// StopMark (KindStopHook) names the stop as its hook's input does (hooks.Input.StopMark).
	StopMark string `json:"stop_mark,omitempty"`

	ToolErrors int `json:"tool_errors,omitempty"` // KindToolResult: blocks with is_error

	Duration     time.Duration         `json:"duration,omitempty"`      // KindTurnDuration
	MessageCount int                   `json:"message_count,omitempty"` // KindTurnDuration
	Hooks        []session.HookOutcome `json:"hooks,omitempty"`         // KindHook: each run merged with earlier lines of it
	APIError     *session.APIError     `json:"api_error,omitempty"`     // KindAPIError
	Compaction   *session.Compaction   `json:"compaction,omitempty"`    // KindCompaction

	// HasUsage: the line had a usage object (Usage). UsageID names the model's response it
	// is the usage of, when a Decoder's format may write it more than once ("" if none).
	HasUsage bool   `json:"-"`
	UsageID  string `json:"-"`

	key uint64 // de-duplication key of message id + request id (or UsageID), 0 if none
}

// cloneStats returns a copy of s that shares nothing mutable with it.
func cloneStats(s *session.TranscriptStats) session.TranscriptStats {
	c := *s
	c.ByModel = maps.Clone(s.ByModel)
	c.ToolCalls = maps.Clone(s.ToolCalls)
	c.RecentAPIErrors = slices.Clone(s.RecentAPIErrors)
	c.Hooks = slices.Clone(s.Hooks)
	return c
}

func addUsage(u, v session.Usage) session.Usage {
	return session.Usage{
		InputTokens:         u.InputTokens + v.InputTokens,
		OutputTokens:        u.OutputTokens + v.OutputTokens,
		CacheCreationTokens: u.CacheCreationTokens + v.CacheCreationTokens,
		CacheReadTokens:     u.CacheReadTokens + v.CacheReadTokens,
	}
}

func subUsage(u, v session.Usage) session.Usage {
	return session.Usage{
		InputTokens:         u.InputTokens - v.InputTokens,
		OutputTokens:        u.OutputTokens - v.OutputTokens,
		CacheCreationTokens: u.CacheCreationTokens - v.CacheCreationTokens,
		CacheReadTokens:     u.CacheReadTokens - v.CacheReadTokens,
	}
}
