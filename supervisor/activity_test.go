package supervisor

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
)

// The activity is the main agent's last message, from its transcript or a stop's input, and
// while it needs permission, the tool it asks for with its command; a subagent's say nothing.
func TestActivityFollowsTheMainAgent(t *testing.T) {
	var a activity
	a.record(transcript.Record{Kind: transcript.KindAssistant, Text: "I will run the tests."})
	a.record(transcript.Record{Kind: transcript.KindPrompt, Text: "a prompt is not the agent's"})
	if got := a.get(session.StateWorking); got.LastMessage != "I will run the tests." || got.Permission != nil {
		t.Fatalf("after the transcript's reply: %+v", got)
	}
	a.hook(&hooks.Input{HookEventName: hooks.PermissionRequest, ToolName: "Bash",
		ToolInput: json.RawMessage(`{"command":"rm -rf build","description":"Clean"}`)})
	// The transcript's line of the same tool_use, read after the hook, keeps the command.
	a.record(transcript.Record{Kind: transcript.KindAssistant, Tools: []transcript.ToolUse{{ID: "t1", Name: "Bash"}}})
	a.hook(&hooks.Input{HookEventName: hooks.PreToolUse, AgentID: "sub1", ToolName: "Write",
		ToolInput: json.RawMessage(`{"file_path":"/x"}`)})
	got := a.get(session.StatePermission)
	if got.Permission == nil || *got.Permission != (session.Permission{Tool: "Bash", Command: "rm -rf build"}) || got.LastMessage != "I will run the tests." {
		t.Fatalf("needing permission: %+v %+v", got, got.Permission)
	}
	if a.get(session.StateWorking).Permission != nil {
		t.Fatal("a permission is told while the agent does not need one")
	}
	a.hook(&hooks.Input{HookEventName: hooks.Stop, LastAssistantMessage: strings.Repeat("x", 10000)})
	if got := a.get(session.StateStopping); len(got.LastMessage) > activityMessageMax+4 || !strings.HasPrefix(got.LastMessage, "xxx") {
		t.Fatalf("a long last message: %d bytes", len(got.LastMessage))
	}
	// A tool the transcript names without a hook: its name alone.
	a.record(transcript.Record{Kind: transcript.KindAssistant, Tools: []transcript.ToolUse{{ID: "t2", Name: "WebFetch"}}})
	if got := a.get(session.StatePermission); got.Permission == nil || *got.Permission != (session.Permission{Tool: "WebFetch"}) {
		t.Fatalf("from the transcript: %+v", got.Permission)
	}
}
