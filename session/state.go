package session

import ()

// AgentState is what the supervised agent is doing.
type AgentState string

// Agent states.
const (
	StateStarting    AgentState = "starting"
	StateWorking     AgentState = "working"
	StateStopping    AgentState = "stopping" // a stop decision is in progress
	StateWaiting     AgentState = "waiting for input"
	StatePermission  AgentState = "needs permission" // a permission dialog, a plan to approve
	StateQuestion    AgentState = "needs an answer"  // AskUserQuestion, an MCP elicitation
	StateFailed      AgentState = "failed"
	StateInterrupted AgentState = "interrupted"
	StateExited      AgentState = "exited"
)

// StateChanged: the agent's state changed.
type StateChanged struct {
	At
	State  AgentState `json:"state"`
	Reason string     `json:"reason"` // what showed it, for people, e.g. "Notification idle_prompt"
	Source string     `json:"source"` // "hook", "terminal", "transcript", "keyboard" or "process"
	// Notification is the type of the Notification hook that showed it, if one did
	// (idle_prompt, permission_prompt, …).
	Notification string `json:"notification"`
}

// TerminalState is what claude told its terminal it is doing.
type TerminalState string

// Terminal states (the Program Status Protocol's).
const (
	TerminalIdle    TerminalState = "idle"
	TerminalWorking TerminalState = "working"
	TerminalDone    TerminalState = "done" // a turn ended, its result waits to be seen
	TerminalBlocked TerminalState = "blocked"
	TerminalError   TerminalState = "error"
)

// BlockedKind is what a blocked claude waits for.
type BlockedKind string

// Blocked kinds; a dialog may name none.
const (
	BlockedPermission BlockedKind = "permission"
	BlockedQuestion   BlockedKind = "question"
	BlockedAuth       BlockedKind = "auth" // a sign-in: the turn ended on an authentication error
)

// TerminalStatus is one report claude wrote to its terminal about itself (the Program Status
// Protocol, OSC 7501): it writes one as its state changes, in the same moment it draws, e.g.,
// a permission dialog. The front end that owns claude's terminal passes on claude's reports
// about itself (not those about its subagents and tasks) with Supervisor.TerminalStatus.
type TerminalStatus struct {
	State TerminalState
	Kind  BlockedKind // with TerminalBlocked; "" for a dialog that names none
	Msg   string      // what claude says, e.g. "approve Bash: rm -rf build"
	// Title, when set, is instead the window title the agent set; an agent that tells its
	// state there (agent.TitleState: Gemini CLI) is read from it, the others' is ignored.
	Title string
}
