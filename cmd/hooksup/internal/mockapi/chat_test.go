package mockapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// These tests talk to the Chat Completions mock directly over HTTP (no agent, host loopback)
// to pin its wire format and its parsing of what the agents sent.

func postChat(t *testing.T, url string, body any) *http.Response {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(url+"/chat/completions", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// readChatSSE reads a chat completion stream: the data lines' JSON chunks, and whether it
// ended with "data: [DONE]". Any other line than data lines and blank lines fails the test.
func readChatSSE(t *testing.T, r io.Reader) (chunks []map[string]any, done bool) {
	t.Helper()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
		case line == "data: [DONE]":
			done = true
		case strings.HasPrefix(line, "data: ") && !done:
			var c map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &c); err != nil {
				t.Fatalf("bad chunk %q: %v", line, err)
			}
			chunks = append(chunks, c)
		default:
			t.Fatalf("unexpected line %q", line)
		}
	}
	return chunks, done
}

func chatBody(stream bool, tools ...string) map[string]any {
	var ts []any
	for _, name := range tools {
		ts = append(ts, map[string]any{"type": "function", "function": map[string]any{"name": name, "parameters": map[string]any{}}})
	}
	b := map[string]any{
		"model": "gpt-4.1", "stream": stream,
		"messages": []any{
			map[string]any{"role": "system", "content": "be brief"},
			map[string]any{"role": "user", "content": "<current_datetime>2026-11-27T15:19:57.834+00:00</current_datetime>\n\nhello"},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "bash", "arguments": `{"command":"ls"}`}}}},
			map[string]any{"role": "tool", "tool_call_id": "c1", "content": []any{map[string]any{"type": "text", "text": "a.txt"}}},
		},
	}
	if stream {
		b["stream_options"] = map[string]any{"include_usage": true}
	}
	if ts != nil {
		b["tools"] = ts
	}
	return b
}

// A streamed reply is bare data lines (no "event:" line), the text and a call's arguments in
// pieces that add up, then the finish reason, the usage chunk, [DONE]; the request is parsed.
func TestChatStreamWireFormat(t *testing.T) {
	srv := NewChatServer(t, &ChatScript{Replies: []ChatReply{
		CopilotBash("echo hi", "say hi").WithText("running it"),
		ChatText("done"),
	}})
	resp := postChat(t, srv.URL, chatBody(true, "bash", "view"))
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
	chunks, done := readChatSSE(t, resp.Body)
	if !done {
		t.Fatal("no data: [DONE]")
	}
	var text, args, name, id, finish string
	var usage map[string]any
	for _, c := range chunks {
		if c["object"] != "chat.completion.chunk" || c["id"] != "chatcmpl-mock-1" || c["model"] != "gpt-4.1" {
			t.Errorf("chunk %v", c)
		}
		choices := c["choices"].([]any)
		if len(choices) == 0 {
			usage, _ = c["usage"].(map[string]any)
			continue
		}
		ch := choices[0].(map[string]any)
		if f, ok := ch["finish_reason"].(string); ok {
			finish = f
		}
		d := ch["delta"].(map[string]any)
		if s, ok := d["content"].(string); ok {
			text += s
		}
		if tcs, ok := d["tool_calls"].([]any); ok {
			tc := tcs[0].(map[string]any)
			if v, ok := tc["id"].(string); ok {
				id = v
			}
			fn := tc["function"].(map[string]any)
			if v, ok := fn["name"].(string); ok {
				name = v
			}
			args += fn["arguments"].(string)
		}
	}
	if text != "running it" || name != "bash" || id != "call_mock_1_0" || finish != "tool_calls" {
		t.Errorf("text %q, call %s %s, finish %q", text, name, id, finish)
	}
	var a map[string]any
	if err := json.Unmarshal([]byte(args), &a); err != nil || a["command"] != "echo hi" || a["description"] != "say hi" {
		t.Errorf("arguments %q: %v", args, err)
	}
	if usage == nil || usage["prompt_tokens"] != float64(DefaultChatUsage.PromptTokens) || usage["total_tokens"] != float64(DefaultChatUsage.Total()) {
		t.Errorf("usage %v", usage)
	}

	turns := srv.Turns()
	if len(turns) != 1 {
		t.Fatalf("turns %+v", turns)
	}
	r := turns[0]
	if !r.Stream || !r.IncludeUsage || r.Model != "gpt-4.1" || strings.Join(r.Tools, ",") != "bash,view" {
		t.Errorf("parsed %+v", r)
	}
	if got := r.LastUserText(); !strings.HasSuffix(got, "\n\nhello") {
		t.Errorf("last user text %q", got)
	}
	if got := r.UserPrompt(); got != "" {
		t.Errorf("user prompt %q, want none (the conversation ends with a tool result)", got)
	}
	if m, ok := r.ToolResult("c1"); !ok || m.Text() != "a.txt" {
		t.Errorf("tool result %+v %v", m, ok)
	}
	if as := r.Assistant(); len(as) != 1 || len(as[0].ToolCalls) != 1 || as[0].ToolCalls[0].Arguments != `{"command":"ls"}` {
		t.Errorf("assistant %+v", as)
	}
	if r.Reply == nil || !r.Sent || r.Reply.ToolCalls[0].ID != "call_mock_1_0" {
		t.Errorf("reply %+v sent %v", r.Reply, r.Sent)
	}
}

// Without "stream" the reply is one chat.completion; a request without tools is a side
// request, answered by the side handler without consuming the script; GET /models lists the
// envs' models; anything else is a 404 in OpenAI's error format.
func TestChatJSONSideAndOtherPaths(t *testing.T) {
	srv := NewChatServer(t, &ChatScript{Replies: []ChatReply{ChatText("first"), ChatText("second")}})
	var c struct {
		Object  string `json:"object"`
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	decode := func(resp *http.Response) {
		t.Helper()
		c.Choices = nil
		if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
			t.Fatal(err)
		}
	}
	decode(postChat(t, srv.URL, chatBody(false)))
	if c.Object != "chat.completion" || len(c.Choices) != 1 || !strings.Contains(c.Choices[0].Message.Content, `"title":"Mock title"`) {
		t.Errorf("side reply %+v", c)
	}
	decode(postChat(t, srv.URL, chatBody(false, "bash")))
	if len(c.Choices) != 1 || c.Choices[0].Message.Content != "first" || c.Choices[0].FinishReason != "stop" {
		t.Errorf("turn reply %+v", c)
	}
	side := chatBody(false, "run_shell_command")
	side["messages"] = []any{map[string]any{"role": "user", "content": "You are now acting as the managed memory extraction subagent."}}
	decode(postChat(t, srv.URL, side))
	if len(c.Choices) != 1 || c.Choices[0].Message.Content == "second" {
		t.Errorf("a request with a side marker took the script's reply: %+v", c)
	}

	resp, err := http.Get(srv.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var models struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&models); err != nil || len(models.Data) != len(ChatModels) || models.Data[0].ID != ChatModels[0] {
		t.Errorf("models %+v: %v", models, err)
	}
	resp2, err := http.Post(srv.URL+"/responses", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusNotFound {
		t.Errorf("POST /v1/responses: %d", resp2.StatusCode)
	}
	reqs := srv.Requests()
	if len(reqs) != 5 || len(srv.Turns()) != 1 || !reqs[0].IsSide() || !reqs[2].IsSide() || reqs[3].IsChat() {
		t.Errorf("recorded %d requests, %d turns", len(reqs), len(srv.Turns()))
	}
}

// The requests recorded in offline runs after a stop hook blocked (testdata) parse as the real
// agents' do: the reason is the last user message, after the blocked answer.
func TestChatParsesRecordedRequests(t *testing.T) {
	for _, tc := range []struct {
		file, ua string
		tools    []string
	}{
		{"copilot-1.0.102/request-2-after-block.json", "OpenAI/JS", []string{"bash", "view", "task"}},
		{"qwen-code-0.24.4/request-2-after-block.json", "QwenCode/0.24.4", []string{"agent", "read_file"}},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		var rec struct {
			Headers map[string]string `json:"headers"`
			Body    json.RawMessage   `json:"body"`
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		r := &ChatRequest{Method: http.MethodPost, Path: "/v1/chat/completions", Body: rec.Body}
		if err := r.parseBody(); err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if got := r.UserPrompt(); got != "GATE-NEEDLE-42 stop fix it" {
			t.Errorf("%s: user prompt %q", tc.file, got)
		}
		if as := r.Assistant(); len(as) != 1 || as[0].Text() != "first answer" {
			t.Errorf("%s: assistant %+v", tc.file, as)
		}
		if r.IsSide() || !r.Stream || !r.IncludeUsage {
			t.Errorf("%s: side %v stream %v usage %v", tc.file, r.IsSide(), r.Stream, r.IncludeUsage)
		}
		for _, tool := range tc.tools {
			if !contains(r.Tools, tool) {
				t.Errorf("%s: tools %v lack %s", tc.file, r.Tools, tool)
			}
		}
		if !strings.HasPrefix(rec.Headers["user-agent"], tc.ua) {
			t.Errorf("%s: user agent %q", tc.file, rec.Headers["user-agent"])
		}
	}
}
