package session

import (
	"time"
)

// Subagent states in the ledger.
const (
	SubRunning  = "running"
	SubStopping = "stopping"
	SubSteered  = "steered" // a SubagentStop was blocked: it continues
	SubDone     = "done"
	SubOrphan   = "orphan" // a SubagentStop for an agent hooksup never saw start
)

// Subagent is one line of the ledger.
type Subagent struct {
	ID        string    `json:"id"`
	Type      string    `json:"type"`
	State     string    `json:"state"`
	Steers    int       `json:"steers"`
	Started   time.Time `json:"started"`
	Ended     time.Time `json:"ended"`
	Usage     Usage     `json:"usage"` // from its transcript, when known
	ToolCalls int64     `json:"tool_calls"`
}

// SubagentsChanged: the subagent ledger changed; Agents is a copy, in order of appearance.
type SubagentsChanged struct {
	At
	Agents []Subagent `json:"agents"`
}
