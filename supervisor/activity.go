package supervisor

import (
	"encoding/json"
	"sync"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/clip"
	"github.com/hooksup/hooksup/transcript"
)

// Activity is what the agent said and asked last, for a front end away from its terminal
// (hooksup watch, hooksup web): the text of its last message, and while it needs permission,
// the tool it asks to run and with what. Both are the agent's own text, untrusted.
type Activity struct {
	LastMessage string      `json:"last_message,omitempty"`
	Permission  *Permission `json:"permission,omitempty"`
}

// Permission is what an agent that needs permission asks to run: the tool, and its command (or
// the file, path, URL or pattern it acts on) when the hook's input or the transcript says.
type Permission struct {
	Tool    string `json:"tool"`
	Command string `json:"command,omitempty"`
}

// Bounds of what Activity carries: the start of a long message, the start of a command.
const (
	activityMessageMax = 4000
	activityCommandMax = 1000
)

// activity follows the last message (the main transcript's last assistant text, or a stop's
// last_assistant_message) and the last tool asked for (PermissionRequest's tool and input, else
// the transcript's last tool_use).
type activity struct {
	mu          sync.Mutex
	lastMessage string
	permission  *Permission
}

func (a *activity) record(r transcript.Record) {
	if r.Kind != transcript.KindAssistant {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if r.Text != "" {
		a.lastMessage = clip.Head(r.Text, activityMessageMax)
	}
	// The hook's input, which names the command too, may come before the transcript's line.
	if n := len(r.Tools); n > 0 && (a.permission == nil || a.permission.Tool != r.Tools[n-1].Name) {
		a.permission = &Permission{Tool: r.Tools[n-1].Name}
	}
}

func (a *activity) hook(in *hooks.Input) {
	if in.AgentID != "" { // a subagent's: the card tells the main agent's
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	switch in.HookEventName {
	case hooks.PermissionRequest, hooks.PreToolUse:
		if in.ToolName != "" {
			a.permission = &Permission{Tool: in.ToolName, Command: clip.Head(toolSubject(in.ToolInput), activityCommandMax)}
		}
	case hooks.Stop:
		if in.LastAssistantMessage != "" {
			a.lastMessage = clip.Head(in.LastAssistantMessage, activityMessageMax)
		}
	}
}

// toolSubject is what a tool's input says it runs or acts on: a shell's command, else the file,
// path, URL, pattern or query; "" when none is a string.
func toolSubject(input json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(input, &m) != nil {
		return ""
	}
	for _, k := range []string{"command", "cmd", "file_path", "path", "url", "pattern", "query"} {
		var s string
		if json.Unmarshal(m[k], &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// get is the activity now; the permission only while state says the agent needs it.
func (a *activity) get(state AgentState) Activity {
	a.mu.Lock()
	defer a.mu.Unlock()
	act := Activity{LastMessage: a.lastMessage}
	if state == StatePermission && a.permission != nil {
		p := *a.permission
		act.Permission = &p
	}
	return act
}

// Activity is what the agent said last and, while it needs permission, what it asks to run.
func (s *Supervisor) Activity() Activity { return s.activity.get(s.state.get()) }
