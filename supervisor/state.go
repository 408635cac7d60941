package supervisor

import (
	"strings"
	"sync"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/clip"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
	"github.com/hooksup/hooksup/verdictlog"
)

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
	session.At
	State  AgentState `json:"state"`
	Reason string     `json:"reason"` // what showed it, for people, e.g. "Notification idle_prompt"
	Source string     `json:"source"` // "hook", "terminal", "transcript", "keyboard" or "process"
	// Notification is the type of the Notification hook that showed it, if one did
	// (idle_prompt, permission_prompt, …).
	Notification string `json:"notification"`
}

// notificationIdle is claude's Notification type for a prompt left idle a while.
const notificationIdle = "idle_prompt"

// Sources of state, in precedence:
//   - hooks say for certain where a turn is: started (UserPromptSubmit), stopping (Stop, and
//     hooksup's own verdict), failed (StopFailure), ended (SessionEnd);
//   - the terminal (what claude tells the terminal it runs in, OSC 7501, as its screen changes)
//     says whether claude waits for the person — a dialog opened or closed — the moment it
//     does, in every permission mode. Once claude reports to its terminal, the hooks that only
//     announce a dialog no longer move the state: PermissionRequest and PreToolUse of an asking
//     tool come before claude decided to show one (a hook may answer it; auto mode may allow
//     it), and the Notification comes seconds after it showed, maybe after it was answered.
//     Without terminal reports (a terminal hooksup does not own, claude told not to write
//     them), those hooks are the source;
//   - the transcript is written later and only fills what no hook reports (a permission
//     granted, an interrupt);
//   - the process says only that it ended.
//
// The keyboard (Escape) is hooksup's own: an interrupt stays shown until a new prompt.
const (
	fromHook       = "hook"
	fromTerminal   = "terminal"
	fromTranscript = "transcript"
	fromKeyboard   = "keyboard"
	fromProcess    = "process"
)

// askingTools are the tools that wait for the person, announced by PreToolUse, and what they
// wait for.
var askingTools = map[string]AgentState{"AskUserQuestion": StateQuestion, "ExitPlanMode": StatePermission}

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

// stateTracker derives the agent's state from hooks first, the transcript as the fallback and
// the process last, dropping stale events: a notification about an older prompt does not
// override what a newer prompt started, and a transcript line older than the current state
// says nothing about it.
type stateTracker struct {
	mu       sync.Mutex
	state    AgentState
	since    time.Time
	promptID string
	reports  bool // claude reports its state to its terminal
	// idleTold: claude's idle_prompt was told during this wait; claude may say it again, the
	// person hears it once per wait.
	idleTold bool
	emit     func(session.Event)
	now      func() time.Time
}

func newStateTracker(emit func(session.Event), now func() time.Time) *stateTracker {
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

// change is set with the whole change described. Claude's idle_prompt is told even when the
// state already is waiting (a stop was allowed): it is claude saying it has waited a while,
// which [notifications] on_idle is about; once per wait, and the wait keeps its start.
func (t *stateTracker) change(c StateChanged) {
	t.mu.Lock()
	defer t.mu.Unlock()
	idle := c.Notification == notificationIdle
	if t.state == StateExited || (t.state == c.State && (!idle || t.idleTold)) {
		return
	}
	now := t.now()
	if t.state != c.State {
		t.state, t.since = c.State, now
	}
	t.idleTold = idle
	c.At = session.At{Time: now}
	t.emit(c)
}

// hook updates the state for a hook as it arrives.
func (t *stateTracker) hook(in *hooks.Input) {
	t.mu.Lock()
	stale := in.PromptID != "" && t.promptID != "" && in.PromptID != t.promptID && in.HookEventName != hooks.UserPromptSubmit
	if in.HookEventName == hooks.UserPromptSubmit && in.PromptID != "" {
		t.promptID = in.PromptID
	}
	cur, reports := t.state, t.reports
	t.mu.Unlock()
	if stale {
		return
	}
	if reports && announcesDialog(in) {
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
		if s, ok := askingTools[in.ToolName]; ok {
			t.set(s, "PreToolUse "+in.ToolName, fromHook)
		}
	case hooks.Notification:
		switch in.NotificationType {
		case "permission_prompt", "elicitation_dialog", "agent_needs_input":
			s := StatePermission
			if in.NotificationType == "elicitation_dialog" {
				s = StateQuestion
			}
			t.change(StateChanged{State: s, Reason: "Notification " + in.NotificationType, Source: fromHook,
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
		if reports && (cur == StatePermission || cur == StateQuestion) {
			return // a subagent starting does not answer claude's dialog
		}
		t.set(StateWorking, "SubagentStart "+in.AgentType, fromHook)
	case hooks.StopFailure:
		t.set(StateFailed, "StopFailure", fromHook)
	case hooks.SessionEnd:
		t.set(StateExited, "SessionEnd "+in.Reason, fromHook)
	}
}

// announcesDialog reports the hooks that only announce a dialog claude may show (or showed a
// while ago): the state's source while claude does not report to its terminal.
func announcesDialog(in *hooks.Input) bool {
	switch in.HookEventName {
	case hooks.PermissionRequest:
		return true
	case hooks.PreToolUse:
		_, ok := askingTools[in.ToolName]
		return ok
	case hooks.Notification:
		return in.NotificationType != notificationIdle
	}
	return false
}

// terminal updates the state for a report claude wrote to its terminal. Claude working or
// idle does not hide hooksup's own view of the turn: a stop being decided (claude runs
// hooksup's Stop hook meanwhile), an interrupt, a failure.
func (t *stateTracker) terminal(ts TerminalStatus) {
	t.mu.Lock()
	t.reports = true
	cur := t.state
	t.mu.Unlock()
	reason := clip.Head(strings.Join(strings.Fields(ts.Msg), " "), 120)
	switch ts.State {
	case TerminalWorking:
		if cur != StateStopping {
			t.set(StateWorking, or(reason, "working"), fromTerminal)
		}
	case TerminalBlocked:
		s := StatePermission
		switch ts.Kind {
		case BlockedQuestion:
			s = StateQuestion
		case BlockedAuth:
			s = StateFailed
			reason = or(reason, "sign-in needed")
		}
		t.set(s, or(reason, "a dialog"), fromTerminal)
	case TerminalIdle, TerminalDone:
		switch cur {
		case StateStopping, StateInterrupted, StateFailed:
		default:
			t.set(StateWaiting, or(reason, string(ts.State)), fromTerminal)
		}
	case TerminalError:
		t.set(StateFailed, or(reason, "error"), fromTerminal)
	}
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// verdict updates the state once a main-agent stop is decided.
func (t *stateTracker) verdict(v verdictlog.Verdict) {
	if v.Event != hooks.Stop {
		return
	}
	switch {
	case v.Decision == hooks.Block:
		t.set(StateWorking, "Stop blocked", fromHook)
	case v.Source == verdictlog.SourceEscape:
		t.set(StateInterrupted, "Escape", fromKeyboard)
	default:
		t.set(StateWaiting, "Stop allowed", fromHook)
	}
}

// otherHookBlocked: another Stop hook made claude continue after hooksup allowed its latest
// stop. Claude works on, unless something newer (a prompt, a permission dialog) was seen since.
func (t *stateTracker) otherHookBlocked() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state != StateWaiting {
		return
	}
	t.state, t.since, t.idleTold = StateWorking, t.now(), false
	t.emit(StateChanged{At: session.At{Time: t.since}, State: StateWorking, Reason: "Stop blocked by another hook", Source: fromTranscript})
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
		if cur == StatePermission || cur == StateQuestion {
			t.set(StateWorking, "transcript: tool result", fromTranscript)
		}
	case transcript.KindInterrupt:
		if cur != StateWaiting {
			t.set(StateInterrupted, "transcript: interrupted", fromTranscript)
		}
	}
}
