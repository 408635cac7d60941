package copilot

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/hooksup/hooksup/agent/copilot/wire"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
)

// event is a line of Copilot CLI's events.jsonl: its type, time, the subagent it is of (none for
// the main agent's) and its data.
type event struct {
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	AgentID   string          `json:"agentId"`
	Data      json.RawMessage `json:"data"`
}

// decodeEvent reads a line of the events.jsonl Copilot CLI (1.0.102) writes under
// $COPILOT_HOME/session-state/<session>/, the file its hooks name in transcriptPath:
//
//   - user.message: a prompt → transcript.KindPrompt; one Copilot queued itself from a stop
//     hook's reason (source-less, delivery "queued", and the reason a block sent) is still a
//     prompt as the model reads it, but the person did not type it → transcript.KindMeta when it
//     repeats the reason the latest agentStop hook answered (hook.end);
//   - hook.start of the main agent's agentStop → transcript.KindStopHook, marked as the stop's
//     input is (wire.StopMark): the reply before it is the stop's;
//   - session.usage_record: one model call's tokens and model → transcript.KindAssistant without
//     text (inputTokens counts the cached ones: input less cacheRead is InputTokens,
//     cacheRead CacheReadTokens, cacheWrite CacheCreationTokens), counted once per apiCallId;
//   - assistant.message: the model's reply and its tool requests → transcript.KindAssistant
//     (a subagent's text is not the main agent's last message);
//   - tool.execution_complete → transcript.KindToolResult (a failure is a tool error);
//   - session.error → transcript.KindAPIError; session.start and session.resume name the model
//     → transcript.KindModel; everything else → transcript.KindOther.
func (d *events) decode(line []byte) transcript.Record {
	var e event
	if err := json.Unmarshal(line, &e); err != nil || e.Type == "" {
		return transcript.Record{Kind: transcript.KindMalformed}
	}
	r := transcript.Record{Kind: transcript.KindOther, Type: e.Type}
	if t, err := time.Parse(time.RFC3339Nano, e.Timestamp); err == nil {
		r.Time = t
	}
	switch e.Type {
	case "user.message":
		var m struct {
			Content  string `json:"content"`
			Source   string `json:"source"`
			Delivery string `json:"delivery"`
		}
		if json.Unmarshal(e.Data, &m) != nil || e.AgentID != "" {
			return r
		}
		r.Kind, r.Text = transcript.KindPrompt, transcript.ClipText(m.Content, d.maxText)
		if m.Source != "" {
			r.Origin = m.Source
		}
		if d.blockReason != "" && m.Content == d.blockReason {
			r.Kind = transcript.KindMeta
			d.blockReason = ""
		}
	case "hook.start":
		var h struct {
			HookType string `json:"hookType"`
			Input    struct {
				AgentID   string          `json:"agentId"`
				Timestamp json.RawMessage `json:"timestamp"`
			} `json:"input"`
		}
		if json.Unmarshal(e.Data, &h) == nil && h.HookType == "agentStop" && h.Input.AgentID == "" && e.AgentID == "" {
			if m := wire.StopMark(h.Input.Timestamp); m != "" {
				r.Kind, r.StopMark = transcript.KindStopHook, m
			}
		}
	case "hook.end":
		var h struct {
			HookType string `json:"hookType"`
			Output   struct {
				Decision string `json:"decision"`
				Reason   string `json:"reason"`
			} `json:"output"`
		}
		if json.Unmarshal(e.Data, &h) == nil && h.HookType == "agentStop" && h.Output.Decision == "block" {
			d.blockReason = h.Output.Reason
		}
	case "session.usage_record":
		var u struct {
			Usage struct {
				Model                             string
				InputTokens, OutputTokens         int64
				CacheReadTokens, CacheWriteTokens int64
			} `json:"usage"`
		}
		if json.Unmarshal(e.Data, &u) != nil {
			return r
		}
		x := u.Usage
		r.Kind, r.Model, r.HasUsage = transcript.KindAssistant, x.Model, true
		r.Usage = session.Usage{InputTokens: max(x.InputTokens-x.CacheReadTokens, 0), OutputTokens: x.OutputTokens,
			CacheReadTokens: x.CacheReadTokens, CacheCreationTokens: x.CacheWriteTokens}
	case "assistant.message":
		var m struct {
			Model        string `json:"model"`
			Content      string `json:"content"`
			ToolRequests []struct {
				ToolCallID string `json:"toolCallId"`
				Name       string `json:"name"`
			} `json:"toolRequests"`
		}
		if json.Unmarshal(e.Data, &m) != nil {
			return r
		}
		r.Kind, r.Model = transcript.KindAssistant, m.Model
		if e.AgentID == "" && strings.TrimSpace(m.Content) != "" {
			r.Text = transcript.ClipText(m.Content, d.maxText)
		}
		for _, t := range m.ToolRequests {
			r.Tools = append(r.Tools, transcript.ToolUse{ID: t.ToolCallID, Name: t.Name})
		}
	case "tool.execution_complete":
		var t struct {
			Success *bool `json:"success"`
		}
		r.Kind = transcript.KindToolResult
		if json.Unmarshal(e.Data, &t) == nil && t.Success != nil && !*t.Success {
			r.ToolErrors = 1
		}
	case "session.error":
		var m struct {
			ErrorType  string `json:"errorType"`
			Message    string `json:"message"`
			StatusCode int    `json:"statusCode"`
		}
		_ = json.Unmarshal(e.Data, &m)
		r.Kind = transcript.KindAPIError
		r.APIError = &session.APIError{Status: m.StatusCode, Code: m.ErrorType, Message: transcript.ClipText(m.Message, d.maxText)}
	case "session.start", "session.resume", "session.model_change":
		var s struct {
			SelectedModel string `json:"selectedModel"`
			NewModel      string `json:"newModel"`
		}
		if json.Unmarshal(e.Data, &s) == nil && (s.SelectedModel != "" || s.NewModel != "") {
			r.Kind, r.Model = transcript.KindModel, s.SelectedModel
			if s.NewModel != "" {
				r.Model = s.NewModel
			}
		}
	}
	return r
}

// events is the transcript.Decoder of a session's events.jsonl.
type events struct {
	maxText int
	// blockReason is the reason of the latest agentStop hook that blocked, until the user
	// message Copilot queues from it.
	blockReason string
}

func (d *events) Reset() { d.blockReason = "" }

func (d *events) Decode(line []byte) transcript.Record { return d.decode(line) }
