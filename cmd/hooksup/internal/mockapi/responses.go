package mockapi

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// ResponsesServer is a loopback mock of the OpenAI Responses API for the Codex CLI
// (0.169.0): POST /v1/responses with "stream":true, answered with the SSE events Codex
// accepts. Each request is parsed into a ResponsesRequest and recorded. Create it with
// NewResponsesServer; it is closed by t.Cleanup.
type ResponsesServer struct {
	// URL is the base URL for a Codex model provider, "http://127.0.0.1:PORT/v1". With
	// WithNetNS it is only reachable from processes started by Start or Run.
	URL string

	h    ResponsesHandler
	side ResponsesHandler
	*exchanges[ResponsesRequest, ResponsesReply, *ResponsesRequest]
}

// ResponsesHandler scripts the replies to Codex's model requests.
type ResponsesHandler interface {
	Reply(r *ResponsesRequest) ResponsesReply
}

// ResponsesHandlerFunc adapts a function to ResponsesHandler.
type ResponsesHandlerFunc func(r *ResponsesRequest) ResponsesReply

// Reply calls f(r).
func (f ResponsesHandlerFunc) Reply(r *ResponsesRequest) ResponsesReply { return f(r) }

// ResponsesScript serves a fixed sequence of replies to the main agent's requests and a
// separate one to subagents' (ResponsesRequest.IsSubagent), one reply per request, each
// sequence repeating its last reply once exhausted (defaults: OutputText("mock reply"),
// OutputText("mock subagent reply")).
type ResponsesScript struct {
	Replies  []ResponsesReply
	Subagent []ResponsesReply

	mu         sync.Mutex
	main, subs int
}

// Reply implements ResponsesHandler.
func (s *ResponsesScript) Reply(r *ResponsesRequest) ResponsesReply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.IsSubagent() {
		s.subs++
		return pick(s.Subagent, s.subs, OutputText("mock subagent reply"))
	}
	s.main++
	return pick(s.Replies, s.main, OutputText("mock reply"))
}

// SpawnAndWait answers the main agent as one that hands a task to a subagent and waits for it:
// SpawnAgent(message) first, then Codex 0.169.0's wait_agent on the agent id spawn_agent
// returned, then final; every subagent request is answered sub. Without an agent id in the
// spawn_agent output it fails t and answers final at once.
func SpawnAndWait(t testing.TB, message string, sub, final ResponsesReply) ResponsesHandler {
	var mu sync.Mutex
	mains := 0
	return ResponsesHandlerFunc(func(r *ResponsesRequest) ResponsesReply {
		if r.IsSubagent() {
			return sub
		}
		mu.Lock()
		defer mu.Unlock()
		mains++
		switch mains {
		case 1:
			return SpawnAgent(message)
		case 2:
			outs := r.FunctionOutputs()
			var spawned struct {
				AgentID string `json:"agent_id"`
			}
			if len(outs) == 0 || json.Unmarshal([]byte(outs[len(outs)-1].Output), &spawned) != nil || spawned.AgentID == "" {
				t.Errorf("mockapi: no agent id in the spawn_agent output: %+v", outs)
				return final
			}
			return ResponsesReply{Calls: []FunctionCall{{Namespace: "multi_agent_v1", Name: "wait_agent",
				Arguments: map[string]any{"targets": []string{spawned.AgentID}, "timeout_ms": 30000}}}}
		}
		return final
	})
}

// NewResponsesServer starts a mock. h answers the main agent's and subagents' requests (nil
// answers OutputText("mock reply")); side requests (IsSide: the TUI's thread title) never
// reach it. Of the options, WithNetNS, WithResponsesSideHandler and WithQuiet apply.
func NewResponsesServer(t testing.TB, h ResponsesHandler, opts ...Option) *ResponsesServer {
	t.Helper()
	c := configure(opts)
	if h == nil {
		h = ResponsesHandlerFunc(func(*ResponsesRequest) ResponsesReply { return OutputText("mock reply") })
	}
	s := &ResponsesServer{h: h, side: c.sideResponses}
	if s.side == nil {
		s.side = ResponsesHandlerFunc(DefaultResponsesSideReply)
	}
	s.exchanges = newExchanges[ResponsesRequest, ResponsesReply](t, c)
	s.URL = s.start(c.netns, s.serveHTTP) + "/v1"
	return s
}

// Model returns the agents' model requests (POST /v1/responses, main agent and subagents,
// side requests excluded), in order.
func (s *ResponsesServer) Model() []ResponsesRequest {
	var out []ResponsesRequest
	for _, r := range s.Requests() {
		if r.IsResponses() && !r.IsSide() {
			out = append(out, r)
		}
	}
	return out
}

func (s *ResponsesServer) serveHTTP(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	r := &ResponsesRequest{
		Time: time.Now(), Method: hr.Method, Path: hr.URL.Path, Query: hr.URL.RawQuery,
		Header: hr.Header.Clone(), Body: body,
	}
	if r.IsResponses() {
		if err := r.parseBody(); err != nil {
			s.t.Errorf("mockapi: request to %s: %v", r.Path, err)
		}
	}
	seq := s.record(r, r.numbered)

	if !r.IsResponses() {
		// Codex 0.169.0 made no other request in our runs; a new one shows up here.
		writeResponsesError(w, ResponsesError{Status: http.StatusNotFound, Type: "not_found", Message: s.notMocked(seq, hr)})
		return
	}
	s.answer(w, hr, r, seq, func(view *ResponsesRequest) ResponsesReply {
		if view.IsSide() {
			return s.side.Reply(view).normalize(seq)
		}
		return s.h.Reply(view).normalize(seq)
	}, func(msg string) ResponsesReply {
		return ResponsesReply{Error: &ResponsesError{Status: 500, Type: "server_error", Message: msg}}.normalize(seq)
	})
}

func (r *ResponsesRequest) numbered(seq int)           { r.Seq = seq }
func (r *ResponsesRequest) answered(p *ResponsesReply) { r.Reply = p }
func (r *ResponsesRequest) sent()                      { r.Sent = true }

func (r *ResponsesRequest) describe(p ResponsesReply) string {
	who := "main"
	if r.IsSubagent() {
		who = "subagent"
	} else if r.IsSide() {
		who = "side(" + r.ThreadSource() + ")"
	}
	return fmt.Sprintf("%s model=%s stream=%v; last input: %s -> %s", who, r.Model, r.Stream, r.lastInputSummary(), p.summary())
}

func (r *ResponsesRequest) send(w http.ResponseWriter, p ResponsesReply, done <-chan struct{}) error {
	return p.writeSSE(w, done)
}

// ResponsesRequest is one request Codex made, parsed when it is POST /v1/responses.
type ResponsesRequest struct {
	Seq    int // 1, 2, ... in arrival order
	Time   time.Time
	Method string
	Path   string
	Query  string
	Header http.Header
	Body   []byte

	Model string
	// TextFormat is "text.format" (a structured-output schema; the title request has one).
	TextFormat json.RawMessage
	// Stream is "stream" (Codex 0.169.0 always sends true).
	Stream bool
	// Input is "input": the whole conversation so far, as Codex sends it on every turn.
	Input []InputItem
	// Tools names the tools offered ("exec_command", "write_stdin", ...).
	Tools []string

	Reply *ResponsesReply // what was answered (nil while in flight)
	Sent  bool            // the whole reply was written
}

// InputItem is one item of a request's "input".
type InputItem struct {
	Type    string        // "message", "function_call", "function_call_output", "reasoning", ...
	Role    string        // message: "developer", "user" or "assistant"
	Content []ContentPart // message
	CallID  string        // function_call, function_call_output
	Name    string        // function_call
	// Arguments is a function_call's arguments (a JSON text).
	Arguments string
	// Output is a function_call_output's output, as text.
	Output string
	Raw    json.RawMessage
}

// ContentPart is one part of a message's content ("input_text", "output_text", ...).
type ContentPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// Text joins the text parts of a message item.
func (it InputItem) Text() string { return joinText(it.Content) }

// joinText joins the non-empty texts of parts with newlines.
func joinText(parts []ContentPart) string {
	var texts []string
	for _, c := range parts {
		if c.Text != "" {
			texts = append(texts, c.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// IsResponses says whether r is a model request (POST .../responses).
func (r *ResponsesRequest) IsResponses() bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/responses")
}

// SubagentHeader is the header Codex 0.169.0 sends on a subagent's model requests (value
// "collab_spawn" for agents spawned with multi_agent_v1's spawn_agent); the main agent's
// requests lack it.
const SubagentHeader = "X-Openai-Subagent"

// IsSubagent says whether a subagent made the request.
func (r *ResponsesRequest) IsSubagent() bool { return r.Header.Get(SubagentHeader) != "" }

// ThreadSource returns "thread_source" from the x-codex-turn-metadata header Codex sends
// with every model request: "user" for the main agent, "subagent", "thread_title" for the
// TUI's title request ("" when absent).
func (r *ResponsesRequest) ThreadSource() string {
	var md struct {
		ThreadSource string `json:"thread_source"`
	}
	_ = json.Unmarshal([]byte(r.Header.Get("X-Codex-Turn-Metadata")), &md)
	return md.ThreadSource
}

// IsSide says whether the request is one of Codex's auxiliary model calls rather than an
// agent's turn. Seen with 0.169.0: the TUI asks, alongside the first turn, for a thread title
// (no tools, "text.format" a JSON schema {title}, thread_source "thread_title"); codex exec
// made none. Agents' turns always offer tools.
func (r *ResponsesRequest) IsSide() bool {
	return r.IsResponses() && (len(r.Tools) == 0 || r.ThreadSource() == "thread_title")
}

// Messages returns the message items of the input with one of the roles (all if none), in
// order.
func (r *ResponsesRequest) Messages(roles ...string) []InputItem {
	var out []InputItem
	for _, it := range r.Input {
		if it.Type != "message" {
			continue
		}
		if len(roles) == 0 || contains(roles, it.Role) {
			out = append(out, it)
		}
	}
	return out
}

// LastInputText returns the text of the last message item whose role is one of roles
// (default "user" and "developer"), or "".
func (r *ResponsesRequest) LastInputText(roles ...string) string {
	if len(roles) == 0 {
		roles = []string{"user", "developer"}
	}
	ms := r.Messages(roles...)
	if len(ms) == 0 {
		return ""
	}
	return ms[len(ms)-1].Text()
}

// hookPromptRE matches what Codex 0.169.0 sends the model after a Stop (or SubagentStop)
// hook blocked: a user message item whose text is
//
//	<hook_prompt hook_run_id="stop:0:/&lt;session-flags&gt;/config.toml">REASON-X</hook_prompt>
//
// the reason XML-escaped, the run id naming the event, the hook's index and its source
// (seen with a block from a hook defined by -c overrides; the next request's input ends with
// that item, after the assistant message that was blocked).
var hookPromptRE = regexp.MustCompile(`(?s)<hook_prompt hook_run_id="([^"]*)">(.*?)</hook_prompt>`)

// HookPrompt is a Stop/SubagentStop hook's block reason as Codex passed it to the model.
type HookPrompt struct {
	RunID  string // e.g. "stop:0:/<session-flags>/config.toml" (unescaped)
	Reason string // unescaped
}

// HookPrompts returns the hook block reasons in the request's user messages, in order.
func (r *ResponsesRequest) HookPrompts() []HookPrompt {
	var out []HookPrompt
	for _, it := range r.Messages("user") {
		for _, m := range hookPromptRE.FindAllStringSubmatch(it.Text(), -1) {
			out = append(out, HookPrompt{RunID: html.UnescapeString(m[1]), Reason: html.UnescapeString(m[2])})
		}
	}
	return out
}

// LastHookPrompt returns the reason of the last hook prompt when it is the request's last
// user message (a block the model has not answered yet), else "".
func (r *ResponsesRequest) LastHookPrompt() string {
	ms := r.Messages("user")
	if len(ms) == 0 {
		return ""
	}
	m := hookPromptRE.FindAllStringSubmatch(ms[len(ms)-1].Text(), -1)
	if len(m) == 0 {
		return ""
	}
	return html.UnescapeString(m[len(m)-1][2])
}

// FunctionOutputs returns the function_call_output items of the input, in order.
func (r *ResponsesRequest) FunctionOutputs() []InputItem {
	var out []InputItem
	for _, it := range r.Input {
		if it.Type == "function_call_output" {
			out = append(out, it)
		}
	}
	return out
}

// FunctionOutput returns the output for a call id.
func (r *ResponsesRequest) FunctionOutput(callID string) (InputItem, bool) {
	for _, it := range r.FunctionOutputs() {
		if it.CallID == callID {
			return it, true
		}
	}
	return InputItem{}, false
}

func (r *ResponsesRequest) clone() ResponsesRequest {
	c := *r
	c.Header = r.Header.Clone()
	c.Input = append([]InputItem(nil), r.Input...)
	c.Tools = append([]string(nil), r.Tools...)
	c.TextFormat = append(json.RawMessage(nil), r.TextFormat...)
	if r.Reply != nil {
		rep := *r.Reply
		c.Reply = &rep
	}
	return c
}

func (r *ResponsesRequest) parseBody() error {
	var b struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
		Text   struct {
			Format json.RawMessage `json:"format"`
		} `json:"text"`
		Input []json.RawMessage `json:"input"`
		Tools []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &b); err != nil {
		return fmt.Errorf("body is not JSON: %w", err)
	}
	r.Model, r.Stream, r.TextFormat = b.Model, b.Stream, b.Text.Format
	for _, t := range b.Tools {
		name := t.Name
		if name == "" {
			name = t.Type
		}
		r.Tools = append(r.Tools, name)
	}
	for _, raw := range b.Input {
		var it struct {
			Type      string          `json:"type"`
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			CallID    string          `json:"call_id"`
			Name      string          `json:"name"`
			Arguments string          `json:"arguments"`
			Output    json.RawMessage `json:"output"`
		}
		if err := json.Unmarshal(raw, &it); err != nil {
			return fmt.Errorf("input item %s: %w", clip(string(raw), 80), err)
		}
		item := InputItem{Type: it.Type, Role: it.Role, CallID: it.CallID, Name: it.Name, Arguments: it.Arguments, Raw: raw}
		if item.Type == "" && item.Role != "" {
			item.Type = "message"
		}
		item.Content = parseParts(it.Content)
		item.Output = outputText(it.Output)
		r.Input = append(r.Input, item)
	}
	return nil
}

// parseParts reads a message's content: a string or a list of parts.
func parseParts(raw json.RawMessage) []ContentPart {
	if len(raw) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []ContentPart{{Type: "input_text", Text: s}}
	}
	var parts []ContentPart
	_ = json.Unmarshal(raw, &parts)
	return parts
}

// outputText reads a function_call_output's output: a string, or a list of content parts.
func outputText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []ContentPart
	if json.Unmarshal(raw, &parts) == nil {
		var texts []string
		for _, p := range parts {
			texts = append(texts, p.Text)
		}
		return strings.Join(texts, "\n")
	}
	return string(raw)
}

func (r *ResponsesRequest) lastInputSummary() string {
	if len(r.Input) == 0 {
		return "none"
	}
	it := r.Input[len(r.Input)-1]
	switch it.Type {
	case "message":
		return fmt.Sprintf("%s %q", it.Role, clip(it.Text(), 100))
	case "function_call_output":
		return fmt.Sprintf("function_call_output %s %q", it.CallID, clip(it.Output, 80))
	default:
		return it.Type
	}
}
