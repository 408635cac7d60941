package supervisor

import (
	"encoding/json"
	"sync"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/clip"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
)

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
	permission  *session.Permission
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
		a.permission = &session.Permission{Tool: r.Tools[n-1].Name}
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
			a.permission = &session.Permission{Tool: in.ToolName, Command: clip.Head(toolSubject(in.ToolInput), activityCommandMax)}
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
func (a *activity) get(state session.AgentState) session.Activity {
	a.mu.Lock()
	defer a.mu.Unlock()
	act := session.Activity{LastMessage: a.lastMessage}
	if state == session.StatePermission && a.permission != nil {
		p := *a.permission
		act.Permission = &p
	}
	return act
}

// Activity is what the agent said last and, while it needs permission, what it asks to run.
func (s *Supervisor) Activity() session.Activity {
	act := s.activity.get(s.state.get())
	act.LastKey = s.lastKeyAt()
	return act
}
