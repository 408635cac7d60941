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
	// terminal modes want them: "Enter", "Escape", "Up", "Down", "Tab", one character, or text
	// typed a character at a time (Typed). It never blocks; false when the agent is gone.
	Press(keys ...string) bool
}

// typedMark begins a key that is text to type (no key's name begins with it).
const typedMark = "\x00typed:"

// Typed is text as a key of Screen.Press: its characters typed one after another, as the
// person would type them.
func Typed(text string) string { return typedMark + text }

// TypedText is the text of a key that Typed made, and whether it is one.
func TypedText(key string) (string, bool) {
	if len(key) < len(typedMark) || key[:len(typedMark)] != typedMark {
		return "", false
	}
	return key[len(typedMark):], true
}
