package mockapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// Kind says what a recorded request was.
type Kind int

const (
	// KindOther is any request the mock does not implement; it gets a 404
	// Anthropic-style error.
	KindOther Kind = iota
	// KindMain is a main-agent (conversation) POST /v1/messages request.
	KindMain
	// KindSubagent is a POST /v1/messages request made by a subagent
	// (cc_is_subagent=true in the first system block).
	KindSubagent
	// KindSide is an auxiliary POST /v1/messages request (title generation,
	// quota probe, permission classifier, ...); see the package comment.
	KindSide
	// KindCountTokens is POST /v1/messages/count_tokens.
	KindCountTokens
	// KindHello is HEAD or GET /api/hello.
	KindHello
	// KindModels is GET /v1/models or /v1/models/{id}.
	KindModels
)

func (k Kind) String() string {
	switch k {
	case KindMain:
		return "main"
	case KindSubagent:
		return "subagent"
	case KindSide:
		return "side"
	case KindCountTokens:
		return "count_tokens"
	case KindHello:
		return "hello"
	case KindModels:
		return "models"
	default:
		return "other"
	}
}

// Block is one content block of a message (or a system block). Only the
// fields of its Type are set.
type Block struct {
	Type string `json:"type"`
	// text, thinking
	Text     string `json:"text,omitempty"`
	Thinking string `json:"thinking,omitempty"`
	// tool_use
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// tool_result: Content is a JSON string or an array of blocks.
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

// ResultText returns the text of a tool_result block: its string content, or
// the text blocks of its array content joined by newlines.
func (b Block) ResultText() string {
	return contentText(b.Content)
}

// Message is one entry of the request's messages array. Claude Code 2.1.330
// sends roles "user", "assistant" and "system". A string content is
// normalised into a single text block.
type Message struct {
	Role    string  `json:"role"`
	Content []Block `json:"content"`
}

// Text returns the message's text blocks joined by newlines (tool results and
// tool uses are left out).
func (m Message) Text() string {
	var parts []string
	for _, b := range m.Content {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Tool is one entry of the request's tools array.
type Tool struct {
	Name        string          `json:"name"`
	Type        string          `json:"type,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
}

// Request is one HTTP request received by the mock. For /v1/messages and
// /v1/messages/count_tokens the JSON body is parsed into the fields below
// Body; for other paths they are zero.
type Request struct {
	Seq    int // 1-based arrival order among all requests to this server
	Time   time.Time
	Method string
	Path   string // URL path, without the query
	Query  string // raw query ("beta=true")
	Header http.Header
	Body   []byte
	Kind   Kind
	// SideReason says why a request was classified KindSide.
	SideReason string

	Model     string
	MaxTokens int
	Stream    bool
	System    []Block
	Messages  []Message
	Tools     []Tool
	ParseErr  string // non-empty when a messages body did not parse

	// Filled in when the reply is served (visible in Server.Requests()).
	Reply *Reply // the reply served to a messages request (nil otherwise)
	Usage Usage  // the usage served with it (zero for errors and non-messages)
	Sent  bool   // the whole reply was written (not cut short by the client)
	// HungUp: the client gave up on the request while its reply was delayed (claude on
	// Escape).
	HungUp bool
	// KindIndex is the 1-based position of this request among the requests
	// of its Kind (the 2nd main-agent request has KindIndex 2).
	KindIndex int
}

// IsMessages reports whether r is a POST /v1/messages request (main,
// subagent or side).
func (r *Request) IsMessages() bool {
	return r.Kind == KindMain || r.Kind == KindSubagent || r.Kind == KindSide
}

// IsSubagent reports whether the first system block carries
// cc_is_subagent=true, which is how Claude Code marks subagent requests.
func (r *Request) IsSubagent() bool {
	return len(r.System) > 0 && strings.Contains(r.System[0].Text, "cc_is_subagent=true")
}

// AgentID returns the subagent's id (the agent_id hooks see) from the
// X-Claude-Code-Agent-Id header; "" for main-agent requests.
func (r *Request) AgentID() string { return r.Header.Get("X-Claude-Code-Agent-Id") }

// AgentType returns the subagent type (X-Claude-Code-Agent-Type header),
// e.g. "general-purpose"; "" for main-agent requests.
func (r *Request) AgentType() string { return r.Header.Get("X-Claude-Code-Agent-Type") }

// SessionID returns the X-Claude-Code-Session-Id header (the session_id
// hooks see; subagents send their parent's).
func (r *Request) SessionID() string { return r.Header.Get("X-Claude-Code-Session-Id") }

// PromptID returns the X-Claude-Code-Prompt-Id header (the prompt_id hooks
// see).
func (r *Request) PromptID() string { return r.Header.Get("X-Claude-Code-Prompt-Id") }

// SystemText returns all system blocks' text joined by newlines.
func (r *Request) SystemText() string {
	var parts []string
	for _, b := range r.System {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

// LastUser returns the last message with role "user" (skipping the
// role:"system" messages Claude Code puts after it).
func (r *Request) LastUser() (Message, bool) {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i], true
		}
	}
	return Message{}, false
}

// LastUserText returns the text blocks of the last user message joined by
// newlines. It includes the <system-reminder> blocks Claude Code adds and,
// after a Stop hook blocked, the "Stop hook feedback:\n<reason>" text.
func (r *Request) LastUserText() string {
	m, _ := r.LastUser()
	return m.Text()
}

// ToolResults returns the tool_result blocks of the last user message.
func (r *Request) ToolResults() []Block {
	m, _ := r.LastUser()
	var out []Block
	for _, b := range m.Content {
		if b.Type == "tool_result" {
			out = append(out, b)
		}
	}
	return out
}

// ToolResult finds the tool_result for toolUseID anywhere in the messages.
func (r *Request) ToolResult(toolUseID string) (Block, bool) {
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if b.Type == "tool_result" && b.ToolUseID == toolUseID {
				return b, true
			}
		}
	}
	return Block{}, false
}

// ToolNames returns the names of the offered tools, in order.
func (r *Request) ToolNames() []string {
	out := make([]string, 0, len(r.Tools))
	for _, t := range r.Tools {
		out = append(out, t.Name)
	}
	return out
}

// HasTool reports whether a tool with this name is offered.
func (r *Request) HasTool(name string) bool {
	for _, t := range r.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// clone returns a deep-enough copy for handing out (slices are copied; the
// parsed blocks are immutable once recorded).
func (r *Request) clone() Request {
	c := *r
	c.Header = r.Header.Clone()
	c.Body = append([]byte(nil), r.Body...)
	c.System = append([]Block(nil), r.System...)
	c.Messages = append([]Message(nil), r.Messages...)
	c.Tools = append([]Tool(nil), r.Tools...)
	if r.Reply != nil {
		rep := r.Reply.clone()
		c.Reply = &rep
	}
	return c
}

// wireRequest is the JSON shape of a messages request.
type wireRequest struct {
	Model     string          `json:"model"`
	MaxTokens int             `json:"max_tokens"`
	Stream    bool            `json:"stream"`
	System    json.RawMessage `json:"system"`
	Messages  []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []Tool `json:"tools"`
}

// parseBody fills the parsed fields of r from a messages JSON body.
func (r *Request) parseBody() {
	var w wireRequest
	if err := json.Unmarshal(r.Body, &w); err != nil {
		r.ParseErr = err.Error()
		return
	}
	r.Model, r.MaxTokens, r.Stream, r.Tools = w.Model, w.MaxTokens, w.Stream, w.Tools
	var err error
	if r.System, err = parseContent(w.System); err != nil {
		r.ParseErr = "system: " + err.Error()
	}
	for _, m := range w.Messages {
		blocks, err := parseContent(m.Content)
		if err != nil && r.ParseErr == "" {
			r.ParseErr = "messages: " + err.Error()
		}
		r.Messages = append(r.Messages, Message{Role: m.Role, Content: blocks})
	}
}

// parseContent accepts a JSON string, an array of blocks, or nothing.
func parseContent(raw json.RawMessage) ([]Block, error) {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return []Block{{Type: "text", Text: s}}, nil
	}
	var blocks []Block
	err := json.Unmarshal(raw, &blocks)
	return blocks, err
}

// contentText flattens a tool_result content (string or blocks) to text.
func contentText(raw json.RawMessage) string {
	blocks, err := parseContent(raw)
	if err != nil {
		return string(raw)
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
