package session

import ()

// AlertAction is what [notifications] does when the agent needs the person.
type AlertAction string

// Alert actions.
const (
	ActionNone   AlertAction = "none"
	ActionBell   AlertAction = "bell"   // ring the terminal's bell
	ActionNotify AlertAction = "notify" // a desktop notification through the outer terminal
	ActionNudge  AlertAction = "nudge"  // type nudge_text into claude while it is idle
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
	At
	Action AlertAction `json:"action"`
	Cause  AlertCause  `json:"cause"`
	Detail string      `json:"detail"` // what showed it, e.g. "PermissionRequest Bash"
	Agent  string      `json:"agent"`  // the agent's name ("claude", "codex"); "" is claude
	Text   string      `json:"text"`   // for nudge: what to type
	// State is the state the alert is about; a front end nudges only while the agent is still
	// in it.
	State AgentState `json:"state"`
}
