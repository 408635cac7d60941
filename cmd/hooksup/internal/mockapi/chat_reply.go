package mockapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// ChatUsage is the token usage served with a reply ("usage": prompt_tokens,
// completion_tokens, total_tokens, prompt_tokens_details.cached_tokens).
type ChatUsage struct {
	PromptTokens     int
	CompletionTokens int
	CachedTokens     int // part of PromptTokens
}

// Total returns prompt + completion tokens, as total_tokens.
func (u ChatUsage) Total() int { return u.PromptTokens + u.CompletionTokens }

// DefaultChatUsage is served with replies whose Usage is zero.
var DefaultChatUsage = ChatUsage{PromptTokens: 1200, CompletionTokens: 30, CachedTokens: 1000}

// ChatToolCall is one function call: the agent runs the tool and sends its result as a "tool"
// message with the same ID in its next request.
type ChatToolCall struct {
	ID   string // "" → call_mock_<request seq>_<index>
	Name string // e.g. "bash" (copilot), "run_shell_command" (qwen)
	// Arguments is marshalled to JSON (a string is sent as is); nil → {}. In a recorded
	// request it is the JSON text the agent sent back.
	Arguments any
}

// ChatError makes the mock answer with an HTTP error in OpenAI's format
// ({"error":{"type":Type,"message":Message,"code":Type}}).
type ChatError struct {
	Status  int
	Type    string
	Message string
}

// ChatReply is what the mock answers to one chat completion request.
type ChatReply struct {
	// Text is the assistant message's content (streamed in pieces); "" with no calls is
	// served as an empty content.
	Text      string
	ToolCalls []ChatToolCall
	// FinishReason defaults to "tool_calls" when there are calls, else "stop".
	FinishReason string
	// Usage defaults to DefaultChatUsage when zero.
	Usage ChatUsage
	// Model defaults to the requested model.
	Model string
	// ID is the completion id; "" → chatcmpl-mock-<request seq>.
	ID string
	// Delay postpones the answer; ChunkDelay sleeps between SSE chunks.
	Delay, ChunkDelay time.Duration
	Error             *ChatError
}

// ChatText returns a reply with one assistant text.
func ChatText(s string) ChatReply { return ChatReply{Text: s} }

// ChatCall returns a reply calling one function.
func ChatCall(name string, args any) ChatReply {
	return ChatReply{ToolCalls: []ChatToolCall{{Name: name, Arguments: args}}}
}

// CopilotBash returns a reply that makes Copilot CLI 1.0.102 run a shell command with its bash
// tool ({"command","description"}); in -p it needs --allow-all-tools (or --allow-tool).
func CopilotBash(command, description string) ChatReply {
	return ChatCall("bash", map[string]any{"command": command, "description": description})
}

// QwenShell returns a reply that makes Qwen Code 0.24.4 run a shell command with its
// run_shell_command tool ({"command","description","is_background":false}); -p offers that
// tool only with --yolo (or --approval-mode yolo).
func QwenShell(command, description string) ChatReply {
	return ChatCall("run_shell_command", map[string]any{"command": command, "description": description, "is_background": false})
}

// QwenWriteFile returns a reply that makes Qwen Code 0.24.4 write a file with its write_file
// tool ({"file_path","content"}; the path must be absolute). On its auto mode qwen asks about a
// write outside the project.
func QwenWriteFile(path, content string) ChatReply {
	return ChatCall("write_file", map[string]any{"file_path": path, "content": content})
}

// CopilotCreate returns a reply that makes Copilot CLI 1.0.102 create a file with its create
// tool ({"path","file_text"}; the path absolute), which it asks about on its default settings.
func CopilotCreate(path, text string) ChatReply {
	return ChatCall("create", map[string]any{"path": path, "file_text": text})
}

// ChatFailure returns a reply that is an HTTP error.
func ChatFailure(status int, typ, message string) ChatReply {
	return ChatReply{Error: &ChatError{Status: status, Type: typ, Message: message}}
}

// DefaultChatSideReply answers a side request with a small JSON text that the side requests'
// schemas accept ({"reasoning","next_speaker","title"}), and SideUsage's tokens.
func DefaultChatSideReply(*ChatRequest) ChatReply {
	return ChatReply{Text: `{"reasoning":"mock","next_speaker":"user","title":"Mock title"}`,
		Usage: ChatUsage{PromptTokens: SideUsage.InputTokens, CompletionTokens: SideUsage.OutputTokens}}
}

// WithText returns r with its text set (e.g. a preamble before a call).
func (r ChatReply) WithText(s string) ChatReply { r.Text = s; return r }

// WithDelay returns r answered after d.
func (r ChatReply) WithDelay(d time.Duration) ChatReply { r.Delay = d; return r }

func (r ChatReply) clone() ChatReply {
	r.ToolCalls = append([]ChatToolCall(nil), r.ToolCalls...)
	if r.Error != nil {
		e := *r.Error
		r.Error = &e
	}
	return r
}

func (r ChatReply) normalize(req *ChatRequest) ChatReply {
	r = r.clone()
	if r.ID == "" {
		r.ID = fmt.Sprintf("chatcmpl-mock-%d", req.Seq)
	}
	if r.Model == "" {
		r.Model = req.Model
		if r.Model == "" {
			r.Model = "mock-model"
		}
	}
	if r.Usage == (ChatUsage{}) {
		r.Usage = DefaultChatUsage
	}
	for i := range r.ToolCalls {
		if r.ToolCalls[i].ID == "" {
			r.ToolCalls[i].ID = fmt.Sprintf("call_mock_%d_%d", req.Seq, i)
		}
	}
	if r.FinishReason == "" {
		r.FinishReason = "stop"
		if len(r.ToolCalls) > 0 {
			r.FinishReason = "tool_calls"
		}
	}
	return r
}

func (c ChatToolCall) arguments() (string, error) {
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

func (r ChatReply) summary() string {
	if r.Error != nil {
		return fmt.Sprintf("error %d %s", r.Error.Status, r.Error.Type)
	}
	var parts []string
	if r.Text != "" || len(r.ToolCalls) == 0 {
		parts = append(parts, fmt.Sprintf("text %q", clip(r.Text, 60)))
	}
	for _, c := range r.ToolCalls {
		args, _ := c.arguments()
		parts = append(parts, fmt.Sprintf("tool_call %s %s %s", c.Name, c.ID, clip(args, 80)))
	}
	return strings.Join(parts, ", ") + ", finish " + r.FinishReason
}

func (u ChatUsage) wire() map[string]any {
	return map[string]any{
		"prompt_tokens":         u.PromptTokens,
		"completion_tokens":     u.CompletionTokens,
		"total_tokens":          u.Total(),
		"prompt_tokens_details": map[string]any{"cached_tokens": u.CachedTokens},
	}
}

// wireCalls returns the tool calls as the message's "tool_calls".
func (r ChatReply) wireCalls() ([]map[string]any, error) {
	var out []map[string]any
	for i, c := range r.ToolCalls {
		args, err := c.arguments()
		if err != nil {
			return nil, fmt.Errorf("tool call %s: %w", c.Name, err)
		}
		out = append(out, map[string]any{"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": args}})
	}
	return out, nil
}

// writeJSON serves the non-streaming form: one chat.completion object.
func (r ChatReply) writeJSON(w http.ResponseWriter) error {
	calls, err := r.wireCalls()
	if err != nil {
		return err
	}
	msg := map[string]any{"role": "assistant", "content": r.Text}
	if len(calls) > 0 {
		for _, c := range calls {
			delete(c, "index")
		}
		msg["tool_calls"] = calls
		if r.Text == "" {
			msg["content"] = nil
		}
	}
	w.Header().Set("x-request-id", "req_"+r.ID)
	writeJSON(w, http.StatusOK, map[string]any{
		"id": r.ID, "object": "chat.completion", "created": time.Now().Unix(), "model": r.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": r.FinishReason}},
		"usage":   r.Usage.wire(),
	})
	return nil
}

// writeSSE serves the streaming form as OpenAI does: chat.completion.chunk objects as bare data
// lines — the role with an empty content, the text in pieces, each call as a chunk naming it
// (id, name, empty arguments) then its arguments in pieces, a chunk with the finish_reason,
// then (when the request asked for it) one with no choices and the usage — and "data: [DONE]".
func (r ChatReply) writeSSE(w http.ResponseWriter, includeUsage bool, done <-chan struct{}) error {
	calls, err := r.wireCalls()
	if err != nil {
		return err
	}
	sse := startSSE(w, "x-request-id", "req_"+r.ID, r.ChunkDelay, done)
	created := time.Now().Unix()
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": r.ID, "object": "chat.completion.chunk", "created": created, "model": r.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	send := func(delta map[string]any, finish any) error { return sse.send("", chunk(delta, finish)) }
	if err := send(map[string]any{"role": "assistant", "content": ""}, nil); err != nil {
		return err
	}
	if r.Text != "" {
		for _, piece := range split(r.Text, true) {
			if err := send(map[string]any{"content": piece}, nil); err != nil {
				return err
			}
		}
	}
	for _, c := range calls {
		fn := c["function"].(map[string]any)
		head := map[string]any{"index": c["index"], "id": c["id"], "type": "function",
			"function": map[string]any{"name": fn["name"], "arguments": ""}}
		if err := send(map[string]any{"tool_calls": []any{head}}, nil); err != nil {
			return err
		}
		for _, piece := range split(fn["arguments"].(string), true) {
			if err := send(map[string]any{"tool_calls": []any{map[string]any{"index": c["index"],
				"function": map[string]any{"arguments": piece}}}}, nil); err != nil {
				return err
			}
		}
	}
	if err := send(map[string]any{}, r.FinishReason); err != nil {
		return err
	}
	if includeUsage {
		if err := sse.send("", map[string]any{"id": r.ID, "object": "chat.completion.chunk", "created": created,
			"model": r.Model, "choices": []any{}, "usage": r.Usage.wire()}); err != nil {
			return err
		}
	}
	return sse.sendRaw("", []byte("[DONE]"))
}

func (r ChatReply) delay() time.Duration { return r.Delay }

// writeError writes r's error, if it is one.
func (r ChatReply) writeError(w http.ResponseWriter) bool {
	if r.Error == nil {
		return false
	}
	writeChatError(w, *r.Error)
	return true
}

func writeChatError(w http.ResponseWriter, e ChatError) {
	if e.Status == 0 {
		e.Status = http.StatusInternalServerError
	}
	if e.Type == "" {
		e.Type = "server_error"
	}
	if e.Message == "" {
		e.Message = http.StatusText(e.Status)
	}
	writeJSON(w, e.Status, map[string]any{"error": map[string]any{"type": e.Type, "message": e.Message, "code": e.Type}})
}
