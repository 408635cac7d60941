package session

import (
	"time"

	"github.com/hooksup/hooksup/internal/projectlock"
) // CheckResult is how one run of a check ended.
type CheckResult struct {
	Name     string        `json:"name"`
	Command  string        `json:"command"`
	ExitCode int           `json:"exit_code"` // -1 when the command did not run to an exit code
	Duration time.Duration `json:"duration"`
	TimedOut bool          `json:"timed_out"`
	Canceled bool          `json:"canceled"` // stopped by an interrupt
	// LeftRunning: the shell exited leaving processes running in its group, still there after
	// LeftoverGrace, when they were killed.
	LeftRunning bool   `json:"left_running"`
	StartErr    error  `json:"start_err"` // the command could not start (including sh's 126/127)
	Output      []byte `json:"output"`    // the end of what it printed (outputKeep), as printed: colours and all
	Written     int64  `json:"written"`   // how many bytes it printed in all
	Lines       int    `json:"lines"`     // how many lines it printed in all
}

// Passed reports whether the check succeeded.
func (r CheckResult) Passed() bool {
	return r.StartErr == nil && !r.TimedOut && !r.Canceled && r.ExitCode == 0
}

// CheckStarted: a check began for a stop decision.
type CheckStarted struct {
	At
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
	At
	Event   string             `json:"event"` // Stop or SubagentStop
	AgentID string             `json:"agent_id"`
	Holder  projectlock.Holder `json:"holder"` // whom they wait for
	Since   time.Time          `json:"since"`  // when they began to wait
}

// CheckWaitEnded: the wait is over: the checks run now, or the stop was let go without them
// (Escape, the hook gone, the wait too long).
type CheckWaitEnded struct {
	At
	Event   string        `json:"event"`
	AgentID string        `json:"agent_id"`
	Waited  time.Duration `json:"waited"`
}

// CheckOutput: a chunk of a running check's combined stdout and stderr.
type CheckOutput struct {
	At
	Run   int    `json:"run"`
	Name  string `json:"name"`
	Chunk []byte `json:"chunk"`
}

// CheckFinished: a check ended.
type CheckFinished struct {
	At
	Run    int         `json:"run"`
	Result CheckResult `json:"result"`
}

// WhatFailed opens the heading's last sentence when a reason quotes what failed, read from the
// output, rather than the output's end: its first lines are the first failure, the ones to
// show where there is room for a few.
const WhatFailed = "What failed ("
