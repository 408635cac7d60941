// Package wire is how GitHub Copilot CLI speaks the hook protocol (hooks.Dialect): all the hook
// client links of it.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/hooksup/hooksup/hooks"
)

// Dialect is Copilot CLI's (1.0.102). Its hooks have names of their own (agentStop is the stop,
// subagentStop a subagent's) and an input in camelCase without the event's name:
// {"sessionId","timestamp"(ms),"cwd","transcriptPath","stopReason","stop_hook_active"}. The
// event is the one the hook's command names. It reads a block as Claude Code does, from stdout
// with exit 0, but not exit 2 with the reason on stderr, and it has no answer that halts.
type Dialect struct{}

func (Dialect) Name() string { return "copilot" }

// SubagentAgentStop is the event hooksup gives the agentStop Copilot also runs when a subagent
// ends (its input names the subagent in agentId): hooksup decides that stop at the subagent's
// subagentStop, so this one is only observed and allowed, and never counted. (Copilot ignores a
// block there.)
const SubagentAgentStop = "agentStop"

// Input maps Copilot's input to hooksup's names: sessionId, transcriptPath, agentId, agentType,
// toolName, toolArgs (toolInput for a permission request) and toolResult; a subagentStop's
// response is its last message, and a stop's is the transcript's latest reply of the main agent
// (Copilot's input has none). An agentStop that names a subagent is SubagentAgentStop, in the
// session of the main agent. The Claude-compatible form (hook_event_name, snake_case), which
// Copilot sends to hooks registered under Claude Code's names, is hooksup's already.
func (Dialect) Input(in *hooks.Input) {
	str := func(k string) string {
		var s string
		if raw, ok := in.Extra[k]; ok {
			_ = json.Unmarshal(raw, &s)
		}
		return s
	}
	raw := func(k string) json.RawMessage { return in.Extra[k] }
	set := func(dst *string, k string) {
		if *dst == "" {
			*dst = str(k)
		}
	}
	setRaw := func(dst *json.RawMessage, keys ...string) {
		for _, k := range keys {
			if len(*dst) == 0 && len(raw(k)) > 0 {
				*dst = raw(k)
			}
		}
	}
	set(&in.SessionID, "sessionId")
	set(&in.TranscriptPath, "transcriptPath")
	set(&in.AgentID, "agentId")
	set(&in.AgentType, "agentType")
	set(&in.ToolName, "toolName")
	setRaw(&in.ToolInput, "toolArgs", "toolInput")
	setRaw(&in.ToolResponse, "toolResult")
	_, hasName := in.Extra["agentName"]
	_, hasResponse := in.Extra["response"]
	stop := len(raw("stopReason")) > 0 || len(raw("stop_reason")) > 0
	switch {
	case hasName || hasResponse:
		// subagentStop: the child's last message.
		set(&in.LastAssistantMessage, "response")
	case stop && in.AgentID != "" && (in.HookEventName == "" || in.HookEventName == hooks.Stop):
		in.HookEventName = SubagentAgentStop
		if p := str("parentAgentId"); p != "" {
			in.SessionID = p
		}
	case stop && in.LastAssistantMessage == "":
		in.LastAssistantMessage, in.StopMark = lastReplyBefore(in.TranscriptPath, raw("timestamp"))
	}
}

// Answer: a block is {"decision":"block","reason":…} on stdout with exit 0, as Claude Code's; a
// halt is an allow (Copilot has no answer that ends a turn, and a stop ends it anyway), its
// words a systemMessage; so is an allow's message.
func (Dialect) Answer(a hooks.Answer) ([]byte, int) {
	if a.Decision == hooks.Halt {
		msg := a.SystemMessage
		if msg == "" {
			msg = a.StopReason
		}
		a = hooks.Answer{Decision: hooks.Allow, SystemMessage: msg}
	}
	return a.Encode()
}

// Ran: Copilot sets COPILOT_CLI=1 and COPILOT_PROJECT_DIR for its hooks (and claude's
// CLAUDE_PROJECT_DIR too): surer than claude's sign.
func (Dialect) Ran(getenv func(string) string) int {
	if getenv("COPILOT_CLI") != "" || getenv("COPILOT_PROJECT_DIR") != "" {
		return 2
	}
	return 0
}

// ProjectDir is COPILOT_PROJECT_DIR, which Copilot sets for its hooks.
func (Dialect) ProjectDir(getenv func(string) string) string {
	if d := getenv("COPILOT_PROJECT_DIR"); d != "" {
		return d
	}
	return getenv("CLAUDE_PROJECT_DIR")
}

// tail is how much of the end of a transcript LastReply reads.
const tail = 1 << 20

// StopMark is what names a stop in Copilot's events log, from its input's timestamp (in ms):
// the stop's own hook.start line holds the same number in its data's input; "" for none, and
// for Claude Code's form, whose timestamp is not the log's.
func StopMark(timestamp json.RawMessage) string {
	ts := bytes.TrimSpace(timestamp)
	if len(ts) == 0 || ts[0] < '0' || ts[0] > '9' {
		return ""
	}
	return string(ts)
}

// lastReplyBefore is the main agent's latest reply before the stop's own hook.start line, the
// one that holds the stop's timestamp (its input's, in ms), read once. Copilot writes its
// events log behind its hooks: when that line is not there yet, the reply is the latest one
// the log has, and mark is the stop's (StopMark), for whoever follows the log (the
// supervisor) to take the reply before the line once it comes. The hook never waits for it.
func lastReplyBefore(path string, timestamp json.RawMessage) (reply, mark string) {
	m := StopMark(timestamp)
	if m == "" || path == "" {
		return LastReply(path), ""
	}
	b := readTail(path)
	want := []byte(`"timestamp":` + m)
	for rest := b; len(rest) > 0; {
		i := bytes.LastIndexByte(bytes.TrimRight(rest, "\n"), '\n')
		line := rest[i+1:]
		rest = rest[:max(i, 0)]
		if bytes.Contains(line, []byte(`"hook.start"`)) && bytes.Contains(line, []byte(`"agentStop"`)) && bytes.Contains(line, want) {
			return lastReplyIn(rest), ""
		}
	}
	return lastReplyIn(b), m
}

// readTail is the last MiB of the file at path (nil when it cannot be read).
func readTail(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	off := max(fi.Size()-tail, 0)
	b := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && !errors.Is(err, io.EOF) {
		return nil
	}
	return b
}

// LastReply is the text of the main agent's latest reply in Copilot's events.jsonl at path (""
// when none is found in its last MiB): an assistant.message with content, not a subagent's
// (those carry agentId).
func LastReply(path string) string {
	if path == "" {
		return ""
	}
	return lastReplyIn(readTail(path))
}

// lastReplyIn is the main agent's latest reply in b, lines of an events log.
func lastReplyIn(b []byte) string {
	for len(b) > 0 {
		i := bytes.LastIndexByte(bytes.TrimRight(b, "\n"), '\n')
		line := b[i+1:]
		b = b[:max(i, 0)]
		if !bytes.Contains(line, []byte(`"assistant.message"`)) {
			continue
		}
		var l struct {
			Type    string `json:"type"`
			AgentID string `json:"agentId"`
			Data    struct {
				Content string `json:"content"`
			} `json:"data"`
		}
		if json.Unmarshal(line, &l) == nil && l.Type == "assistant.message" && l.AgentID == "" && strings.TrimSpace(l.Data.Content) != "" {
			return l.Data.Content
		}
	}
	return ""
}
