package supervisor

import (
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/session"
)

// alertFor returns the alert [notifications] configures for a state change, if any.
func alertFor(cfg config.NotificationsConfig, c session.StateChanged) (session.Alert, bool) {
	var action session.AlertAction
	var cause session.AlertCause
	switch {
	case c.State == session.StatePermission || c.State == session.StateQuestion:
		action, cause = cfg.OnPermission, session.CausePermission
	case c.State == session.StateWaiting && c.Notification == notificationIdle:
		action, cause = cfg.OnIdle, session.CauseIdle
	default:
		return session.Alert{}, false
	}
	if action == "" || action == session.ActionNone {
		return session.Alert{}, false
	}
	a := session.Alert{At: c.At, Action: action, Cause: cause, Detail: c.Reason, State: c.State}
	if action == session.ActionNudge {
		if c.State != session.StateWaiting {
			a.Action = session.ActionBell // never type into a permission dialog
		} else {
			a.Text = cfg.NudgeText
		}
	}
	return a, true
}
