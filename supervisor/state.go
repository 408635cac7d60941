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
var askingTools = map[string]session.AgentState{"AskUserQuestion": session.StateQuestion, "ExitPlanMode": session.StatePermission}

// stateTracker derives the agent's state from hooks first, the transcript as the fallback and
// the process last, dropping stale events: a notification about an older prompt does not
// override what a newer prompt started, and a transcript line older than the current state
// says nothing about it.
type stateTracker struct {
	mu       sync.Mutex
	state    session.AgentState
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
	return &stateTracker{state: session.StateStarting, since: now(), emit: emit, now: now}
}

func (t *stateTracker) get() session.AgentState {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state
}

// set changes the state. It publishes under the lock (publishing never blocks), so changes
// reach the front end in the order they happened.
func (t *stateTracker) set(s session.AgentState, reason, source string) {
	t.change(session.StateChanged{State: s, Reason: reason, Source: source})
}

// change is set with the whole change described. Claude's idle_prompt is told even when the
// state already is waiting (a stop was allowed): it is claude saying it has waited a while,
// which [notifications] on_idle is about; once per wait, and the wait keeps its start.
func (t *stateTracker) change(c session.StateChanged) {
	t.mu.Lock()
	defer t.mu.Unlock()
	idle := c.Notification == notificationIdle
	if t.state == session.StateExited || (t.state == c.State && (!idle || t.idleTold)) {
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
		t.set(session.StateWaiting, "SessionStart "+in.Source, fromHook)
	case hooks.UserPromptSubmit:
		t.set(session.StateWorking, "UserPromptSubmit", fromHook)
	case hooks.PermissionRequest:
		t.set(session.StatePermission, "PermissionRequest "+in.ToolName, fromHook)
	case hooks.PreToolUse:
		if s, ok := askingTools[in.ToolName]; ok {
			t.set(s, "PreToolUse "+in.ToolName, fromHook)
		}
	case hooks.Notification:
		switch in.NotificationType {
		case "permission_prompt", "elicitation_dialog", "agent_needs_input":
			s := session.StatePermission
			if in.NotificationType == "elicitation_dialog" {
				s = session.StateQuestion
			}
			t.change(session.StateChanged{State: s, Reason: "Notification " + in.NotificationType, Source: fromHook,
				Notification: in.NotificationType})
		case notificationIdle:
			// A late idle notification must not hide work that started since.
			if cur != session.StateWorking && cur != session.StateStopping {
				t.change(session.StateChanged{State: session.StateWaiting, Reason: "Notification " + notificationIdle, Source: fromHook,
					Notification: notificationIdle})
			}
		}
	case hooks.Stop:
		t.set(session.StateStopping, "Stop", fromHook)
	case hooks.SubagentStart:
		if reports && (cur == session.StatePermission || cur == session.StateQuestion) {
			return // a subagent starting does not answer claude's dialog
		}
		t.set(session.StateWorking, "SubagentStart "+in.AgentType, fromHook)
	case hooks.StopFailure:
		t.set(session.StateFailed, "StopFailure", fromHook)
	case hooks.SessionEnd:
		t.set(session.StateExited, "SessionEnd "+in.Reason, fromHook)
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
func (t *stateTracker) terminal(ts session.TerminalStatus) {
	t.mu.Lock()
	t.reports = true
	cur := t.state
	t.mu.Unlock()
	reason := clip.Head(strings.Join(strings.Fields(ts.Msg), " "), 120)
	switch ts.State {
	case session.TerminalWorking:
		if cur != session.StateStopping {
			t.set(session.StateWorking, or(reason, "working"), fromTerminal)
		}
	case session.TerminalBlocked:
		s := session.StatePermission
		switch ts.Kind {
		case session.BlockedQuestion:
			s = session.StateQuestion
		case session.BlockedAuth:
			s = session.StateFailed
			reason = or(reason, "sign-in needed")
		}
		t.set(s, or(reason, "a dialog"), fromTerminal)
	case session.TerminalIdle, session.TerminalDone:
		switch cur {
		case session.StateStopping, session.StateInterrupted, session.StateFailed:
		default:
			t.set(session.StateWaiting, or(reason, string(ts.State)), fromTerminal)
		}
	case session.TerminalError:
		t.set(session.StateFailed, or(reason, "error"), fromTerminal)
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
		t.set(session.StateWorking, "Stop blocked", fromHook)
	case v.Source == verdictlog.SourceEscape:
		t.set(session.StateInterrupted, "Escape", fromKeyboard)
	default:
		t.set(session.StateWaiting, "Stop allowed", fromHook)
	}
}

// otherHookBlocked: another Stop hook made claude continue after hooksup allowed its latest
// stop. Claude works on, unless something newer (a prompt, a permission dialog) was seen since.
func (t *stateTracker) otherHookBlocked() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state != session.StateWaiting {
		return
	}
	t.state, t.since, t.idleTold = session.StateWorking, t.now(), false
	t.emit(session.StateChanged{At: session.At{Time: t.since}, State: session.StateWorking, Reason: "Stop blocked by another hook", Source: fromTranscript})
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
		if cur == session.StatePermission || cur == session.StateQuestion {
			t.set(session.StateWorking, "transcript: tool result", fromTranscript)
		}
	case transcript.KindInterrupt:
		if cur != session.StateWaiting {
			t.set(session.StateInterrupted, "transcript: interrupted", fromTranscript)
		}
	}
}
