package supervisor

import (
	"log/slog"
	"testing"
	"time"

	"github.com/hooksup/hooksup/engine"
	"github.com/hooksup/hooksup/session"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/verdictlog"
)

// Claude's idle_prompt comes a while after a stop was allowed, when the state already says
// waiting: on_idle still alerts, once per idle_prompt; a second permission notification for the
// same dialog does not ring again.
func TestIdlePromptAlertsWhileAlreadyWaiting(t *testing.T) {
	cfg := config.Defaults()
	cfg.Notifications = config.NotificationsConfig{OnIdle: session.ActionNotify, OnPermission: session.ActionBell}
	s := &Supervisor{o: Options{Config: cfg}, bus: newBus(), out: engine.NewOutbox(), logger: slog.New(slog.DiscardHandler)}
	s.state = newStateTracker(s.stateChanged, nil)
	s.state.hook(prompt("p1"))
	s.state.hook(hk(hooks.Stop, func(in *hooks.Input) { in.PromptID = "p1" }))
	s.state.verdict(verdictlog.Verdict{Event: hooks.Stop, Decision: hooks.Allow, Source: verdictlog.SourceChecks})
	s.state.hook(hk(hooks.Notification, func(in *hooks.Input) { in.PromptID, in.NotificationType = "p1", "idle_prompt" }))
	s.state.hook(prompt("p2"))
	s.state.hook(hk(hooks.PermissionRequest, func(in *hooks.Input) { in.PromptID, in.ToolName = "p2", "Bash" }))
	s.state.hook(hk(hooks.Notification, func(in *hooks.Input) { in.PromptID, in.NotificationType = "p2", "permission_prompt" }))
	s.bus.close()
	var alerts []session.Alert
	timeout := time.After(30 * time.Second)
	for done := false; !done; {
		select {
		case ev, ok := <-s.bus.events():
			if !ok {
				done = true
				break
			}
			if a, isAlert := ev.(session.Alert); isAlert {
				alerts = append(alerts, a)
			}
		case <-timeout:
			t.Fatal("the events never ended")
		}
	}
	if len(alerts) != 2 || alerts[0].Cause != session.CauseIdle || alerts[0].Action != session.ActionNotify ||
		alerts[1].Cause != session.CausePermission || alerts[1].Action != session.ActionBell {
		t.Fatalf("alerts %+v, want on_idle's notify then one permission bell", alerts)
	}
}

// on_idle rings once per wait: claude saying again that it is idle (a second idle_prompt, the
// same wait) does not ring again; the next wait, after a new prompt and an allowed stop, does.
// The wait keeps its start.
func TestIdlePromptAlertsOncePerWait(t *testing.T) {
	cfg := config.Defaults()
	cfg.Notifications = config.NotificationsConfig{OnIdle: session.ActionBell, OnPermission: session.ActionNone}
	var alerts []session.Alert
	clock := &stepClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	tr := newStateTracker(func(ev session.Event) {
		if a, ok := alertFor(cfg.Notifications, ev.(session.StateChanged)); ok {
			alerts = append(alerts, a)
		}
	}, clock.now)
	idle := func(id string) *hooks.Input {
		return hk(hooks.Notification, func(in *hooks.Input) { in.PromptID, in.NotificationType = id, "idle_prompt" })
	}
	turn := func(id string) {
		tr.hook(prompt(id))
		tr.hook(hk(hooks.Stop, func(in *hooks.Input) { in.PromptID = id }))
		tr.verdict(verdictlog.Verdict{Event: hooks.Stop, Decision: hooks.Allow, Source: verdictlog.SourceChecks})
	}
	turn("p1")
	tr.mu.Lock()
	waitStart := tr.since
	tr.mu.Unlock()
	tr.hook(idle("p1"))
	tr.hook(idle("p1"))
	tr.terminal(session.TerminalStatus{State: session.TerminalIdle})
	tr.hook(idle("p1"))
	if len(alerts) != 1 || alerts[0].Cause != session.CauseIdle {
		t.Fatalf("alerts in one wait: %+v, want one on_idle bell", alerts)
	}
	tr.mu.Lock()
	since := tr.since
	tr.mu.Unlock()
	if !since.Equal(waitStart) {
		t.Errorf("the wait started at %v, then at %v after idle_prompt", waitStart, since)
	}
	turn("p2")
	tr.hook(idle("p2"))
	if len(alerts) != 2 || alerts[1].Cause != session.CauseIdle {
		t.Fatalf("alerts after a second wait: %+v, want a second on_idle bell", alerts)
	}
}
