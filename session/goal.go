package session

import "time"

// GoalTurnTyped asks the front end that owns the agent's terminal (the TUI) to start the goal's
// next turn itself: the agent's own cap on blocked stops ended the turn that the goal had it
// continue. The front end types Text (one line) and Enter into the agent's prompt once the
// agent waits for input with its prompt box empty; another front end only shows it.
type GoalTurnTyped struct {
	At
	Text string `json:"text"`
}

// GoalBudget is a larger budget for a goal that ended out of budget or paused, to resume it
// with (hooksup goal resume): each 0 keeps the goal's own.
type GoalBudget struct {
	MaxTurns  int           `json:"max_turns,omitempty"`
	MaxTime   time.Duration `json:"max_time,omitempty"`
	MaxTokens int           `json:"max_tokens,omitempty"`
}
