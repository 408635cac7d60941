// Package verdictlog is the verdict log: one JSON line per decided stop (and per Escape and
// per report of the other hooks claude ran) at $XDG_STATE_HOME/hooksup/sessions/<id>/verdicts.jsonl,
// its types, its writer and reader, the sessions it lists, and each session's summary.json.
package verdictlog

import (
	"strings"
	"time"

	"github.com/hooksup/hooksup/hooks"
)

// Source says what decided a verdict. Its text is the verdict log's "source" value.
type Source string

// Verdict sources. A check that decided is CheckSource(name), "check:NAME".
const (
	SourceChecks   Source = "checks"   // every check that applies passed
	SourceNoChecks Source = "nochecks" // no check applies: none is configured for this stop
	SourceManual   Source = "manual"   // the person
	SourceEscape   Source = "escape"   // Escape in this turn
	SourceLimit    Source = "limit"    // the continuation or steer limit was reached
	SourceTimeout  Source = "timeout"  // the person did not answer in time: on_timeout applied
	SourceObserve  Source = "observe"  // observe mode never blocks
	SourceFailOpen Source = "failopen" // the hook went away, or hooksup failed: allowed
	// SourceOtherHooks: hooks other than hooksup's, which claude ran at the same stop (an
	// OtherHooks entry).
	SourceOtherHooks Source = "hooks"
	// SourceGoal: goal mode decided, once the checks passed: the done command (not reached:
	// continue; reached: stop), or the goal's end (a budget, no progress).
	SourceGoal Source = "goal"
	// SourceAgentCap: the agent's own cap on blocked stops let it stop (EventCapped).
	SourceAgentCap Source = "agentcap"
	// SourceTerminal: the person answered a permission at the agent's own dialog, before
	// anyone answered it through hooksup (the question is withdrawn).
	SourceTerminal Source = "terminal"
)

const checkSourcePrefix = "check:"

// CheckSource is the source of a verdict the named check decided.
func CheckSource(name string) Source { return Source(checkSourcePrefix + name) }

// Check returns the name of the check that decided, when one did.
func (s Source) Check() (string, bool) {
	return strings.CutPrefix(string(s), checkSourcePrefix)
}

// EventInterrupted is the verdict log's event for Escape, which no hook reports.
const EventInterrupted = "Interrupted"

// EventCapped is the verdict log's event for the agent's own cap on blocked stops ending a
// turn that hooksup had it continue: no hook reports it; the agent's transcript says so.
const EventCapped = "Capped"

// EventOtherHooks is the verdict log's event for what the other hooks claude ran at a stop
// did: the user's own Stop hooks, a plugin's. Claude records them in its transcript once every
// hook of the stop has run, so they come after hooksup's verdict, as an entry of their own that
// names the verdict's Stop number. Its Decision is what they made claude do: block when one
// made it continue, halt when one ended the turn, else allow.
const EventOtherHooks = "OtherHooks"

// EventPermission is the verdict log's event for the agent's permission dialog answered
// through hooksup (hooksup approve or deny, watch, the page, the TUI): Decision is allow, deny
// or always, Source who answered ("manual (hooksup approve)"), Reason a denial's message to the
// agent, Permission what was asked.
const EventPermission = "PermissionRequest"

// Permission is what an answered permission dialog asked: the tool, its command (or path), and
// for an "always", the rule that was written.
type Permission struct {
	Tool    string `json:"tool"`
	Command string `json:"command,omitempty"`
	Rule    string `json:"rule,omitempty"`
}

// Verdict is one decided Stop or SubagentStop: a line of the verdict log.
type Verdict struct {
	Time      time.Time `json:"time"`           // when it was decided
	Asked     time.Time `json:"asked,omitzero"` // when the hook asked
	SessionID string    `json:"session_id"`
	// Agent is the supervised agent ("claude", "codex"); AgentID and AgentType name a
	// subagent of it.
	Agent     string `json:"agent,omitempty"`
	Event     string `json:"event"`
	AgentID   string `json:"agent_id,omitempty"`
	AgentType string `json:"agent_type,omitempty"`
	Turn      int    `json:"turn"`
	// Stop numbers the stops hooksup decided in this run, from 1; an OtherHooks entry names the
	// stop it tells about. Interrupted entries have none.
	Stop     int            `json:"stop,omitempty"`
	Decision hooks.Decision `json:"decision"`
	Source   Source         `json:"source"`
	Reason   string         `json:"reason,omitempty"`
	Warning  string         `json:"warning,omitempty"`
	// Proposal is what the checks proposed when the person, the timeout, Escape or a vanished
	// hook decided otherwise: a denied continuation keeps the checks' block and reason here.
	Proposal *Proposal `json:"proposal,omitempty"`

	StopHookActive       bool `json:"stop_hook_active"`
	Continuations        int  `json:"continuations"` // forced continuations in this turn, this one included
	MaxContinuations     int  `json:"max_continuations"`
	SessionContinuations int  `json:"session_continuations"`
	Steers               int  `json:"steers,omitempty"` // this subagent's steers, this one included
	MaxSteers            int  `json:"max_steers,omitempty"`

	Checks []CheckRecord `json:"checks,omitempty"`
	// Waited: the checks waited for another hooksup's run of checks in the project first.
	Waited    *Waited `json:"waited,omitempty"`
	LatencyMS float64 `json:"latency_ms"`

	Observation *Observation `json:"observation,omitempty"`

	// OtherHooks is what the other hooks at this stop did (OtherHooks entries; the front ends
	// also attach it to the verdict it names).
	OtherHooks []OtherHook `json:"other_hooks,omitempty"`

	// Goal is the goal's state at a stop of the main agent in goal mode (none outside one):
	// each goal turn, and the stop that ended the goal, with why.
	Goal *Goal `json:"goal,omitempty"`

	// Permission is what a PermissionRequest entry answered.
	Permission *Permission `json:"permission,omitempty"`
}

// GoalEnd says how a goal ended; "" while it goes on.
type GoalEnd string

// How a goal ends.
const (
	GoalReached    GoalEnd = "reached"     // the checks passed and the done command exited 0
	GoalBudget     GoalEnd = "budget"      // a budget ran out (Goal.Budget names it)
	GoalNoProgress GoalEnd = "no_progress" // the same failure came again and again (Goal.Repeated)
	GoalHalted     GoalEnd = "halted"      // Escape, a halt, or a person let the agent stop
	// GoalCapped: the agent's own cap on blocked stops ended a turn hooksup had it continue
	// (Goal.CappedBy names the agent): the end looked like a pass to every hook, and is not one.
	GoalCapped GoalEnd = "capped"
	// GoalPaused: the agent changed a file the goal protects (Goal.Paused says which), and no
	// person let the goal go on.
	GoalPaused GoalEnd = "paused"
)

// Reached reports whether the goal was reached.
func (e GoalEnd) Reached() bool { return e == GoalReached }

// Budgets a goal may run out of (Goal.Budget).
const (
	BudgetTurns  = "turns"
	BudgetTime   = "time"
	BudgetTokens = "tokens"
)

// Goal is a goal's state at one stop of the main agent: the turn it forced (or the last, at its
// end) against its budgets, the done command's run, and how it ended.
type Goal struct {
	Text      string `json:"text"`                  // the person's objective (its start, for a long one)
	Turn      int    `json:"turn"`                  // the goal's forced continuations, this one included
	MaxTurns  int    `json:"max_turns"`             // its budget of turns
	ElapsedMS int64  `json:"elapsed_ms"`            // since the session started
	MaxTimeMS int64  `json:"max_time_ms,omitempty"` // its budget of time (none: no limit)
	Tokens    int64  `json:"tokens,omitempty"`      // the session's tokens, as the agent's transcript counts them so far
	MaxTokens int64  `json:"max_tokens,omitempty"`  // its budget of tokens (none: no limit)
	// Done is the done command's run at this stop: none when a check failed first, or there is
	// no done command.
	Done *CheckRecord `json:"done,omitempty"`
	End  GoalEnd      `json:"end,omitempty"`
	// Budget names the budget that ran out (BudgetTurns, BudgetTime, BudgetTokens); Repeated
	// what came again and again without progress; Undone what is left undone when the goal
	// ended without being reached.
	Budget   string `json:"budget,omitempty"`
	Repeated string `json:"repeated,omitempty"`
	Undone   string `json:"undone,omitempty"`
	CappedBy string `json:"capped_by,omitempty"` // the agent whose own cap ended the goal (End capped)
	Paused   string `json:"paused,omitempty"`    // what the agent changed of the files the goal protects (End paused)
}

// OtherHook is one hook other than hooksup's that claude ran at a stop, as claude recorded it.
type OtherHook struct {
	Command string        `json:"command"`
	Outcome hooks.Outcome `json:"outcome"` // success, blocked, stopped (ended the turn), error, cancelled
	// Blocked: it made claude continue (exit 2, or {"decision":"block"}).
	Blocked    bool    `json:"blocked"`
	Reason     string  `json:"reason,omitempty"`    // its reason, error or stop reason, as plain text
	ExitCode   *int    `json:"exit_code,omitempty"` // when claude recorded it
	DurationMS float64 `json:"duration_ms,omitempty"`
	TimedOut   bool    `json:"timed_out,omitempty"`
}

// Waited is how long a stop's checks waited for another run of checks in the same project,
// and for whom (the last holder, when several came in turn).
type Waited struct {
	MS        float64 `json:"ms"`
	SessionID string  `json:"session_id,omitempty"` // none: `hooksup check`
	Agent     string  `json:"agent"`
	PID       int     `json:"pid"`
}

// Proposal is what the checks proposed for a stop.
type Proposal struct {
	Decision hooks.Decision `json:"decision"`
	Source   Source         `json:"source"`
	Reason   string         `json:"reason,omitempty"`
}

// CheckRecord is what the verdict log keeps of a check run.
type CheckRecord struct {
	Name       string  `json:"name"`
	ExitCode   int     `json:"exit_code"`
	DurationMS float64 `json:"duration_ms"`
	TimedOut   bool    `json:"timed_out,omitempty"`
	Error      string  `json:"error,omitempty"`
	// LeftRunning: the check's shell exited leaving processes running in its group, which were
	// killed after the grace (checks.LeftoverGrace).
	LeftRunning bool `json:"left_running,omitempty"`
	// Output is the end of what a failed check printed (passing checks keep none).
	Output string `json:"output,omitempty"`
}

// Observation is what hooksup knew about the session when it decided.
type Observation struct {
	Model        string         `json:"model,omitempty"`
	InputTokens  int64          `json:"input_tokens,omitempty"`
	OutputTokens int64          `json:"output_tokens,omitempty"`
	CacheRead    int64          `json:"cache_read_input_tokens,omitempty"`
	CacheCreate  int64          `json:"cache_creation_input_tokens,omitempty"`
	ToolCalls    map[string]int `json:"tool_calls,omitempty"`
	Turns        int            `json:"turns,omitempty"`
	TurnMS       int64          `json:"turn_duration_ms,omitempty"`
	LastMessage  string         `json:"last_assistant_message,omitempty"`
}
