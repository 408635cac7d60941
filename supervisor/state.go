package supervisor

import (
	"sync"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/transcript"
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
	Reason string // what showed it, for people, e.g. "Notification idle_prompt"
	Source string // "hook", "transcript", "keyboard" or "process"
	// Notification is the type of the Notification hook that showed it, if one did
	// (idle_prompt, permission_prompt, …).
	Notification string
}

// notificationIdle is claude's Notification type for a prompt left idle a while.
const notificationIdle = "idle_prompt"

// Sources of state, in precedence: a hook says for certain what claude does; the transcript
// is written later and only fills what no hook reports (a permission granted, an interrupt);
// the process says only that it ended.
const (
	fromHook       = "hook"
	fromTranscript = "transcript"
	fromKeyboard   = "keyboard"
	fromProcess    = "process"
)

// askingTools are the tools that wait for the person, announced by PreToolUse.
var askingTools = map[string]bool{"AskUserQuestion": true, "ExitPlanMode": true}

// stateTracker derives the agent's state from hooks first, the transcript as the fallback and
// the process last, dropping stale events: a notification about an older prompt does not
// override what a newer prompt started, and a transcript line older than the current state
// says nothing about it.
type stateTracker struct {
	mu       sync.Mutex
	state    AgentState
	since    time.Time
	promptID string
	emit     func(Event)
	now      func() time.Time
}

func newStateTracker(emit func(Event), now func() time.Time) *stateTracker {
	if now == nil {
		now = time.Now
	}
	return &stateTracker{state: StateStarting, since: now(), emit: emit, now: now}
}

func (t *stateTracker) get() AgentState {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state
}

// set changes the state. It publishes under the lock (publishing never blocks), so changes
// reach the front end in the order they happened.
func (t *stateTracker) set(s AgentState, reason, source string) {
	t.change(StateChanged{State: s, Reason: reason, Source: source})
}

// change is set with the whole change described.
func (t *stateTracker) change(c StateChanged) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state == c.State || t.state == StateExited {
		return
	}
	t.state, t.since = c.State, t.now()
	c.At = At{t.since}
	t.emit(c)
}

// hook updates the state for a hook as it arrives.
func (t *stateTracker) hook(in *hooks.Input) {
	t.mu.Lock()
	stale := in.PromptID != "" && t.promptID != "" && in.PromptID != t.promptID && in.HookEventName != hooks.UserPromptSubmit
	if in.HookEventName == hooks.UserPromptSubmit && in.PromptID != "" {
		t.promptID = in.PromptID
	}
	cur := t.state
	t.mu.Unlock()
	if stale {
		return
	}
	switch in.HookEventName {
	case hooks.SessionStart:
		t.set(StateWaiting, "SessionStart "+in.Source, fromHook)
	case hooks.UserPromptSubmit:
		t.set(StateWorking, "UserPromptSubmit", fromHook)
	case hooks.PermissionRequest:
		t.set(StatePermission, "PermissionRequest "+in.ToolName, fromHook)
	case hooks.PreToolUse:
		if askingTools[in.ToolName] {
			t.set(StatePermission, "PreToolUse "+in.ToolName, fromHook)
		}
	case hooks.Notification:
		switch in.NotificationType {
		case "permission_prompt", "elicitation_dialog", "agent_needs_input":
			t.change(StateChanged{State: StatePermission, Reason: "Notification " + in.NotificationType, Source: fromHook,
				Notification: in.NotificationType})
		case notificationIdle:
			// A late idle notification must not hide work that started since.
			if cur != StateWorking && cur != StateStopping {
				t.change(StateChanged{State: StateWaiting, Reason: "Notification " + notificationIdle, Source: fromHook,
					Notification: notificationIdle})
			}
		}
	case hooks.Stop:
		t.set(StateStopping, "Stop", fromHook)
	case hooks.SubagentStart:
		t.set(StateWorking, "SubagentStart "+in.AgentType, fromHook)
	case hooks.StopFailure:
		t.set(StateFailed, "StopFailure", fromHook)
	case hooks.SessionEnd:
		t.set(StateExited, "SessionEnd "+in.Reason, fromHook)
	}
}

// verdict updates the state once a main-agent stop is decided.
func (t *stateTracker) verdict(v Verdict) {
	if v.Event != hooks.Stop {
		return
	}
	switch {
	case v.Decision == hooks.Block:
		t.set(StateWorking, "Stop blocked", fromHook)
	case v.Source == SourceEscape:
		t.set(StateInterrupted, "Escape", fromKeyboard)
	default:
		t.set(StateWaiting, "Stop allowed", fromHook)
	}
}

// record infers state from a line of the main transcript, when no hook says more: a tool
// result after a permission request means the person allowed (or denied) it and claude works
// on; an interrupt line means Escape. Lines older than the current state are stale.
func (t *stateTracker) record(r transcript.Record) {
	t.mu.Lock()
	cur, since := t.state, t.since
	t.mu.Unlock()
	if !r.Time.IsZero() && r.Time.Before(since) {
		return
	}
	switch r.Kind {
	case transcript.KindToolResult:
		if cur == StatePermission {
			t.set(StateWorking, "transcript: tool result", fromTranscript)
		}
	case transcript.KindInterrupt:
		if cur != StateWaiting {
			t.set(StateInterrupted, "transcript: interrupted", fromTranscript)
		}
	}
}
