package session

// AlertAction is what [notifications] does when the agent needs the person.
type AlertAction string

// Alert actions.
const (
	ActionNone   AlertAction = "none"
	ActionBell   AlertAction = "bell"   // ring the terminal's bell
	ActionNotify AlertAction = "notify" // a desktop notification through the outer terminal
	ActionNudge  AlertAction = "nudge"  // type nudge_text into claude while it is idle
)
