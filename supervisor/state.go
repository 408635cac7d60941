package supervisor

import (
	"sync"
	"time"

	"github.com/hooksup/hooksup/hooks"
)

// AgentState is what the supervised agent is doing.
type AgentState string

// Agent states.
const (
	StateStarting    AgentState = "starting"
	StateWorking     AgentState = "working"
	StateStopping    AgentState = "stopping" // a stop decision is in progress
	StateWaiting     AgentState = "waiting for input"
	StatePermission  AgentState = "needs permission"
	StateFailed      AgentState = "failed"
	StateInterrupted AgentState = "interrupted"
	StateExited      AgentState = "exited"
)

// StateChanged: the agent's state changed.
type StateChanged struct {
	At
	State  AgentState
	Reason string // what showed it, e.g. "Notification idle_prompt"
}

// stateTracker derives the agent's state from hook events, dropping stale ones: a
// notification about an older prompt does not override what a newer prompt started.
type stateTracker struct {
	mu       sync.Mutex
	state    AgentState
	promptID string
	emit     func(Event)
	now      func() time.Time
}

func newStateTracker(emit func(Event)) *stateTracker {
	return &stateTracker{state: StateStarting, emit: emit, now: time.Now}
}

func (t *stateTracker) get() AgentState {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state
}

func (t *stateTracker) set(s AgentState, reason string) {
	t.mu.Lock()
	if t.state == s || t.state == StateExited {
		t.mu.Unlock()
		return
	}
	t.state = s
	t.mu.Unlock()
	t.emit(StateChanged{At: At{t.now()}, State: s, Reason: reason})
}

// hook updates the state for a hook as it arrives.
func (t *stateTracker) hook(in *hooks.Input) {
	t.mu.Lock()
	stale := in.PromptID != "" && t.promptID != "" && in.PromptID != t.promptID && in.HookEventName != hooks.UserPromptSubmit
	if in.HookEventName == hooks.UserPromptSubmit && in.PromptID != "" {
		t.promptID = in.PromptID
	}
	t.mu.Unlock()
	if stale {
		return
	}
	switch in.HookEventName {
	case hooks.SessionStart:
		t.set(StateWaiting, "SessionStart")
	case hooks.UserPromptSubmit:
		t.set(StateWorking, "UserPromptSubmit")
	case hooks.PermissionRequest:
		t.set(StatePermission, "PermissionRequest "+in.ToolName)
	case hooks.Notification:
		switch in.NotificationType {
		case "permission_prompt", "elicitation_dialog":
			t.set(StatePermission, "Notification "+in.NotificationType)
		case "idle_prompt":
			if t.get() != StateWorking {
				t.set(StateWaiting, "Notification idle_prompt")
			}
		}
	case hooks.Stop:
		t.set(StateStopping, "Stop")
	case hooks.SubagentStart:
		t.set(StateWorking, "SubagentStart")
	case hooks.StopFailure:
		t.set(StateFailed, "StopFailure")
	case hooks.SessionEnd:
		t.set(StateExited, "SessionEnd "+in.Reason)
	}
}

// verdict updates the state once a main-agent stop is decided.
func (t *stateTracker) verdict(v Verdict) {
	if v.Event != hooks.Stop {
		return
	}
	switch v.Decision {
	case string(hooks.Block):
		t.set(StateWorking, "Stop blocked")
	default:
		if v.Source == SourceEscape {
			t.set(StateInterrupted, "Escape")
			return
		}
		t.set(StateWaiting, "Stop allowed")
	}
}
