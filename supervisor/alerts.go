package supervisor

import (
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/session"
)

// AlertCause is what an alert is about.
type AlertCause string

// Alert causes.
const (
	CausePermission AlertCause = "permission" // claude waits for a permission or an answer
	CauseIdle       AlertCause = "idle"       // claude has waited for input a while (its idle_prompt)
)

// Alert: something the person should notice, by the action [notifications] configures for it:
// ring the bell, send a desktop notification (OSC 9/777 to the outer terminal), or nudge (type
// Text into claude, only when it is truly idle). The front end carries it out and words it.
type Alert struct {
	session.At
	Action session.AlertAction `json:"action"`
	Cause  AlertCause          `json:"cause"`
	Detail string              `json:"detail"` // what showed it, e.g. "PermissionRequest Bash"
	Agent  string              `json:"agent"`  // the agent's name ("claude", "codex"); "" is claude
	Text   string              `json:"text"`   // for nudge: what to type
	// State is the state the alert is about; a front end nudges only while the agent is still
	// in it.
	State AgentState `json:"state"`
}

// alertFor returns the alert [notifications] configures for a state change, if any.
func alertFor(cfg config.NotificationsConfig, c StateChanged) (Alert, bool) {
	var action session.AlertAction
	var cause AlertCause
	switch {
	case c.State == StatePermission || c.State == StateQuestion:
		action, cause = cfg.OnPermission, CausePermission
	case c.State == StateWaiting && c.Notification == notificationIdle:
		action, cause = cfg.OnIdle, CauseIdle
	default:
		return Alert{}, false
	}
	if action == "" || action == session.ActionNone {
		return Alert{}, false
	}
	a := Alert{At: c.At, Action: action, Cause: cause, Detail: c.Reason, State: c.State}
	if action == session.ActionNudge {
		if c.State != StateWaiting {
			a.Action = session.ActionBell // never type into a permission dialog
		} else {
			a.Text = cfg.NudgeText
		}
	}
	return a, true
}
