// Package hub lets every hooksup session on the machine be seen and answered from any terminal
// of the same user: each session registers itself in the private runtime directory (registry.go)
// and serves a control socket beside its hook socket (server.go), whose wire format is declared
// here once, for the server and the clients (client.go) alike.
//
// The wire (docs/hub-protocol.md): a client connects, writes one Request as a JSON line and
// reads Response lines: one for snapshot, resolve and interrupt; for events, one acknowledging
// the stream, then one per event until the session ends or the client hangs up. Both sides say
// their protocol version on every line; a session of another version answers only that.
package hub

import (
	"encoding/json"
	"reflect"
	"time"

	"github.com/hooksup/hooksup/internal/projectlock"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// Protocol is the version of this wire. The client says it in its request, the server on every
// line it writes; a server refuses a request of another version (CodeVersion) and a client
// takes no answer of another version (VersionError). A change an older client or server would
// misread (an op, an event's name, a field's meaning) takes the next version; a new field the
// older ones ignore does not. A line without a version is protocol 1: the wire before it said
// its version was this one.
const Protocol = 1

// protocolOf is the version a line says: 1 when it says none.
func protocolOf(v int) int {
	if v == 0 {
		return 1
	}
	return v
}

// Ops a Request may name.
const (
	OpSnapshot  = "snapshot"  // the session as it is now
	OpResolve   = "resolve"   // answer a pending question
	OpInterrupt = "interrupt" // Escape, as if pressed in the session: the rest of the turn may stop
	OpEvents    = "events"    // a stream of the session's events
	// OpGoalResume continues the session's goal, out of budget or paused, with a larger budget.
	OpGoalResume = "goal_resume"
)

// Request is what a client asks of a session.
type Request struct {
	Protocol int    `json:"protocol"`
	Op       string `json:"op"`
	Question int    `json:"question,omitempty"` // resolve: the question's id
	Decision string `json:"decision,omitempty"` // resolve: allow, block or halt; a permission's allow, deny or always
	Reason   string `json:"reason,omitempty"`   // resolve: a block's reason (the checks' when empty)
	By       string `json:"by,omitempty"`       // resolve: where the person answered, e.g. "hooksup approve"
	// goal_resume: the goal's new budget (each 0 keeps its own).
	Goal *session.GoalBudget `json:"goal,omitempty"`
}

// Error codes a Response may carry.
const (
	CodeAnswered   = "answered"    // the question was answered already (elsewhere, timed out, Escape)
	CodeNoQuestion = "no_question" // no such question was asked
	CodeBadRequest = "bad_request"
	CodeVersion    = "version" // the request's protocol is not the session's: nothing was done
)

// Response is one answer line.
type Response struct {
	Protocol int       `json:"protocol"`
	Error    string    `json:"error,omitempty"`
	Code     string    `json:"code,omitempty"`
	Snapshot *Snapshot `json:"snapshot,omitempty"`
	Event    *Event    `json:"event,omitempty"`
}

// Snapshot is a session as its control socket tells it.
type Snapshot struct {
	ID         string    `json:"id"`         // hooksup's id for the session (its sockets' name)
	SessionID  string    `json:"session_id"` // the agent's session id, once a hook has named it
	Agent      string    `json:"agent"`
	Cwd        string    `json:"cwd"`
	PID        int       `json:"pid"`
	Started    time.Time `json:"started"`
	Mode       string    `json:"mode"`
	State      string    `json:"state"`
	StateSince time.Time `json:"state_since"`
	// Continuations forced in this session; Turn's and the turn's limit.
	Continuations     int        `json:"continuations"`
	TurnContinuations int        `json:"turn_continuations"`
	MaxContinuations  int        `json:"max_continuations"`
	Verdicts          int        `json:"verdicts"`
	Tokens            int64      `json:"tokens"`
	Pending           []Question `json:"pending"`
	// Waiting: a stop's checks wait for another hooksup's run of checks in the same project
	// (absent when none do, and from a session before it was told).
	Waiting *Waiting `json:"waiting,omitempty"`
	// LastMessage is the start of what the agent said last (its transcript's last reply, or a
	// stop's last message); Permission, while it needs permission, the tool it asks to run and
	// its command. The agent's text: show it as text, its controls visibly.
	LastMessage string              `json:"last_message,omitempty"`
	Permission  *session.Permission `json:"permission,omitempty"`
	// LastKey is when the person last pressed a key at the session's terminal (absent: never,
	// or a session without one, or from an older hooksup).
	LastKey time.Time `json:"last_key,omitzero"`
	// Goal is the session's goal in goal mode, as its latest stop left it: the turn against the
	// budgets, the done command's last run, its end once it ended (absent outside goal mode,
	// and from a session before goal mode).
	Goal *verdictlog.Goal `json:"goal,omitempty"`
}

// Waiting is whom a session's checks wait for: the hooksup running checks in its project.
type Waiting struct {
	SessionID string    `json:"session_id,omitempty"` // the holder's agent session; none for `hooksup check`
	Agent     string    `json:"agent"`                // the agent's name (claude, codex, gemini, copilot, qwen), or "hooksup check"
	PID       int       `json:"pid"`                  // the holder's process
	Check     string    `json:"check,omitempty"`      // the check it runs
	Since     time.Time `json:"since"`                // when this session began to wait
}

// ShortID is how a session is named to people: the agent's session id's first 8 characters
// (hooksup's own id until a hook has named the agent's).
func (s Snapshot) ShortID() string {
	id := s.SessionID
	if id == "" {
		id = s.ID
	}
	if len(id) > 8 {
		id = id[:8]
	}
	return id
}

// Holder is whom the checks wait for, as the project lock names its holder.
func (w Waiting) Holder() projectlock.Holder {
	return projectlock.Holder{SessionID: w.SessionID, Agent: w.Agent, PID: w.PID, Check: w.Check}
}

// Question is a stop decision waiting for a person, or the agent's permission dialog (Event
// PermissionRequest, with Permission: answered allow, deny or always).
type Question struct {
	ID        int       `json:"id"`
	Event     string    `json:"event"` // Stop, SubagentStop or PermissionRequest
	AgentID   string    `json:"agent_id"`
	AgentType string    `json:"agent_type,omitempty"`
	Proposal  string    `json:"proposal"` // what the checks said: block or allow
	Source    string    `json:"source"`   // the proposal's source, e.g. check:tests
	Reason    string    `json:"reason"`
	Asked     time.Time `json:"asked"`
	Deadline  time.Time `json:"deadline"`
	// Permission is what a PermissionRequest question asks to run (the agent's text, made
	// terminal-safe), and what "always" writes.
	Permission *session.Permission `json:"permission,omitempty"`
}

// Event is one of the session's events: its name on the wire (one of the Event… constants),
// when, and the event as JSON.
type Event struct {
	Type string          `json:"type"`
	Time time.Time       `json:"time"`
	Data json.RawMessage `json:"data"`
}

// The names of the session's events on the wire. They are the protocol: the Go types they
// name may be renamed, these may not (testdata/event-names.golden pins them).
const (
	EventHookReceived       = "HookReceived"
	EventCheckWaiting       = "CheckWaiting"
	EventCheckWaitEnded     = "CheckWaitEnded"
	EventCheckStarted       = "CheckStarted"
	EventCheckOutput        = "CheckOutput"
	EventCheckFinished      = "CheckFinished"
	EventVerdictDecided     = "VerdictDecided"
	EventOtherHooksReported = "OtherHooksReported"
	EventInterrupted        = "Interrupted"
	EventNotice             = "Notice"
	EventAgentExited        = "AgentExited"
	EventAlert              = "Alert"
	EventSubagentsChanged   = "SubagentsChanged"
	EventQuestionAsked      = "QuestionAsked"
	EventQuestionResolved   = "QuestionResolved"
	EventStateChanged       = "StateChanged"
	EventTranscriptUpdated  = "TranscriptUpdated"
	EventSessionSummary     = "SessionSummary"
	EventConfigTrustAsked   = "ConfigTrustAsked"
	EventConfigTrustSettled = "ConfigTrustSettled"
	EventConfigApplied      = "ConfigApplied"
	EventGoalTurnTyped      = "GoalTurnTyped"
)

// eventNames names each event type on the wire. An event missing here is never sent (the
// server logs it), and fails the tests that list every event type (wire_test.go).
var eventNames = map[reflect.Type]string{
	reflect.TypeFor[session.HookReceived]():       EventHookReceived,
	reflect.TypeFor[session.CheckWaiting]():       EventCheckWaiting,
	reflect.TypeFor[session.CheckWaitEnded]():     EventCheckWaitEnded,
	reflect.TypeFor[session.CheckStarted]():       EventCheckStarted,
	reflect.TypeFor[session.CheckOutput]():        EventCheckOutput,
	reflect.TypeFor[session.CheckFinished]():      EventCheckFinished,
	reflect.TypeFor[session.VerdictDecided]():     EventVerdictDecided,
	reflect.TypeFor[session.OtherHooksReported](): EventOtherHooksReported,
	reflect.TypeFor[session.Interrupted]():        EventInterrupted,
	reflect.TypeFor[session.Notice]():             EventNotice,
	reflect.TypeFor[session.AgentExited]():        EventAgentExited,
	reflect.TypeFor[session.Alert]():              EventAlert,
	reflect.TypeFor[session.SubagentsChanged]():   EventSubagentsChanged,
	reflect.TypeFor[session.QuestionAsked]():      EventQuestionAsked,
	reflect.TypeFor[session.QuestionResolved]():   EventQuestionResolved,
	reflect.TypeFor[session.StateChanged]():       EventStateChanged,
	reflect.TypeFor[session.TranscriptUpdated]():  EventTranscriptUpdated,
	reflect.TypeFor[session.SessionSummary]():     EventSessionSummary,
	reflect.TypeFor[session.ConfigTrustAsked]():   EventConfigTrustAsked,
	reflect.TypeFor[session.ConfigTrustSettled](): EventConfigTrustSettled,
	reflect.TypeFor[session.ConfigApplied]():      EventConfigApplied,
	reflect.TypeFor[session.GoalTurnTyped]():      EventGoalTurnTyped,
}

// EventName is ev's name on the wire; false for an event the wire has no name for.
func EventName(ev session.Event) (string, bool) {
	name, ok := eventNames[reflect.TypeOf(ev)]
	return name, ok
}
