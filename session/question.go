package session

import (
	"errors"
	"fmt"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/verdictlog"
)

// Question is a stop decision put to a person (modes ask and manual), or, with Event
// PermissionRequest, the agent's own permission dialog, which a person may answer from
// elsewhere too (Permission says what the agent asks to run; the proposal is empty).
type Question struct {
	ID          int               `json:"id"`
	Event       string            `json:"event"` // Stop, SubagentStop or PermissionRequest
	AgentID     string            `json:"agent_id"`
	AgentType   string            `json:"agent_type"`
	Proposal    hooks.Decision    `json:"proposal"` // what the checks said
	Source      verdictlog.Source `json:"source"`   // the proposal's source, e.g. check:tests
	Reason      string            `json:"reason"`   // the checks' reason for a proposed block (the default reason)
	Warning     string            `json:"warning"`
	LastMessage string            `json:"last_message"` // what the agent said last
	Asked       time.Time         `json:"asked"`
	Deadline    time.Time         `json:"deadline"` // when on_timeout applies (none for a permission)
	Permission  *Permission       `json:"permission,omitempty"`
}

// The answers to a permission question (Question.Permission): the tool runs once, it does not
// run (with the person's reason for the agent, where it takes one), or it runs and the rule
// Permission.Always describes is written, as the agent's own "always" would.
const (
	PermissionAllow  hooks.Decision = "allow"
	PermissionDeny   hooks.Decision = "deny"
	PermissionAlways hooks.Decision = "always"
)

// ErrNotPermission is returned when a permission question is answered with a stop's decision,
// or a stop's question with a permission's.
var ErrNotPermission = errors.New("the answer does not fit the question")

// QuestionAsked: a person is asked to decide a stop. Answer with Supervisor.Resolve.
type QuestionAsked struct {
	At
	Question Question `json:"question"`
}

// QuestionResolved: a question was answered (by the person, the timeout or Escape).
type QuestionResolved struct {
	At
	ID       int               `json:"id"`
	Decision hooks.Decision    `json:"decision"`
	By       verdictlog.Source `json:"by"` // manual, timeout, escape or failopen; terminal: a permission answered at the agent's own dialog
}

// ErrNoSuchQuestion is returned when resolving a question that is not pending (already
// answered, timed out, or never asked).
var ErrNoSuchQuestion = errors.New("no such pending question")

// ErrAnswered is returned when resolving a question that was asked and has been answered (by
// someone else, the timeout or Escape); it is also an ErrNoSuchQuestion.
var ErrAnswered = fmt.Errorf("%w: it was already answered", ErrNoSuchQuestion)

// ManualSource is the source of a verdict a person gave somewhere other than the session's own
// TUI: "manual (WHERE)".
func ManualSource(where string) verdictlog.Source {
	return verdictlog.Source(string(verdictlog.SourceManual) + " (" + where + ")")
}
