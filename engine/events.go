package engine

import (
	"time"

	"github.com/hooksup/hooksup/internal/projectlock"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// CheckStarted: a check began for a stop decision.
type CheckStarted struct {
	session.At
	Run     int    `json:"run"` // a number unique in the session, shared by the check's later events
	Name    string `json:"name"`
	Command string `json:"command"`
	Event   string `json:"event"` // Stop or SubagentStop
	AgentID string `json:"agent_id"`
}

// CheckWaiting: a stop's checks wait for another hooksup's run of checks in the same project
// (another session's, an installed hook's, `hooksup check`); again when the holder or its
// check changes.
type CheckWaiting struct {
	session.At
	Event   string             `json:"event"` // Stop or SubagentStop
	AgentID string             `json:"agent_id"`
	Holder  projectlock.Holder `json:"holder"` // whom they wait for
	Since   time.Time          `json:"since"`  // when they began to wait
}

// CheckWaitEnded: the wait is over: the checks run now, or the stop was let go without them
// (Escape, the hook gone, the wait too long).
type CheckWaitEnded struct {
	session.At
	Event   string        `json:"event"`
	AgentID string        `json:"agent_id"`
	Waited  time.Duration `json:"waited"`
}

// CheckOutput: a chunk of a running check's combined stdout and stderr.
type CheckOutput struct {
	session.At
	Run   int    `json:"run"`
	Name  string `json:"name"`
	Chunk []byte `json:"chunk"`
}

// CheckFinished: a check ended.
type CheckFinished struct {
	session.At
	Run    int                 `json:"run"`
	Result session.CheckResult `json:"result"`
}

// VerdictDecided: a stop was decided (also written to the verdict log).
type VerdictDecided struct {
	session.At
	Verdict verdictlog.Verdict `json:"verdict"`
}

// Interrupted: the person pressed Escape; the rest of the turn may stop at once.
type Interrupted struct {
	session.At
	Turn int `json:"turn"`
}
