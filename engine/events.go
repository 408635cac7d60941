package engine

import (
	"time"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/event"
	"github.com/hooksup/hooksup/internal/projectlock"
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

// CheckWaiting: a stop's checks wait for another hooksup's run of checks in the same project
// (another session's, an installed hook's, `hooksup check`); again when the holder or its
// check changes.
type CheckWaiting struct {
	event.At
	Event   string // Stop or SubagentStop
	AgentID string
	Holder  projectlock.Holder // whom they wait for
	Since   time.Time          // when they began to wait
}

// CheckWaitEnded: the wait is over: the checks run now, or the stop was let go without them
// (Escape, the hook gone, the wait too long).
type CheckWaitEnded struct {
	event.At
	Event   string
	AgentID string
	Waited  time.Duration
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
