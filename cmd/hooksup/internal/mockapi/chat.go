package mockapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// ChatServer is a loopback mock of OpenAI's Chat Completions API, the API that GitHub Copilot
// CLI (1.0.102, in its BYOK mode) and Qwen Code (0.24.4, with an OpenAI-compatible provider)
// talk to: POST /v1/chat/completions, streamed (SSE data lines ending in "data: [DONE]") when the
// body says "stream":true, else one JSON chat.completion; GET /v1/models. Each request is
// recorded and, when it is a chat completion, parsed into a ChatRequest. Create it with
// NewChatServer; it is closed by t.Cleanup.
type ChatServer struct {
	// URL is the base URL for the agents' provider settings, "http://127.0.0.1:PORT/v1". With
	// WithNetNS it is only reachable from processes started by Start or Run.
	URL string

	h    ChatHandler
	side ChatHandler
	*exchanges[ChatRequest, ChatReply, *ChatRequest]
}

// ChatHandler scripts the replies to the agent's chat completion requests.
type ChatHandler interface {
	Reply(r *ChatRequest) ChatReply
}

// ChatHandlerFunc adapts a function to ChatHandler.
type ChatHandlerFunc func(r *ChatRequest) ChatReply

// Reply calls f(r).
func (f ChatHandlerFunc) Reply(r *ChatRequest) ChatReply { return f(r) }

// ChatScript serves a fixed sequence of replies, one per agent request (side requests never
// reach it), repeating the last once exhausted (default: ChatText("mock reply")).
type ChatScript struct {
	Replies []ChatReply

	mu sync.Mutex
	n  int
}

// Reply implements ChatHandler.
func (s *ChatScript) Reply(*ChatRequest) ChatReply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	return pick(s.Replies, s.n, ChatText("mock reply"))
}

// WithChatSideHandler replaces the default replies to side requests (ChatRequest.IsSide); the
// default answers DefaultChatSideReply.
func WithChatSideHandler(h ChatHandler) Option { return func(c *config) { c.sideChat = h } }

// NewChatServer starts a mock. h answers the agent's requests (nil answers ChatText("mock
// reply")); side requests never reach it. Of the options, WithNetNS, WithChatSideHandler and
// WithQuiet apply.
func NewChatServer(t testing.TB, h ChatHandler, opts ...Option) *ChatServer {
	t.Helper()
	c := configure(opts)
	if h == nil {
		h = &ChatScript{}
	}
	s := &ChatServer{h: h, side: c.sideChat}
	if s.side == nil {
		s.side = ChatHandlerFunc(DefaultChatSideReply)
	}
	s.exchanges = newExchanges[ChatRequest, ChatReply](t, c)
	s.URL = s.start(c.netns, s.serveHTTP) + "/v1"
	return s
}

// Turns returns the agent's chat completion requests (side requests excluded), in order.
func (s *ChatServer) Turns() []ChatRequest {
	var out []ChatRequest
	for _, r := range s.Requests() {
		if r.IsChat() && !r.IsSide() {
			out = append(out, r)
		}
	}
	return out
}

// ChatModels are the models GET /v1/models lists: the ones CopilotEnv and QwenEnv ask for
// (CopilotModel, QwenModel). Neither CLI asked for the list in our runs.
var ChatModels = []string{"gpt-4.1", "mock-model"}

func (s *ChatServer) serveHTTP(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	r := &ChatRequest{
		Time: time.Now(), Method: hr.Method, Path: hr.URL.Path, Query: hr.URL.RawQuery,
		Header: hr.Header.Clone(), Body: body,
	}
	if r.IsChat() {
		if err := r.parseBody(); err != nil {
			s.t.Errorf("mockapi: request to %s: %v", r.Path, err)
		}
	}
	seq := s.record(r, r.numbered)

	switch {
	case r.IsChat():
	case hr.Method == http.MethodGet && strings.HasSuffix(strings.TrimSuffix(r.Path, "/"), "/models"):
		var data []any
		for _, m := range ChatModels {
			data = append(data, map[string]any{"id": m, "object": "model", "created": 0, "owned_by": "mockapi"})
		}
		s.logf("#%d %s %s -> %d models", seq, r.Method, r.Path, len(data))
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
		return
	default:
		// Neither CLI made another request in our runs; a new one shows up here.
		writeChatError(w, ChatError{Status: http.StatusNotFound, Type: "not_found", Message: s.notMocked(seq, hr)})
		return
	}

	s.answer(w, hr, r, seq, func(view *ChatRequest) ChatReply {
		if view.IsSide() {
			return s.side.Reply(view).normalize(r)
		}
		return s.h.Reply(view).normalize(r)
	}, func(msg string) ChatReply { return ChatFailure(500, "server_error", msg).normalize(r) })
}

func (r *ChatRequest) numbered(seq int)      { r.Seq = seq }
func (r *ChatRequest) answered(p *ChatReply) { r.Reply = p }
func (r *ChatRequest) sent()                 { r.Sent = true }

func (r *ChatRequest) describe(p ChatReply) string {
	who := "agent"
	if r.IsSide() {
		who = "side"
	}
	return fmt.Sprintf("%s model=%s stream=%v; last: %s -> %s", who, r.Model, r.Stream, r.lastMessageSummary(), p.summary())
}

func (r *ChatRequest) send(w http.ResponseWriter, p ChatReply, done <-chan struct{}) error {
	if r.Stream {
		return p.writeSSE(w, r.IncludeUsage, done)
	}
	return p.writeJSON(w)
}

// ChatRequest is one request an agent made, parsed when it is POST .../chat/completions.
type ChatRequest struct {
	Seq    int // 1, 2, ... in arrival order
	Time   time.Time
	Method string
	Path   string
	Query  string
	Header http.Header
	Body   []byte

	Model string
	// Stream is "stream"; IncludeUsage is "stream_options.include_usage" (both CLIs send
	// true for both).
	Stream, IncludeUsage bool
	// Messages is "messages": the whole conversation so far, system prompt first.
	Messages []ChatMessage
	// Tools names the functions offered ("bash", "view", ... for copilot;
	// "run_shell_command", "read_file", ... for qwen).
	Tools []string

	Reply *ChatReply // what was answered (nil while in flight)
	Sent  bool       // the whole reply was written
}

// ChatMessage is one entry of a request's "messages".
type ChatMessage struct {
	Role string // "system", "user", "assistant" or "tool"
	// Content is the message's content: a string is one "text" part.
	Content []ContentPart
	// ToolCalls are an assistant message's calls.
	ToolCalls []ChatToolCall
	// ToolCallID is the call a "tool" message answers.
	ToolCallID string
	Raw        json.RawMessage
}

// Text joins the text parts of the message with newlines.
func (m ChatMessage) Text() string { return joinText(m.Content) }

// IsChat says whether r is a chat completion request (POST .../chat/completions).
func (r *ChatRequest) IsChat() bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/chat/completions")
}

// ChatSideMarkers mark a chat completion request as a side request although it offers tools:
// Qwen Code 0.24.4's background managed-memory extraction and "dream", its auto-mode safety
// classifier and the TUI's next-prompt suggestion (each seen in offline runs of Qwen Code).
// A -p run sends the memory extraction after the answer; answered as a turn, it would take the
// next scripted reply.
var ChatSideMarkers = []string{
	"managed memory extraction subagent",
	"You are performing a managed memory dream",
	"You are a security classifier",
	"[SUGGESTION MODE",
}

// IsSide says whether the request is an auxiliary model call rather than the agent's turn: it
// offers no tools, or its body holds one of ChatSideMarkers.
func (r *ChatRequest) IsSide() bool {
	if !r.IsChat() {
		return false
	}
	if len(r.Tools) == 0 {
		return true
	}
	for _, m := range ChatSideMarkers {
		if strings.Contains(string(r.Body), m) {
			return true
		}
	}
	return false
}

// LastMessage returns the conversation's last message.
func (r *ChatRequest) LastMessage() (ChatMessage, bool) {
	if len(r.Messages) == 0 {
		return ChatMessage{}, false
	}
	return r.Messages[len(r.Messages)-1], true
}

// LastUserText returns the text of the last "user" message, or "". Copilot puts
// "<current_datetime>…</current_datetime>\n\n" before what was typed (UserPrompt cuts it).
func (r *ChatRequest) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Text()
		}
	}
	return ""
}

// copilotDatetime is what Copilot CLI 1.0.102 puts before every user message it sends, the
// prompt and a Stop hook's reason alike.
var copilotDatetime = regexp.MustCompile(`^<current_datetime>[^<]*</current_datetime>\n\n`)

// UserPrompt returns the last message's text when it is the user's (a prompt, or a stop
// hook's reason the model has not answered yet), without Copilot's leading
// <current_datetime> element; "" when the conversation ends otherwise (a tool result, an
// assistant message).
func (r *ChatRequest) UserPrompt() string {
	m, ok := r.LastMessage()
	if !ok || m.Role != "user" {
		return ""
	}
	return copilotDatetime.ReplaceAllString(m.Text(), "")
}

// ToolResults returns the "tool" messages, in order.
func (r *ChatRequest) ToolResults() []ChatMessage {
	var out []ChatMessage
	for _, m := range r.Messages {
		if m.Role == "tool" {
			out = append(out, m)
		}
	}
	return out
}

// ToolResult returns the "tool" message answering a call id.
func (r *ChatRequest) ToolResult(callID string) (ChatMessage, bool) {
	for _, m := range r.ToolResults() {
		if m.ToolCallID == callID {
			return m, true
		}
	}
	return ChatMessage{}, false
}

// Assistant returns the assistant messages, in order.
func (r *ChatRequest) Assistant() []ChatMessage {
	var out []ChatMessage
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			out = append(out, m)
		}
	}
	return out
}

func (r *ChatRequest) clone() ChatRequest {
	c := *r
	c.Header = r.Header.Clone()
	c.Messages = append([]ChatMessage(nil), r.Messages...)
	c.Tools = append([]string(nil), r.Tools...)
	if r.Reply != nil {
		rep := r.Reply.clone()
		c.Reply = &rep
	}
	return c
}

func (r *ChatRequest) parseBody() error {
	var b struct {
		Model         string `json:"model"`
		Stream        bool   `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		Messages []json.RawMessage `json:"messages"`
		Tools    []struct {
			Type     string `json:"type"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &b); err != nil {
		return fmt.Errorf("body is not JSON: %w", err)
	}
	r.Model, r.Stream, r.IncludeUsage = b.Model, b.Stream, b.StreamOptions.IncludeUsage
	for _, t := range b.Tools {
		r.Tools = append(r.Tools, t.Function.Name)
	}
	for _, raw := range b.Messages {
		var m struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return fmt.Errorf("message %s: %w", clip(string(raw), 80), err)
		}
		msg := ChatMessage{Role: m.Role, ToolCallID: m.ToolCallID, Raw: raw}
		if string(m.Content) != "null" {
			msg.Content = parseParts(m.Content)
		}
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, ChatToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		r.Messages = append(r.Messages, msg)
	}
	return nil
}

func (r *ChatRequest) lastMessageSummary() string {
	m, ok := r.LastMessage()
	if !ok {
		return "none"
	}
	if m.Role == "tool" {
		return fmt.Sprintf("tool %s %q", m.ToolCallID, clip(m.Text(), 80))
	}
	text := ""
	if len(m.Content) > 0 {
		// Qwen's first user message holds reminders first and the prompt last.
		text = m.Content[len(m.Content)-1].Text
	}
	return fmt.Sprintf("%s %q", m.Role, clip(text, 100))
}
