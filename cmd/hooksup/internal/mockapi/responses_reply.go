package mockapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// ResponsesUsage is the token usage served in response.completed.
type ResponsesUsage struct {
	InputTokens     int
	CachedTokens    int // input_tokens_details.cached_tokens (part of InputTokens)
	OutputTokens    int
	ReasoningTokens int // output_tokens_details.reasoning_tokens (part of OutputTokens)
}

// Total returns input + output tokens, as total_tokens.
func (u ResponsesUsage) Total() int { return u.InputTokens + u.OutputTokens }

// DefaultResponsesUsage is served with replies whose Usage is zero.
var DefaultResponsesUsage = ResponsesUsage{InputTokens: 1200, CachedTokens: 1000, OutputTokens: 30}

// FunctionCall is one function_call output item: Codex runs the tool and sends its result
// as a function_call_output item (same CallID) in the next request.
type FunctionCall struct {
	CallID    string // "" → call_mock_<request seq>_<index>
	Name      string // e.g. "exec_command"
	Namespace string // the tool namespace, e.g. "multi_agent_v1" for spawn_agent; "" for none
	Arguments any    // marshalled to JSON (a string is sent as is); nil → {}
}

// ResponsesError makes the mock answer with an HTTP error in OpenAI's format
// ({"error":{"type":Type,"message":Message}}).
type ResponsesError struct {
	Status  int
	Type    string
	Message string
}

// ResponsesReply is what the mock answers to one POST /v1/responses.
type ResponsesReply struct {
	// Text is served as an assistant message item (first). Empty text with no calls is
	// served as an empty message.
	Text  string
	Calls []FunctionCall
	// Usage defaults to DefaultResponsesUsage when zero.
	Usage ResponsesUsage
	// ID is the response id; "" → resp_mock_<request seq>.
	ID string
	// Delay postpones the answer; ChunkDelay sleeps between SSE events.
	Delay, ChunkDelay time.Duration
	Error             *ResponsesError
}

// OutputText returns a reply with one assistant message.
func OutputText(s string) ResponsesReply { return ResponsesReply{Text: s} }

// Call returns a reply calling one function.
func Call(name string, args any) ResponsesReply {
	return ResponsesReply{Calls: []FunctionCall{{Name: name, Arguments: args}}}
}

// ShellCall returns a reply that makes Codex 0.169.0 run a shell command with its
// exec_command tool ({"cmd": cmd}).
func ShellCall(cmd string) ResponsesReply {
	return Call("exec_command", map[string]any{"cmd": cmd})
}

// SpawnAgent returns a reply that makes Codex 0.169.0 spawn a subagent with the task
// message (multi_agent_v1's spawn_agent). The subagent's requests carry SubagentHeader; its
// end runs the SubagentStop hooks.
func SpawnAgent(message string) ResponsesReply {
	return ResponsesReply{Calls: []FunctionCall{{Namespace: "multi_agent_v1", Name: "spawn_agent", Arguments: map[string]any{"message": message}}}}
}

// DefaultResponsesSideReply answers a side request: {"title":"Mock title"} when it asks for
// a JSON object with a title (the TUI's thread title), else a short text.
func DefaultResponsesSideReply(r *ResponsesRequest) ResponsesReply {
	if strings.Contains(string(r.TextFormat), `"title"`) {
		return ResponsesReply{Text: `{"title":"Mock title"}`, Usage: ResponsesUsage{InputTokens: 7, OutputTokens: 3}}
	}
	return ResponsesReply{Text: "mock side reply", Usage: ResponsesUsage{InputTokens: 7, OutputTokens: 3}}
}

// ResponsesFailure returns a reply that is an HTTP error.
func ResponsesFailure(status int, typ, message string) ResponsesReply {
	return ResponsesReply{Error: &ResponsesError{Status: status, Type: typ, Message: message}}
}

// WithDelay returns r answered after d.
func (r ResponsesReply) WithDelay(d time.Duration) ResponsesReply { r.Delay = d; return r }

func (r ResponsesReply) normalize(seq int) ResponsesReply {
	if r.ID == "" {
		r.ID = fmt.Sprintf("resp_mock_%d", seq)
	}
	if r.Usage == (ResponsesUsage{}) {
		r.Usage = DefaultResponsesUsage
	}
	calls := make([]FunctionCall, len(r.Calls))
	for i, c := range r.Calls {
		if c.CallID == "" {
			c.CallID = fmt.Sprintf("call_mock_%d_%d", seq, i)
		}
		calls[i] = c
	}
	r.Calls = calls
	return r
}

func (r ResponsesReply) summary() string {
	if r.Error != nil {
		return fmt.Sprintf("error %d %s", r.Error.Status, r.Error.Type)
	}
	var parts []string
	if r.Text != "" || len(r.Calls) == 0 {
		parts = append(parts, fmt.Sprintf("text %q", clip(r.Text, 60)))
	}
	for _, c := range r.Calls {
		args, _ := c.arguments()
		parts = append(parts, fmt.Sprintf("function_call %s %s %s", c.Name, c.CallID, clip(args, 80)))
	}
	return strings.Join(parts, ", ")
}

func (c FunctionCall) arguments() (string, error) {
	switch a := c.Arguments.(type) {
	case nil:
		return "{}", nil
	case string:
		return a, nil
	case json.RawMessage:
		return string(a), nil
	}
	b, err := json.Marshal(c.Arguments)
	return string(b), err
}

// items returns the output items: the message (if any) then the function calls.
func (r ResponsesReply) items() ([]map[string]any, error) {
	var out []map[string]any
	if r.Text != "" || len(r.Calls) == 0 {
		out = append(out, map[string]any{
			"type": "message", "id": "msg_" + strings.TrimPrefix(r.ID, "resp_"), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": r.Text, "annotations": []any{}}},
		})
	}
	for _, c := range r.Calls {
		args, err := c.arguments()
		if err != nil {
			return nil, fmt.Errorf("function call %s: %w", c.Name, err)
		}
		item := map[string]any{
			"type": "function_call", "id": "fc_" + c.CallID, "call_id": c.CallID, "name": c.Name,
			"arguments": args, "status": "completed",
		}
		if c.Namespace != "" {
			item["namespace"] = c.Namespace
		}
		out = append(out, item)
	}
	return out, nil
}

func (u ResponsesUsage) wire() map[string]any {
	return map[string]any{
		"input_tokens":          u.InputTokens,
		"input_tokens_details":  map[string]any{"cached_tokens": u.CachedTokens},
		"output_tokens":         u.OutputTokens,
		"output_tokens_details": map[string]any{"reasoning_tokens": u.ReasoningTokens},
		"total_tokens":          u.Total(),
	}
}

// writeSSE sends the events Codex 0.169.0 accepts: response.created; per output item
// response.output_item.added, for a message response.output_text.delta, or for a function
// call response.function_call_arguments.delta, then response.output_item.done (the complete
// item, which is what Codex keeps); response.completed with the output and the usage.
func (r ResponsesReply) writeSSE(w http.ResponseWriter, done <-chan struct{}) error {
	items, err := r.items()
	if err != nil {
		return err
	}
	sse := startSSE(w, "x-request-id", "req_"+r.ID, r.ChunkDelay, done)
	seq := 0
	send := func(typ string, data map[string]any) error {
		data["type"] = typ
		data["sequence_number"] = seq
		seq++
		return sse.send(typ, data)
	}
	resp := func(status string, output []map[string]any) map[string]any {
		m := map[string]any{"id": r.ID, "object": "response", "status": status, "output": output}
		if status == "completed" {
			m["usage"] = r.Usage.wire()
		}
		return m
	}
	if err := send("response.created", map[string]any{"response": resp("in_progress", []map[string]any{})}); err != nil {
		return err
	}
	for i, it := range items {
		added := map[string]any{}
		for k, v := range it {
			added[k] = v
		}
		added["status"] = "in_progress"
		if it["type"] == "message" {
			added["content"] = []any{}
		} else {
			added["arguments"] = ""
		}
		if err := send("response.output_item.added", map[string]any{"output_index": i, "item": added}); err != nil {
			return err
		}
		if it["type"] == "message" {
			if err := send("response.output_text.delta", map[string]any{"output_index": i, "content_index": 0, "item_id": it["id"], "delta": r.Text}); err != nil {
				return err
			}
		} else {
			if err := send("response.function_call_arguments.delta", map[string]any{"output_index": i, "item_id": it["id"], "delta": it["arguments"]}); err != nil {
				return err
			}
		}
		if err := send("response.output_item.done", map[string]any{"output_index": i, "item": it}); err != nil {
			return err
		}
	}
	return send("response.completed", map[string]any{"response": resp("completed", items)})
}

func (r ResponsesReply) delay() time.Duration { return r.Delay }

// writeError writes r's error, if it is one.
func (r ResponsesReply) writeError(w http.ResponseWriter) bool {
	if r.Error == nil {
		return false
	}
	writeResponsesError(w, *r.Error)
	return true
}

func writeResponsesError(w http.ResponseWriter, e ResponsesError) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"type": e.Type, "message": e.Message, "code": e.Type}})
}
