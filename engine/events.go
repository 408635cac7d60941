package engine

import (
	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/event"
	"github.com/hooksup/hooksup/verdictlog"
)

// CheckStarted: a check began for a stop decision.
type CheckStarted struct {
	event.At
	Run     int // a number unique in the session, shared by the check's later events
	Name    string
	Command string
	Event   string // Stop or SubagentStop
	AgentID string
}

// CheckOutput: a chunk of a running check's combined stdout and stderr.
type CheckOutput struct {
	event.At
	Run   int
	Name  string
	Chunk []byte
}

// CheckFinished: a check ended.
type CheckFinished struct {
	event.At
	Run    int
	Result checks.Result
}

// VerdictDecided: a stop was decided (also written to the verdict log).
type VerdictDecided struct {
	event.At
	Verdict verdictlog.Verdict
}

// Interrupted: the person pressed Escape; the rest of the turn may stop at once.
type Interrupted struct {
	event.At
	Turn int
}
