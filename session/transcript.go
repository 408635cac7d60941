package session

import (
	"slices"
	"time"

	"github.com/hooksup/hooksup/hooks"
) // Transcript is a copy of the aggregates of the followed session, cheap enough to take on every
// display tick: its cost is proportional to the number of models, tools, hooks and subagents.
type Transcript struct {
	Path      string            `json:"path"`
	SessionID string            `json:"session_id"`
	Seq       uint64            `json:"seq"` // grows whenever any aggregate may have changed
	Main      TranscriptStats   `json:"main"`
	Agents    []AgentTranscript `json:"agents,omitempty"` // in order of discovery
	Usage     Usage             `json:"usage"`            // main and subagents together
	ByModel   map[string]Usage  `json:"by_model"`         // main and subagents together
}

// Hooks returns the other hooks' outcomes of the main transcript and all subagents, by time.
func (s Transcript) Hooks() []HookOutcome {
	out := slices.Clone(s.Main.Hooks)
	for _, a := range s.Agents {
		out = append(out, a.Stats.Hooks...)
	}
	slices.SortStableFunc(out, func(a, b HookOutcome) int { return a.Time.Compare(b.Time) })
	return out
}

// AgentTranscript is the state of one subagent transcript.
type AgentTranscript struct {
	AgentInfo
	Stats TranscriptStats `json:"stats"`
}

// AgentInfo describes a subagent transcript.
type AgentInfo struct {
	ID          string `json:"id"`                    // agent id, as in SubagentStop's agent_id
	Type        string `json:"type"`                  // agentType from .meta.json, else attributionAgent
	Description string `json:"description,omitempty"` // from .meta.json
	Finished    bool   `json:"finished"`              // .meta.json says the agent finished
	Path        string `json:"path"`                  // the agent's JSONL transcript
}

// TranscriptStats are the running aggregates of one transcript file.
type TranscriptStats struct {
	Lines     int64 `json:"lines"`     // complete lines read
	Bytes     int64 `json:"bytes"`     // their bytes, newlines included (not those of too long lines)
	Malformed int64 `json:"malformed"` // lines that were not whole JSON objects, or too long
	Skipped   int64 `json:"skipped"`   // lines of types hooksup does not interpret

	Model     string    `json:"model"`                // of the latest assistant line or model attachment
	Title     string    `json:"title,omitempty"`      // the latest ai-title
	AgentType string    `json:"agent_type,omitempty"` // attributionAgent, on subagent transcripts
	LastTime  time.Time `json:"last_time"`            // timestamp of the latest interpreted line

	Usage    Usage            `json:"usage"`    // all models, de-duplicated
	ByModel  map[string]Usage `json:"by_model"` // per model, de-duplicated
	Messages int64            `json:"messages"` // distinct API messages with usage

	ToolCalls     map[string]int64 `json:"tool_calls"` // tool_use blocks by tool name
	ToolCallCount int64            `json:"tool_call_count"`
	ToolResults   int64            `json:"tool_results"` // user lines carrying tool results
	ToolErrors    int64            `json:"tool_errors"`  // tool_result blocks with is_error

	Turns             int64  `json:"turns"`              // prompts that started a turn
	TaskNotifications int64  `json:"task_notifications"` // of Turns, <task-notification> ones
	Commands          int64  `json:"commands"`           // slash commands and shell escapes
	Interrupts        int64  `json:"interrupts"`         // "[Request interrupted by user…]"
	LastPrompt        string `json:"last_prompt,omitempty"`

	TurnsEnded  int64         `json:"turns_ended"` // turn_duration lines
	TurnTime    time.Duration `json:"turn_time"`   // sum of their durations
	LastTurn    time.Duration `json:"last_turn"`
	LongestTurn time.Duration `json:"longest_turn"`

	LastText string `json:"last_text,omitempty"` // the latest assistant text block

	APIErrors       int64      `json:"api_errors"`
	RecentAPIErrors []APIError `json:"recent_api_errors,omitempty"` // oldest first

	Compactions    int64      `json:"compactions"`
	LastCompaction Compaction `json:"last_compaction"` // zero if none

	// Hooks are the recent outcomes of hooks other than the caller's own, oldest first; records
	// of one run are merged. HookCounts counts all of them by Outcome.
	Hooks      []HookOutcome                   `json:"hooks,omitempty"`
	HookCounts [hooks.OutcomeStopped + 1]int64 `json:"hook_counts"`
}

// Usage is a set of token counts.
type Usage struct {
	InputTokens         int64 `json:"input_tokens"`
	OutputTokens        int64 `json:"output_tokens"`
	CacheCreationTokens int64 `json:"cache_creation_tokens"`
	CacheReadTokens     int64 `json:"cache_read_tokens"`
}

// Total is the sum of all four counts; de-duplication keeps the copy with the largest Total.
func (u Usage) Total() int64 {
	return u.InputTokens + u.OutputTokens + u.CacheCreationTokens + u.CacheReadTokens
}

// APIError is an API failure claude recorded in the transcript.
type APIError struct {
	Time    time.Time `json:"time"`
	Status  int       `json:"status,omitempty"` // HTTP status (apiErrorStatus), 0 if unknown
	Code    string    `json:"code,omitempty"`   // error kind, e.g. rate_limit, server_error
	Message string    `json:"message"`          // the text claude showed, e.g. "API Error: 529 Overloaded"
	Retry   int       `json:"retry,omitempty"`  // retry attempt for system api_error lines, else 0
}

// Compaction is one compact_boundary: the conversation was summarised.
type Compaction struct {
	Time       time.Time     `json:"time"`
	Trigger    string        `json:"trigger"` // manual or auto
	PreTokens  int64         `json:"pre_tokens"`
	PostTokens int64         `json:"post_tokens"`
	Duration   time.Duration `json:"duration"`
}

// HookOutcome is one hook run that claude recorded: a hook_* attachment or an entry of a
// stop_hook_summary line. Records of the same run (same InvocationID and Command) are merged.
type HookOutcome struct {
	Time         time.Time     `json:"time"`
	Event        string        `json:"event"`   // Stop, SubagentStop, PreToolUse, …
	Command      string        `json:"command"` // empty when claude did not record it
	Outcome      hooks.Outcome `json:"outcome"`
	Message      string        `json:"message,omitempty"` // reason, error text or stop reason
	ExitCode     int           `json:"exit_code"`         // -1 when not recorded
	Duration     time.Duration `json:"duration,omitempty"`
	TimedOut     bool          `json:"timed_out,omitempty"`
	InvocationID string        `json:"invocation_id,omitempty"` // claude's toolUseID for the event firing
}

// TranscriptUpdated: the session's transcript aggregates changed (at most a few times a
// second).
type TranscriptUpdated struct {
	At
	Snapshot Transcript `json:"snapshot"`
}

// Summary is what a session used, written beside its verdict log when the agent exits.
type Summary struct {
	SessionID  string           `json:"session_id"`
	Transcript string           `json:"transcript"`
	Model      string           `json:"model,omitempty"`
	Usage      Usage            `json:"usage"`
	ByModel    map[string]Usage `json:"by_model,omitempty"`
	ToolCalls  map[string]int64 `json:"tool_calls,omitempty"`
	Turns      int64            `json:"turns"`
	APIErrors  int64            `json:"api_errors,omitempty"`
	Subagents  int              `json:"subagents,omitempty"`
	Verdicts   int              `json:"verdicts"`
}

// SessionSummary: the agent exited; this is what the session used.
type SessionSummary struct {
	At
	Summary Summary `json:"summary"`
}
