package session

import "time"

// Activity is what the agent said and asked last, for a front end away from its terminal
// (hooksup watch, hooksup web): the text of its last message, and while it needs permission,
// the tool it asks to run and with what. Both are the agent's own text, untrusted.
type Activity struct {
	LastMessage string      `json:"last_message,omitempty"`
	Permission  *Permission `json:"permission,omitempty"`
	// LastKey is when the person last pressed a key at the session's terminal (zero: never, or
	// no terminal): a front end away from it tells no one of a wait while they are at it.
	LastKey time.Time `json:"last_key,omitzero"`
}

// Permission is what an agent that needs permission asks to run: the tool, and its command (or
// the file, path, URL or pattern it acts on) when the hook's input or the transcript says.
type Permission struct {
	Tool    string `json:"tool"`
	Command string `json:"command,omitempty"`
	// Always, in a permission question whose agent can be answered "always", is the rule that
	// answer writes, in the person's words: "allow Bash(touch created.txt) in
	// .claude/settings.local.json".
	Always string `json:"always,omitempty"`
	// DenyReason, in a permission question, says that a deny's reason reaches the model: the
	// agent's hook passes it on as the call's result, or its dialog has a field for it that
	// hooksup types it into. Where it is false, deny cancels the call and the agent is told
	// nothing more.
	DenyReason bool `json:"deny_reason,omitempty"`
}
