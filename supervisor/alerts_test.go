package supervisor

import (
	"log/slog"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
)

// Claude's idle_prompt comes a while after a stop was allowed, when the state already says
// waiting: on_idle still alerts, once per idle_prompt; a second permission notification for the
// same dialog does not ring again.
func TestIdlePromptAlertsWhileAlreadyWaiting(t *testing.T) {
	cfg := Defaults()
	cfg.Notifications = NotificationsConfig{OnIdle: ActionNotify, OnPermission: ActionBell}
	s := &Supervisor{o: Options{Config: cfg}, bus: newBus(), logger: slog.New(slog.DiscardHandler)}
	s.state = newStateTracker(s.stateChanged, nil)
	s.state.hook(prompt("p1"))
	s.state.hook(hk(hooks.Stop, func(in *hooks.Input) { in.PromptID = "p1" }))
	s.state.verdict(Verdict{Event: hooks.Stop, Decision: hooks.Allow, Source: SourceChecks})
	s.state.hook(hk(hooks.Notification, func(in *hooks.Input) { in.PromptID, in.NotificationType = "p1", "idle_prompt" }))
	s.state.hook(prompt("p2"))
	s.state.hook(hk(hooks.PermissionRequest, func(in *hooks.Input) { in.PromptID, in.ToolName = "p2", "Bash" }))
	s.state.hook(hk(hooks.Notification, func(in *hooks.Input) { in.PromptID, in.NotificationType = "p2", "permission_prompt" }))
	s.bus.close()
	var alerts []Alert
	timeout := time.After(5 * time.Second)
	for done := false; !done; {
		select {
		case ev, ok := <-s.bus.out:
			if !ok {
				done = true
				break
			}
			if a, isAlert := ev.(Alert); isAlert {
				alerts = append(alerts, a)
			}
		case <-timeout:
			t.Fatal("the events never ended")
		}
	}
	if len(alerts) != 2 || alerts[0].Cause != CauseIdle || alerts[0].Action != ActionNotify ||
		alerts[1].Cause != CausePermission || alerts[1].Action != ActionBell {
		t.Fatalf("alerts %+v, want on_idle's notify then one permission bell", alerts)
	}
}
