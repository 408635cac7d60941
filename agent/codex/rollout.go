package codex

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
)

// codexLine is a rollout line; Payload is decoded by type.
type codexLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

type codexPayload struct {
	Type       string          `json:"type"`
	Role       string          `json:"role"`
	Name       string          `json:"name"`
	CallID     string          `json:"call_id"`
	Model      string          `json:"model"`
	Content    []codexContent  `json:"content"`
	Item       *codexItem      `json:"item"`
	ResponseID string          `json:"response_id"`
	Usage      *codexUsage     `json:"usage"`
	DurationMS *int64          `json:"duration_ms"`
	Message    string          `json:"message"`
	Reason     json.RawMessage `json:"reason"`
}

type codexContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type codexItem struct {
	Type    string         `json:"type"`
	Content []codexContent `json:"content"`
}

type codexUsage struct {
	InputTokens       int64 `json:"input_tokens"`
	CachedInputTokens int64 `json:"cached_input_tokens"`
	CacheWriteTokens  int64 `json:"cache_write_input_tokens"`
	OutputTokens      int64 `json:"output_tokens"`
}

// decodeRollout reads Codex's rollout, the JSONL file Codex writes for a session under
// $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl, the file its hooks name in
// transcript_path. Each line is {"timestamp","type","payload"}; the lines hooksup reads
// (Codex 0.169.0):
//
//   - turn_context: the turn's settings, its model among them → transcript.KindModel;
//   - event_msg item_completed UserMessage: the person's prompt → transcript.KindPrompt (a HookPrompt,
//     a Stop hook's reason sent back to the model, is transcript.KindMeta);
//   - response_item message (assistant): the model's text, and function_call,
//     custom_tool_call, local_shell_call, web_search_call: a tool call → transcript.KindAssistant;
//   - response_item function_call_output, custom_tool_call_output → transcript.KindToolResult;
//   - token_usage_record: one model response's usage, by response_id → transcript.KindAssistant with
//     usage, counted once per response. OpenAI's input_tokens include the cached ones: they
//     are counted as CacheReadTokens, the rest as InputTokens, so Total is Codex's
//     total_tokens;
//   - event_msg task_complete: a turn ended, with its duration → transcript.KindTurnDuration;
//     turn_aborted: the person interrupted it → transcript.KindInterrupt;
//   - event_msg error → transcript.KindAPIError.
//
// Everything else is transcript.KindOther. Codex writes lines of several hundred KiB (its instructions),
// which are decoded only as far as their type: the payload is kept raw until the type says
// it is read.
func decodeRollout(line []byte, maxText int) transcript.Record {
	var l codexLine
	if err := json.Unmarshal(line, &l); err != nil || l.Type == "" {
		return transcript.Record{Kind: transcript.KindMalformed}
	}
	r := transcript.Record{Kind: transcript.KindOther, Type: l.Type}
	if t, err := time.Parse(time.RFC3339Nano, l.Timestamp); err == nil {
		r.Time = t
	}
	var p codexPayload
	switch l.Type {
	case "turn_context", "response_item", "token_usage_record", "event_msg":
		if json.Unmarshal(l.Payload, &p) != nil {
			return transcript.Record{Kind: transcript.KindMalformed, Type: l.Type, Time: r.Time}
		}
	default:
		return r
	}
	switch l.Type {
	case "turn_context":
		if p.Model != "" {
			r.Kind, r.Model = transcript.KindModel, p.Model
		}
	case "token_usage_record":
		if p.Usage != nil {
			u := p.Usage
			r.Kind, r.HasUsage = transcript.KindAssistant, true
			r.Usage = session.Usage{InputTokens: max(u.InputTokens-u.CachedInputTokens, 0), CacheReadTokens: u.CachedInputTokens,
				CacheCreationTokens: u.CacheWriteTokens, OutputTokens: u.OutputTokens}
			r.UsageID = p.ResponseID
		}
	case "response_item":
		switch p.Type {
		case "message":
			if p.Role == "assistant" {
				r.Kind, r.Text = transcript.KindAssistant, transcript.ClipText(joinText(p.Content), maxText)
			}
		case "function_call", "custom_tool_call", "local_shell_call", "web_search_call":
			name := p.Name
			if name == "" {
				name = strings.TrimSuffix(p.Type, "_call")
			}
			r.Kind, r.Tools = transcript.KindAssistant, []transcript.ToolUse{{ID: p.CallID, Name: name}}
		case "function_call_output", "custom_tool_call_output":
			r.Kind = transcript.KindToolResult
		}
	case "event_msg":
		switch p.Type {
		case "item_completed":
			if p.Item == nil {
				break
			}
			switch p.Item.Type {
			case "UserMessage":
				r.Kind, r.Text = transcript.KindPrompt, transcript.ClipText(joinText(p.Item.Content), maxText)
			case "HookPrompt":
				r.Kind = transcript.KindMeta
			}
		case "task_complete":
			r.Kind = transcript.KindTurnDuration
			if p.DurationMS != nil {
				r.Duration = time.Duration(*p.DurationMS) * time.Millisecond
			}
		case "turn_aborted":
			r.Kind = transcript.KindInterrupt
		case "error":
			r.Kind, r.APIError = transcript.KindAPIError, &session.APIError{Message: transcript.ClipText(p.Message, maxText)}
		}
	}
	return r
}

func joinText(cs []codexContent) string {
	var b strings.Builder
	for _, c := range cs {
		if c.Text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(c.Text)
	}
	return b.String()
}

// rollout is the transcript.Decoder of a rollout: a usage record names no model, and gets the
// turn's, from the latest turn_context.
type rollout struct {
	maxText int
	model   string
}

func (d *rollout) Reset() { d.model = "" }

func (d *rollout) Decode(line []byte) transcript.Record {
	r := decodeRollout(line, d.maxText)
	switch {
	case r.Kind == transcript.KindModel:
		d.model = r.Model
	case r.HasUsage:
		r.Model = d.model
	}
	return r
}
