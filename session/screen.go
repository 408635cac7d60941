package session

// Screen is the agent's terminal as a front end emulates it (the TUI's pane): what it shows, and
// keys sent to the agent as the person's would be. The supervisor reads it for the permission
// dialogs that no hook can answer (agent.KeyPermissions) and answers them with keys.
type Screen interface {
	// Text is what the screen shows: its rows as plain text, top to bottom, joined by "\n".
	Text() string
	// Changed is signalled, without blocking (it holds one signal), after what the screen shows
	// changed.
	Changed() <-chan struct{}
	// Press sends keys to the agent, after what the person typed before, encoded as the agent's
	// terminal modes want them: "Enter", "Escape", "Up", "Down", "Tab", or one character. It
	// never blocks; false when the agent is gone.
	Press(keys ...string) bool
}
