package mockapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Usage is the token usage served with a reply. The cache-creation tokens
// are also reported split by TTL (usage.cache_creation.ephemeral_5m/1h, as
// the real API does); CacheCreation1hInputTokens says how many of them are
// 1-hour tokens, the rest are 5-minute tokens.
type Usage struct {
	InputTokens                int `json:"input_tokens"`
	OutputTokens               int `json:"output_tokens"`
	CacheCreationInputTokens   int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens       int `json:"cache_read_input_tokens"`
	CacheCreation1hInputTokens int `json:"-"`
}

// Add returns u+v, field by field.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:                u.InputTokens + v.InputTokens,
		OutputTokens:               u.OutputTokens + v.OutputTokens,
		CacheCreationInputTokens:   u.CacheCreationInputTokens + v.CacheCreationInputTokens,
		CacheReadInputTokens:       u.CacheReadInputTokens + v.CacheReadInputTokens,
		CacheCreation1hInputTokens: u.CacheCreation1hInputTokens + v.CacheCreation1hInputTokens,
	}
}

// Total returns input + output + cache creation + cache read tokens.
func (u Usage) Total() int {
	return u.InputTokens + u.OutputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// DefaultUsage is served with main and subagent replies whose Usage is zero.
var DefaultUsage = Usage{InputTokens: 120, OutputTokens: 30, CacheCreationInputTokens: 400, CacheReadInputTokens: 2000}

// SideUsage is served with the default replies to side requests.
var SideUsage = Usage{InputTokens: 7, OutputTokens: 3}

// ToolUse is one tool_use block of a reply.
type ToolUse struct {
	ID    string // "" → toolu_mock_<request seq>_<index>
	Name  string
	Input any // marshalled to JSON; nil → {}
}

// APIError makes the mock answer with an HTTP error in the Anthropic format
// ({"type":"error","error":{"type":Type,"message":Message}}).
type APIError struct {
	Status  int    // e.g. 500, 529 (overloaded), 400
	Type    string // e.g. "api_error", "overloaded_error", "invalid_request_error"
	Message string
}

// Reply is what the mock answers to one messages request.
type Reply struct {
	// Text is served as a text block (before the tool uses). Empty text with
	// no tool uses is served as an empty text block.
	Text     string
	ToolUses []ToolUse
	// StopReason defaults to "tool_use" when there are tool uses, else
	// "end_turn". Other values: "max_tokens", "stop_sequence", "refusal".
	StopReason string
	// Usage defaults to DefaultUsage when zero.
	Usage Usage
	// Model defaults to the requested model.
	Model string
	// ID is the message id; "" → msg_mock_<request seq>.
	ID string
	// Delay postpones the answer (headers included); the wait ends early
	// when the client goes away or the server closes.
	Delay time.Duration
	// ChunkDelay, if set, splits the text into a few deltas and sleeps this
	// long between SSE events, so a test can catch claude mid-stream.
	ChunkDelay time.Duration
	// Error, if set, replaces the message with an HTTP error.
	Error *APIError
}

func (r Reply) clone() Reply {
	r.ToolUses = append([]ToolUse(nil), r.ToolUses...)
	if r.Error != nil {
		e := *r.Error
		r.Error = &e
	}
	return r
}

// Text returns a plain text reply (stop_reason end_turn).
func Text(s string) Reply { return Reply{Text: s} }

// ToolCall returns a reply with one tool_use block calling the named tool.
func ToolCall(name string, input any) Reply {
	return Reply{ToolUses: []ToolUse{{Name: name, Input: input}}}
}

// Bash returns a reply calling the Bash tool ({command, description}).
func Bash(command, description string) Reply {
	in := map[string]any{"command": command}
	if description != "" {
		in["description"] = description
	}
	return ToolCall("Bash", in)
}

// Agent returns a reply calling the subagent tool Agent
// ({description, prompt, subagent_type}); subagentType "" leaves it out
// (claude then picks its default agent). Claude 2.1.330 runs such agents in
// the background: the parent gets "Async agent launched" at once, its turn
// (and Stop) may end while the subagent runs, and a later
// <task-notification> turn brings the result. See ForegroundAgent.
func Agent(description, prompt, subagentType string) Reply {
	in := map[string]any{"description": description, "prompt": prompt}
	if subagentType != "" {
		in["subagent_type"] = subagentType
	}
	return ToolCall("Agent", in)
}

// ForegroundAgent is Agent with run_in_background:false: claude waits for
// the subagent and returns its final text as the tool result, so the
// requests come in a fixed order (main, subagent..., main).
func ForegroundAgent(description, prompt, subagentType string) Reply {
	r := Agent(description, prompt, subagentType)
	r.ToolUses[0].Input.(map[string]any)["run_in_background"] = false
	return r
}

// Error returns a reply that fails with an HTTP error.
func Error(status int, typ, message string) Reply {
	return Reply{Error: &APIError{Status: status, Type: typ, Message: message}}
}

// WithText returns r with its text set (e.g. a preamble before a tool use).
func (r Reply) WithText(s string) Reply { r.Text = s; return r }

// WithUsage returns r with its usage set.
func (r Reply) WithUsage(u Usage) Reply { r.Usage = u; return r }

// WithStopReason returns r with its stop_reason set.
func (r Reply) WithStopReason(s string) Reply { r.StopReason = s; return r }

// WithDelay returns r with its Delay set.
func (r Reply) WithDelay(d time.Duration) Reply { r.Delay = d; return r }

// normalize fills in the defaults for request req.
func (r Reply) normalize(req *Request, defUsage Usage) Reply {
	r = r.clone()
	if r.Model == "" {
		r.Model = req.Model
		if r.Model == "" {
			r.Model = "claude-mock"
		}
	}
	if r.ID == "" {
		r.ID = fmt.Sprintf("msg_mock_%d", req.Seq)
	}
	if r.Usage == (Usage{}) {
		r.Usage = defUsage
	}
	for i := range r.ToolUses {
		if r.ToolUses[i].ID == "" {
			r.ToolUses[i].ID = fmt.Sprintf("toolu_mock_%d_%d", req.Seq, i)
		}
		if r.ToolUses[i].Input == nil {
			r.ToolUses[i].Input = map[string]any{}
		}
	}
	if r.StopReason == "" {
		r.StopReason = "end_turn"
		if len(r.ToolUses) > 0 {
			r.StopReason = "tool_use"
		}
	}
	return r
}

// contentBlocks returns the reply's content as wire blocks.
func (r Reply) contentBlocks() ([]map[string]any, error) {
	var out []map[string]any
	if r.Text != "" || len(r.ToolUses) == 0 {
		out = append(out, map[string]any{"type": "text", "text": r.Text})
	}
	for _, tu := range r.ToolUses {
		in, err := json.Marshal(tu.Input)
		if err != nil {
			return nil, fmt.Errorf("tool %s input: %w", tu.Name, err)
		}
		out = append(out, map[string]any{"type": "tool_use", "id": tu.ID, "name": tu.Name, "input": json.RawMessage(in)})
	}
	return out, nil
}

// requestID is the request-id response header; claude stores it as
// requestId in transcript lines.
func (r Reply) requestID() string {
	return "req_" + strings.TrimPrefix(r.ID, "msg_")
}

func (u Usage) wire() map[string]any {
	return map[string]any{
		"input_tokens":                u.InputTokens,
		"output_tokens":               u.OutputTokens,
		"cache_creation_input_tokens": u.CacheCreationInputTokens,
		"cache_read_input_tokens":     u.CacheReadInputTokens,
		"cache_creation": map[string]any{
			"ephemeral_5m_input_tokens": u.CacheCreationInputTokens - u.CacheCreation1hInputTokens,
			"ephemeral_1h_input_tokens": u.CacheCreation1hInputTokens,
		},
		"service_tier": "standard",
	}
}

func writeAPIError(w http.ResponseWriter, e APIError) {
	if e.Status == 0 {
		e.Status = http.StatusInternalServerError
	}
	if e.Type == "" {
		e.Type = "api_error"
	}
	if e.Message == "" {
		e.Message = http.StatusText(e.Status)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("x-should-retry", "false")
	w.WriteHeader(e.Status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"type":  "error",
		"error": map[string]any{"type": e.Type, "message": e.Message},
	})
}

// writeJSON serves the non-streaming form.
func (r Reply) writeJSON(w http.ResponseWriter) error {
	blocks, err := r.contentBlocks()
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", r.requestID())
	return json.NewEncoder(w).Encode(map[string]any{
		"id":            r.ID,
		"type":          "message",
		"role":          "assistant",
		"model":         r.Model,
		"content":       blocks,
		"stop_reason":   r.StopReason,
		"stop_sequence": nil,
		"usage":         r.Usage.wire(),
	})
}

// writeSSE serves the streaming form, event by event, like the real API:
// message_start (with the input-side usage and output_tokens 1), ping, one
// content_block_start/delta.../stop per block, message_delta (stop_reason and
// the final cumulative usage), message_stop.
func (r Reply) writeSSE(w http.ResponseWriter, done <-chan struct{}) error {
	blocks, err := r.contentBlocks()
	if err != nil {
		return err
	}
	send := startSSE(w, "request-id", r.requestID(), r.ChunkDelay, done).send
	startUsage := r.Usage.wire()
	startUsage["output_tokens"] = min(1, r.Usage.OutputTokens)
	if err := send("message_start", map[string]any{
		"type": "message_start",
		"message": map[string]any{
			"id": r.ID, "type": "message", "role": "assistant", "model": r.Model,
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
			"usage": startUsage,
		},
	}); err != nil {
		return err
	}
	if err := send("ping", map[string]any{"type": "ping"}); err != nil {
		return err
	}
	for i, b := range blocks {
		var start map[string]any
		var deltas []map[string]any
		switch b["type"] {
		case "text":
			start = map[string]any{"type": "text", "text": ""}
			for _, piece := range split(b["text"].(string), r.ChunkDelay > 0) {
				deltas = append(deltas, map[string]any{"type": "text_delta", "text": piece})
			}
		case "tool_use":
			start = map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}
			for _, piece := range split(string(b["input"].(json.RawMessage)), true) {
				deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": piece})
			}
		}
		if err := send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": start}); err != nil {
			return err
		}
		for _, d := range deltas {
			if err := send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d}); err != nil {
				return err
			}
		}
		if err := send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i}); err != nil {
			return err
		}
	}
	if err := send("message_delta", map[string]any{
		"type":  "message_delta",
		"delta": map[string]any{"stop_reason": r.StopReason, "stop_sequence": nil},
		"usage": r.Usage.wire(),
	}); err != nil {
		return err
	}
	return send("message_stop", map[string]any{"type": "message_stop"})
}

// split cuts s into up to three pieces (on rune boundaries) when many is set;
// it always returns at least one piece.
func split(s string, many bool) []string {
	rs := []rune(s)
	if !many || len(rs) < 3 {
		return []string{s}
	}
	a, b := len(rs)/3, 2*len(rs)/3
	return []string{string(rs[:a]), string(rs[a:b]), string(rs[b:])}
}
