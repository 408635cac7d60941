package supervisor

// Alert: something the person should notice, by the action [notifications] configures for it:
// ring the bell, send a desktop notification (OSC 9/777 to the outer terminal), or nudge (type
// Text into claude, only when it is truly idle). The front end carries it out.
type Alert struct {
	At
	Action string // bell, notify, nudge
	Title  string
	Body   string
	Text   string // for nudge: what to type
	// Idle is the state the alert is about; a front end nudges only while the agent is still in
	// it.
	State AgentState
}

// alertFor returns the alert [notifications] configures for a state change, if any.
func alertFor(cfg NotificationsConfig, c StateChanged) (Alert, bool) {
	var action, body string
	switch {
	case c.State == StatePermission:
		action, body = cfg.OnPermission, "claude needs your permission ("+c.Reason+")"
	case c.State == StateWaiting && c.Reason == "Notification idle_prompt":
		action, body = cfg.OnIdle, "claude is waiting for your input"
	default:
		return Alert{}, false
	}
	if action == "" || action == "none" {
		return Alert{}, false
	}
	a := Alert{At: c.At, Action: action, Title: "hooksup", Body: body, State: c.State}
	if action == "nudge" {
		if c.State != StateWaiting {
			a.Action = "bell" // never type into a permission dialog
		} else {
			a.Text = cfg.NudgeText
		}
	}
	return a, true
}
