package session

import (
	"time"

	"github.com/hooksup/hooksup/internal/projectlock"
	"github.com/hooksup/hooksup/verdictlog"
)

// Counts is a snapshot of the engine's counters, for display.
type Counts struct {
	SessionID                                                       string
	Verdicts                                                        int
	Turn, TurnContinuations, MaxContinuations, SessionContinuations int
	SubagentContinuations                                           int // all subagents' steers
	MaxSteers                                                       int
	Escaped                                                         bool
	// Waiting: a stop's checks wait for another run of checks in the project (nil: none do).
	Waiting *Waiting
	// Goal is the goal's latest record in goal mode: its turn against its budgets, the done
	// command's last run, and its end once it ended (nil outside goal mode).
	Goal *verdictlog.Goal
}

// Waiting is a stop's checks waiting for another hooksup's run of checks in the same project.
type Waiting struct {
	Holder projectlock.Holder // whom they wait for
	Since  time.Time          // when they began to wait
}
