// Package hooks is Claude Code's hook protocol as hooksup speaks it: the JSON a hook reads on
// stdin, the answer it prints, the settings that register hooksup's hooks, the wire protocol
// between the hook client and the supervisor, and the fail-open hook client itself.
//
// It follows what Claude Code 2.1.330 really does (see the samples in testdata/).
package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Hook event names, as Claude Code spells them in hook_event_name and in settings.
const (
	SessionStart      = "SessionStart"
	UserPromptSubmit  = "UserPromptSubmit"
	PreToolUse        = "PreToolUse"
	PostToolUse       = "PostToolUse"
	PermissionRequest = "PermissionRequest"
	Notification      = "Notification"
	Stop              = "Stop"
	StopFailure       = "StopFailure"
	SubagentStart     = "SubagentStart"
	SubagentStop      = "SubagentStop"
	SessionEnd        = "SessionEnd"
)

// Effort is the effort object Claude Code sends on stop and tool events. It is written back
// as it came, fields this type does not know included, unless Level was changed.
type Effort struct {
	Level string `json:"level"`
	raw   json.RawMessage
}

type effortAlias struct {
	Level string `json:"level"`
}

// UnmarshalJSON decodes the level and keeps the whole object.
func (e *Effort) UnmarshalJSON(data []byte) error {
	var a effortAlias
	if err := json.Unmarshal(data, &a); err != nil {
		return err
	}
	e.Level, e.raw = a.Level, append(json.RawMessage(nil), data...)
	return nil
}

// MarshalJSON writes the object as it was decoded, or the level alone.
func (e Effort) MarshalJSON() ([]byte, error) {
	if e.raw != nil {
		var a effortAlias
		if json.Unmarshal(e.raw, &a) == nil && a.Level == e.Level {
			return e.raw, nil
		}
	}
	return json.Marshal(effortAlias{Level: e.Level})
}

// Input is the JSON object a hook receives on stdin. Fields that Claude Code sends only for
// some events are empty for the others. Fields this type does not know are kept in Extra and
// written back by MarshalJSON, so a newer claude's fields survive a round trip.
type Input struct {
	// Common to every event.
	SessionID      string  `json:"session_id"`
	TranscriptPath string  `json:"transcript_path"`
	Cwd            string  `json:"cwd"`
	HookEventName  string  `json:"hook_event_name"`
	PromptID       string  `json:"prompt_id,omitempty"`
	PermissionMode string  `json:"permission_mode,omitempty"`
	Effort         *Effort `json:"effort,omitempty"`

	// SessionStart.
	Source string `json:"source,omitempty"`
	Model  string `json:"model,omitempty"`

	// UserPromptSubmit.
	Prompt string `json:"prompt,omitempty"`
	// Continuing is set by the agent's dialect (never read from the input): the agent sent this
	// prompt itself, continuing its turn (a tool's result, or Stop hooks' reasons), not the
	// person a new one.
	Continuing bool `json:"-"`

	// Stop and SubagentStop.
	StopHookActive       *bool           `json:"stop_hook_active,omitempty"` // present on stop events only
	LastAssistantMessage string          `json:"last_assistant_message,omitempty"`
	BackgroundTasks      json.RawMessage `json:"background_tasks,omitempty"`
	SessionCrons         json.RawMessage `json:"session_crons,omitempty"`

	// SubagentStart and SubagentStop.
	AgentID             string `json:"agent_id,omitempty"`
	AgentType           string `json:"agent_type,omitempty"`
	AgentTranscriptPath string `json:"agent_transcript_path,omitempty"`

	// Notification.
	Message          string `json:"message,omitempty"`
	NotificationType string `json:"notification_type,omitempty"`

	// PermissionRequest, PreToolUse and PostToolUse.
	ToolName              string          `json:"tool_name,omitempty"`
	ToolInput             json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID             string          `json:"tool_use_id,omitempty"`
	ToolResponse          json.RawMessage `json:"tool_response,omitempty"`
	DurationMS            *int64          `json:"duration_ms,omitempty"`
	PermissionSuggestions json.RawMessage `json:"permission_suggestions,omitempty"`

	// SessionEnd.
	Reason string `json:"reason,omitempty"`

	// StopFailure: the error as Claude Code reports it (shape not fixed).
	Error json.RawMessage `json:"error,omitempty"`

	// StopMark is set by an agent's dialect (hooks.Dialect.Input) when the stop's own line was
	// not yet in the agent's transcript as it read LastAssistantMessage there (Copilot CLI
	// writes its events log behind its hooks): the mark of that line (transcript.Record's
	// StopMark), for whoever follows the transcript to take the reply before it once it comes.
	// Never sent on.
	StopMark string `json:"-"`

	// Extra holds every field not named above, raw, in no particular order.
	Extra map[string]json.RawMessage `json:"-"`
}

// inputFields are the JSON names Input declares; anything else goes to Extra.
var inputFields = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range []string{
		"session_id", "transcript_path", "cwd", "hook_event_name", "prompt_id", "permission_mode",
		"effort", "source", "model", "prompt", "stop_hook_active", "last_assistant_message",
		"background_tasks", "session_crons", "agent_id", "agent_type", "agent_transcript_path",
		"message", "notification_type", "tool_name", "tool_input", "tool_use_id", "tool_response",
		"duration_ms", "permission_suggestions", "reason", "error",
	} {
		m[k] = true
	}
	return m
}()

// inputAlias has Input's fields without its methods, to decode and encode them plainly.
type inputAlias Input

// UnmarshalJSON decodes the known fields and keeps the others in Extra.
func (in *Input) UnmarshalJSON(data []byte) error {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	var a inputAlias
	if err := json.Unmarshal(data, &a); err != nil {
		return err
	}
	*in = Input(a)
	for k, v := range all {
		if !inputFields[k] {
			if in.Extra == nil {
				in.Extra = map[string]json.RawMessage{}
			}
			in.Extra[k] = v
		}
	}
	return nil
}

// MarshalJSON encodes the known fields followed by Extra, sorted by key.
func (in Input) MarshalJSON() ([]byte, error) {
	known, err := json.Marshal(inputAlias(in))
	if err != nil {
		return nil, err
	}
	if len(in.Extra) == 0 {
		return known, nil
	}
	extra, err := json.Marshal(in.Extra)
	if err != nil {
		return nil, err
	}
	// Both are objects: splice extra's members into known.
	var b bytes.Buffer
	b.Write(known[:len(known)-1])
	if len(known) > 2 {
		b.WriteByte(',')
	}
	b.Write(extra[1:])
	return b.Bytes(), nil
}

// ParseInput decodes a hook's stdin. It names what is wrong when the JSON is not an object.
func ParseInput(data []byte) (*Input, error) {
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("hook input is not a JSON object: %w", err)
	}
	return &in, nil
}

// IsStop reports whether the event is one whose answer can keep the agent going.
func IsStop(event string) bool { return event == Stop || event == SubagentStop }

// Active reports stop_hook_active: this stop follows a block.
func (in *Input) Active() bool { return in.StopHookActive != nil && *in.StopHookActive }
