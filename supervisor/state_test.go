package supervisor

import (
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
	"github.com/hooksup/hooksup/verdictlog"
)

// stepClock advances a second per reading, so "before" and "after" are unambiguous.
type stepClock struct{ t time.Time }

func (c *stepClock) now() time.Time { c.t = c.t.Add(time.Second); return c.t }

type stateRun struct {
	tr      *stateTracker
	clock   *stepClock
	changes []string
}

func newStateRun() *stateRun {
	r := &stateRun{clock: &stepClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}}
	r.tr = newStateTracker(func(ev session.Event) {
		c := ev.(session.StateChanged)
		r.changes = append(r.changes, string(c.State)+"<"+c.Source)
	}, r.clock.now)
	return r
}

func hk(ev string, f func(*hooks.Input)) *hooks.Input {
	in := &hooks.Input{HookEventName: ev, SessionID: "s"}
	if f != nil {
		f(in)
	}
	return in
}

func prompt(id string) *hooks.Input {
	return hk(hooks.UserPromptSubmit, func(in *hooks.Input) { in.PromptID = id })
}

func TestStateTransitions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps func(r *stateRun)
		want  session.AgentState
	}{
		{"starting", func(r *stateRun) {}, session.StateStarting},
		{"session start waits for input", func(r *stateRun) { r.tr.hook(hk(hooks.SessionStart, nil)) }, session.StateWaiting},
		{"prompt works", func(r *stateRun) { r.tr.hook(prompt("p1")) }, session.StateWorking},
		{"PermissionRequest at once", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.PermissionRequest, func(in *hooks.Input) { in.PromptID, in.ToolName = "p1", "Bash" }))
		}, session.StatePermission},
		{"AskUserQuestion waits for an answer", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.PreToolUse, func(in *hooks.Input) { in.PromptID, in.ToolName = "p1", "AskUserQuestion" }))
		}, session.StateQuestion},
		{"a plan waits for approval", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.PreToolUse, func(in *hooks.Input) { in.PromptID, in.ToolName = "p1", "ExitPlanMode" }))
		}, session.StatePermission},
		{"an elicitation waits for an answer", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.Notification, func(in *hooks.Input) { in.PromptID, in.NotificationType = "p1", "elicitation_dialog" }))
		}, session.StateQuestion},
		{"other PreToolUse changes nothing", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.PreToolUse, func(in *hooks.Input) { in.PromptID, in.ToolName = "p1", "Read" }))
		}, session.StateWorking},
		{"Stop is stopping", func(r *stateRun) { r.tr.hook(prompt("p1")); r.tr.hook(hk(hooks.Stop, nil)) }, session.StateStopping},
		{"Stop allowed waits", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.Stop, nil))
			r.tr.verdict(verdictlog.Verdict{Event: hooks.Stop, Decision: "allow", Source: verdictlog.SourceChecks})
		}, session.StateWaiting},
		{"Stop blocked works again", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.Stop, nil))
			r.tr.verdict(verdictlog.Verdict{Event: hooks.Stop, Decision: "block", Source: "check:t"})
		}, session.StateWorking},
		{"SubagentStop verdicts do not move the main state", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.verdict(verdictlog.Verdict{Event: hooks.SubagentStop, Decision: "allow"})
		}, session.StateWorking},
		{"Escape interrupts", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.verdict(verdictlog.Verdict{Event: hooks.Stop, Decision: "allow", Source: verdictlog.SourceEscape})
		}, session.StateInterrupted},
		{"StopFailure fails", func(r *stateRun) { r.tr.hook(prompt("p1")); r.tr.hook(hk(hooks.StopFailure, nil)) }, session.StateFailed},
		{"SessionEnd exits, and exited is final", func(r *stateRun) {
			r.tr.hook(hk(hooks.SessionEnd, func(in *hooks.Input) { in.Reason = "other" }))
			r.tr.hook(prompt("p2"))
		}, session.StateExited},
		{"permission_prompt notification", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.Notification, func(in *hooks.Input) { in.PromptID, in.NotificationType = "p1", "permission_prompt" }))
		}, session.StatePermission},
		{"idle_prompt after the turn ended waits", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.verdict(verdictlog.Verdict{Event: hooks.Stop, Decision: "allow"})
			r.tr.set(session.StateInterrupted, "x", fromKeyboard)
			r.tr.hook(hk(hooks.Notification, func(in *hooks.Input) { in.PromptID, in.NotificationType = "p1", "idle_prompt" }))
		}, session.StateWaiting},
		// Precedence and staleness.
		{"a Notification about an older prompt is dropped", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(prompt("p2"))
			r.tr.hook(hk(hooks.Notification, func(in *hooks.Input) { in.PromptID, in.NotificationType = "p1", "permission_prompt" }))
		}, session.StateWorking},
		{"a late idle_prompt does not hide new work", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.Notification, func(in *hooks.Input) { in.PromptID, in.NotificationType = "p1", "idle_prompt" }))
		}, session.StateWorking},
		{"the transcript shows a permission was granted", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.PermissionRequest, func(in *hooks.Input) { in.PromptID = "p1" }))
			r.tr.record(transcript.Record{Kind: transcript.KindToolResult, Time: r.clock.now()})
		}, session.StateWorking},
		{"a transcript line older than the state says nothing", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			old := r.clock.now()
			r.tr.hook(hk(hooks.PermissionRequest, func(in *hooks.Input) { in.PromptID = "p1" }))
			r.tr.record(transcript.Record{Kind: transcript.KindToolResult, Time: old})
		}, session.StatePermission},
		{"the transcript lagging behind Stop: the final answer's line changes nothing", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.Stop, nil))
			r.tr.verdict(verdictlog.Verdict{Event: hooks.Stop, Decision: "allow"})
			r.tr.record(transcript.Record{Kind: transcript.KindAssistant, Time: r.clock.now(), Text: "final"})
			r.tr.record(transcript.Record{Kind: transcript.KindTurnDuration, Time: r.clock.now()})
		}, session.StateWaiting},
		// What claude tells its terminal (OSC 7501) comes as its screen changes: a dialog shows
		// at once, in every permission mode, with or without a hook.
		{"the terminal shows claude's dialog at once", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalBlocked, Kind: session.BlockedPermission, Msg: "approve Bash: rm -rf build"})
		}, session.StatePermission},
		{"a dialog that names no kind (auto mode's own) needs the person too", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalBlocked, Msg: "dialog open"})
		}, session.StatePermission},
		{"a question on the terminal", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalBlocked, Kind: session.BlockedQuestion})
		}, session.StateQuestion},
		{"a sign-in the turn ended on", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalBlocked, Kind: session.BlockedAuth})
		}, session.StateFailed},
		{"the dialog answered: working again", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalBlocked, Kind: session.BlockedPermission})
			r.tr.terminal(session.TerminalStatus{State: session.TerminalWorking})
		}, session.StateWorking},
		{"the dialog denied: the turn ends", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalBlocked, Kind: session.BlockedPermission})
			r.tr.terminal(session.TerminalStatus{State: session.TerminalIdle})
		}, session.StateWaiting},
		{"done waits for input", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalDone})
		}, session.StateWaiting},
		{"error fails", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalError})
		}, session.StateFailed},
		{"an unknown state changes nothing", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.terminal(session.TerminalStatus{State: "paused"})
		}, session.StateWorking},
		{"claude busy with hooksup's Stop hook: the stop decision still shows", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.Stop, nil))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalWorking})
		}, session.StateStopping},
		{"idle after Escape stays interrupted", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.set(session.StateInterrupted, "Escape", fromKeyboard)
			r.tr.terminal(session.TerminalStatus{State: session.TerminalIdle})
		}, session.StateInterrupted},
		{"idle after a failed turn stays failed", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.StopFailure, nil))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalIdle})
		}, session.StateFailed},
		// Once claude reports to its terminal, the hooks that only announce a dialog (late, or
		// before claude decided to show one) no longer move the state: the terminal says when
		// a dialog opens and when it closes.
		{"a late permission_prompt after the dialog was answered", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalBlocked, Kind: session.BlockedPermission})
			r.tr.terminal(session.TerminalStatus{State: session.TerminalWorking})
			r.tr.hook(hk(hooks.Notification, func(in *hooks.Input) { in.PromptID, in.NotificationType = "p1", "permission_prompt" }))
		}, session.StateWorking},
		{"a PermissionRequest a hook of the user's answers shows no dialog", func(r *stateRun) {
			r.tr.terminal(session.TerminalStatus{State: session.TerminalIdle})
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.PermissionRequest, func(in *hooks.Input) { in.PromptID, in.ToolName = "p1", "Bash" }))
		}, session.StateWorking},
		{"PreToolUse of AskUserQuestion before the question shows", func(r *stateRun) {
			r.tr.terminal(session.TerminalStatus{State: session.TerminalIdle})
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.PreToolUse, func(in *hooks.Input) { in.PromptID, in.ToolName = "p1", "AskUserQuestion" }))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalWorking, Msg: "Which colour?"})
		}, session.StateWorking},
		{"a PermissionRequest for the question, then the question", func(r *stateRun) {
			r.tr.terminal(session.TerminalStatus{State: session.TerminalIdle})
			r.tr.hook(prompt("p1"))
			r.tr.hook(hk(hooks.PermissionRequest, func(in *hooks.Input) { in.PromptID, in.ToolName = "p1", "AskUserQuestion" }))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalBlocked, Kind: session.BlockedQuestion})
		}, session.StateQuestion},
		{"a subagent starting does not hide the main agent's dialog", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.terminal(session.TerminalStatus{State: session.TerminalBlocked, Kind: session.BlockedPermission})
			r.tr.hook(hk(hooks.SubagentStart, func(in *hooks.Input) { in.PromptID, in.AgentType = "p1", "Explore" }))
		}, session.StatePermission},
		{"the transcript's interrupt line when no hook fires", func(r *stateRun) {
			r.tr.hook(prompt("p1"))
			r.tr.record(transcript.Record{Kind: transcript.KindInterrupt, Time: r.clock.now()})
		}, session.StateInterrupted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newStateRun()
			tc.steps(r)
			if got := r.tr.get(); got != tc.want {
				t.Fatalf("state %q, want %q (changes %v)", got, tc.want, r.changes)
			}
		})
	}
}

func TestStateSourcesAreReported(t *testing.T) {
	r := newStateRun()
	r.tr.hook(prompt("p1"))
	r.tr.hook(hk(hooks.PermissionRequest, func(in *hooks.Input) { in.PromptID = "p1" }))
	r.tr.record(transcript.Record{Kind: transcript.KindToolResult, Time: r.clock.now()})
	r.tr.set(session.StateExited, "process exited (0)", fromProcess)
	if got := strings.Join(r.changes, " "); got != "working<hook needs permission<hook working<transcript exited<process" {
		t.Fatalf("%s", got)
	}
}

// A state the terminal showed says so, with what claude said about it.
func TestTerminalStateSourceAndReason(t *testing.T) {
	var got []session.StateChanged
	tr := newStateTracker(func(e session.Event) { got = append(got, e.(session.StateChanged)) }, nil)
	tr.terminal(session.TerminalStatus{State: session.TerminalBlocked, Kind: session.BlockedPermission, Msg: "approve Bash: rm -rf build"})
	tr.terminal(session.TerminalStatus{State: session.TerminalBlocked, Kind: session.BlockedQuestion, Msg: "answer: Which colour?\u2028(Red · Blue)"})
	tr.terminal(session.TerminalStatus{State: session.TerminalBlocked})
	if len(got) != 3 {
		t.Fatalf("%+v", got)
	}
	for _, c := range got {
		if c.Source != fromTerminal {
			t.Fatalf("source %q", c.Source)
		}
	}
	if got[0].Reason != "approve Bash: rm -rf build" || got[1].Reason != "answer: Which colour? (Red · Blue)" || got[2].Reason != "a dialog" {
		t.Fatalf("reasons %q %q %q", got[0].Reason, got[1].Reason, got[2].Reason)
	}
	if a, ok := alertFor(config.NotificationsConfig{OnPermission: session.ActionBell}, got[1]); !ok || a.Cause != session.CausePermission {
		t.Fatalf("no alert for a question: %+v %v", a, ok)
	}
}

func TestLedger(t *testing.T) {
	var last []session.Subagent
	l := newLedger(func(ev session.Event) { last = ev.(session.SubagentsChanged).Agents })
	sub := func(ev, id string) *hooks.Input {
		return hk(ev, func(in *hooks.Input) { in.AgentID, in.AgentType = id, "Explore" })
	}
	l.hook(sub(hooks.SubagentStart, "a1"))
	l.hook(sub(hooks.SubagentStop, "a1"))
	l.verdict(verdictlog.Verdict{Event: hooks.SubagentStop, AgentID: "a1", Decision: "block", Steers: 1})
	if last[0].State != session.SubSteered || last[0].Steers != 1 {
		t.Fatalf("%+v", last)
	}
	l.verdict(verdictlog.Verdict{Event: hooks.SubagentStop, AgentID: "a1", Decision: "allow", Steers: 1})
	l.hook(sub(hooks.SubagentStop, "ghost"))
	l.verdict(verdictlog.Verdict{Event: hooks.SubagentStop, AgentID: "ghost", Decision: "allow"})
	if len(last) != 2 || last[0].State != session.SubDone || last[1].State != session.SubOrphan {
		t.Fatalf("%+v", last)
	}
	l.usage(session.Transcript{Agents: []session.AgentTranscript{{AgentInfo: session.AgentInfo{ID: "a1"},
		Stats: session.TranscriptStats{Usage: session.Usage{OutputTokens: 42}, ToolCallCount: 3}}}})
	if last[0].Usage.OutputTokens != 42 || last[0].ToolCalls != 3 {
		t.Fatalf("%+v", last[0])
	}
}

func TestAlerts(t *testing.T) {
	cfg := config.NotificationsConfig{OnIdle: session.ActionNudge, OnPermission: session.ActionNotify, NudgeText: "go on"}
	if a, ok := alertFor(cfg, session.StateChanged{State: session.StatePermission, Reason: "PermissionRequest Bash"}); !ok || a.Action != session.ActionNotify ||
		a.Cause != session.CausePermission || a.Detail != "PermissionRequest Bash" {
		t.Fatalf("%+v %v", a, ok)
	}
	if a, ok := alertFor(cfg, session.StateChanged{State: session.StateWaiting, Reason: "Notification idle_prompt", Notification: "idle_prompt"}); !ok ||
		a.Action != session.ActionNudge || a.Cause != session.CauseIdle || a.Text != "go on" {
		t.Fatalf("%+v %v", a, ok)
	}
	// Waiting because a stop was allowed is not "idle": claude's own idle_prompt says when.
	if _, ok := alertFor(cfg, session.StateChanged{State: session.StateWaiting, Reason: "Stop allowed"}); ok {
		t.Fatal("alert on every stop")
	}
	// Never type into a permission dialog.
	if a, _ := alertFor(config.NotificationsConfig{OnPermission: session.ActionNudge}, session.StateChanged{State: session.StatePermission}); a.Action != session.ActionBell {
		t.Fatalf("%+v", a)
	}
	if _, ok := alertFor(config.NotificationsConfig{OnIdle: session.ActionNone, OnPermission: session.ActionNone}, session.StateChanged{State: session.StatePermission}); ok {
		t.Fatal("none alerted")
	}
}

// The tracker says which Notification made claude idle, so the idle alert needs no display
// text.
func TestIdleNotificationIsTyped(t *testing.T) {
	var got []session.StateChanged
	tr := newStateTracker(func(e session.Event) {
		if c, ok := e.(session.StateChanged); ok {
			got = append(got, c)
		}
	}, nil)
	tr.hook(&hooks.Input{HookEventName: hooks.Notification, NotificationType: "idle_prompt"})
	if len(got) != 1 || got[0].State != session.StateWaiting || got[0].Notification != "idle_prompt" {
		t.Fatalf("%+v", got)
	}
	if _, ok := alertFor(config.NotificationsConfig{OnIdle: session.ActionBell}, got[0]); !ok {
		t.Fatal("no idle alert")
	}
}
