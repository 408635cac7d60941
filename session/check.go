package session

import (
	"time"
)

// CheckResult is how one run of a check ended.
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
