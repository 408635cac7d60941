package wire

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hooksup/hooksup/hooks"
)

func input(t *testing.T, name string) *hooks.Input {
	t.Helper()
	b, err := os.ReadFile("../testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	in, err := hooks.ParseInput(b)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// The inputs Copilot CLI 1.0.102 sent (testdata) read as hooksup's: the session, the
// transcript, the stop's last message from the transcript, a subagent's stop with its response.
func TestCopilotInput(t *testing.T) {
	in := input(t, "hook-input-agentStop.json")
	in.Extra["transcriptPath"] = []byte(`"../testdata/transcript-events.jsonl"`)
	Dialect{}.Input(in)
	if in.HookEventName != "" || in.SessionID != "a27b3a71-c9b1-425d-afcf-79de6885a1ac" || in.Active() ||
		in.TranscriptPath != "../testdata/transcript-events.jsonl" || in.LastAssistantMessage != "first answer" {
		t.Fatalf("agentStop as event %q session %q active %v transcript %q last %q", in.HookEventName, in.SessionID, in.Active(), in.TranscriptPath, in.LastAssistantMessage)
	}
	in = input(t, "hook-input-agentStop-2nd.json")
	in.Extra["transcriptPath"] = []byte(`"../testdata/transcript-events.jsonl"`)
	Dialect{}.Input(in)
	if !in.Active() || in.LastAssistantMessage != "fixed after gate" {
		t.Fatalf("the stop after a block: active %v, last message %q", in.Active(), in.LastAssistantMessage)
	}
	in = input(t, "hook-input-subagentStop.json")
	Dialect{}.Input(in)
	if in.HookEventName != "" || in.AgentID != "80390b93-062f-4e66-a64c-2ecfb1b9a37d" || in.AgentType != "task" || in.LastAssistantMessage != "sub done" ||
		in.SessionID != "4b62501a-7b68-4125-8cd2-fa8e5eef87ef" {
		t.Fatalf("subagentStop as %q agent %q %q last %q session %q", in.HookEventName, in.AgentID, in.AgentType, in.LastAssistantMessage, in.SessionID)
	}
	// agentStop also runs when a subagent ends: not a stop of the main agent's, and in its session.
	in = input(t, "hook-input-agentStop-from-subagent.json")
	Dialect{}.Input(in)
	if in.HookEventName != SubagentAgentStop || in.SessionID != "4b62501a-7b68-4125-8cd2-fa8e5eef87ef" {
		t.Fatalf("a subagent's agentStop as %q in session %q", in.HookEventName, in.SessionID)
	}
	in = input(t, "hook-input-Stop-claude-form.json")
	Dialect{}.Input(in)
	if in.HookEventName != hooks.Stop || in.SessionID != "61d1efcd-7a21-423e-acd4-154c97ae19e5" {
		t.Fatalf("Claude's form as %q %q", in.HookEventName, in.SessionID)
	}
	in = input(t, "hook-input-notification.json")
	Dialect{}.Input(in)
	if in.HookEventName != hooks.Notification || in.NotificationType != "permission_prompt" || in.Message != "Run command: touch created-by-tool.txt" {
		t.Fatalf("notification as %q %q %q", in.HookEventName, in.NotificationType, in.Message)
	}
	in = input(t, "hook-input-postToolUse.json")
	Dialect{}.Input(in)
	if in.ToolName != "bash" || len(in.ToolInput) == 0 || len(in.ToolResponse) == 0 {
		t.Fatalf("postToolUse: tool %q input %s result %s", in.ToolName, in.ToolInput, in.ToolResponse)
	}
	in = input(t, "hook-input-userPromptSubmitted.json")
	Dialect{}.Input(in)
	if in.Prompt != "please create a file" {
		t.Fatalf("prompt %q", in.Prompt)
	}
}

// What Copilot reads: a block on stdout with exit 0 (exit 2 with stderr would not block it); a
// halt, which Copilot has no answer for, is an allow.
func TestCopilotAnswer(t *testing.T) {
	out, code := Dialect{}.Answer(hooks.Answer{Decision: hooks.Block, Reason: "fix it"})
	if string(out) != "{\"decision\":\"block\",\"reason\":\"fix it\"}\n" || code != 0 {
		t.Fatalf("block: %q %d", out, code)
	}
	out, code = Dialect{}.Answer(hooks.Answer{Decision: hooks.Halt, StopReason: "halted by you"})
	if string(out) != "{\"systemMessage\":\"halted by you\"}\n" || code != 0 {
		t.Fatalf("halt: %q %d", out, code)
	}
	if out, code = (Dialect{}).Answer(hooks.Answer{Decision: hooks.Allow}); out != nil || code != 0 {
		t.Fatalf("allow: %q %d", out, code)
	}
}

// Copilot writes its events log behind its hooks. The stop's own hook.start line in the log:
// the reply before it is the stop's, not a later one.
func TestCopilotInputFindsItsStop(t *testing.T) {
	b, err := os.ReadFile("../testdata/transcript-events.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "events.jsonl")
	os.WriteFile(path, b, 0o600) // the whole session, replies after the second stop's included
	in := input(t, "hook-input-agentStop-2nd.json")
	in.Extra["transcriptPath"], _ = json.Marshal(path)
	Dialect{}.Input(in)
	if in.LastAssistantMessage != "fixed after gate" || in.StopMark != "" {
		t.Fatalf("last message %q, mark %q: want the reply before the stop's hook.start, nothing left to wait for", in.LastAssistantMessage, in.StopMark)
	}
}

// The stop's hook.start line not in the log yet: the hook reads the log once and goes on with
// the latest reply it has, marking the stop for the supervisor, which follows the log, to find
// its reply when the line comes. It never waits for it.
func TestCopilotInputReadsTheLogOnce(t *testing.T) {
	b, err := os.ReadFile("../testdata/transcript-events.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	path := filepath.Join(t.TempDir(), "events.jsonl")
	os.WriteFile(path, bytes.Join(lines[:10], nil), 0o600) // up to the first reply's turn_end
	opens := countOpens(t, path)
	in := input(t, "hook-input-agentStop-2nd.json")
	in.Extra["transcriptPath"], _ = json.Marshal(path)
	Dialect{}.Input(in)
	if in.LastAssistantMessage != "first answer" || in.StopMark != "1795792797958" {
		t.Fatalf("last message %q, mark %q: want the latest reply the log has and the stop's timestamp", in.LastAssistantMessage, in.StopMark)
	}
	if n := opens(); n != 1 {
		t.Fatalf("the hook opened the events log %d times, want once", n)
	}
}

func TestLastReply(t *testing.T) {
	if got := LastReply("../testdata/missing.jsonl"); got != "" {
		t.Errorf("last reply of a missing transcript %q", got)
	}
}
