package mockapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// runAgent runs the agent bin with args (the command agentCommand makes) against srv, bounded
// by timeout, and fails the test if it timed out.
func runAgent[R any](t *testing.T, srv interface {
	Run(*exec.Cmd) Result
	Requests() []R
}, timeout time.Duration, bin string, args []string, agentCommand func(ctx context.Context, args ...string) *exec.Cmd) Result {
	t.Helper()
	name := bin + " " + clip(strings.Join(args, " "), 60)
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	defer cancel()
	res := srv.Run(agentCommand(ctx, args...))
	if ctx.Err() != nil {
		t.Fatalf("%s timed out after %v (killed)\nstdout: %s\nstderr: %s", name, timeout, res.Stdout, res.Stderr)
	}
	t.Logf("%s: exit %d in %v, %d requests", name, res.ExitCode, res.Duration.Round(time.Millisecond), len(srv.Requests()))
	return res
}

// These tests talk to the server directly over HTTP (no claude, host
// loopback) to pin the wire format.

func post(t *testing.T, url, class string, body any) *http.Response {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Anthropic-Beta", "claude-code-20250219,interleaved-thinking-2025-05-14")
	if class != "" {
		req.Header.Set(RequestClassHeader, class)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

type sseEvent struct {
	Name string
	Data map[string]any
}

func readSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var ev sseEvent
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			ev.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev.Data); err != nil {
				t.Fatalf("bad SSE data %q: %v", line, err)
			}
		case line == "":
			if ev.Name != "" {
				if ev.Data["type"] != ev.Name {
					t.Errorf("event %s has data type %v", ev.Name, ev.Data["type"])
				}
				out = append(out, ev)
			}
			ev = sseEvent{}
		}
	}
	return out
}

func mainBody(text string, stream bool) map[string]any {
	return map[string]any{
		"model":      "claude-opus-5-5",
		"max_tokens": 1000,
		"stream":     stream,
		"system":     []any{map[string]any{"type": "text", "text": "x-anthropic-billing-header: cc_version=2.1.330.1; cc_entrypoint=sdk-cli;"}},
		"messages": []any{
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": text}}},
			map[string]any{"role": "system", "content": "environment"},
		},
		"tools": []any{map[string]any{"name": "Bash", "input_schema": map[string]any{"type": "object"}}},
	}
}

func TestWireFormat(t *testing.T) {
	u := Usage{InputTokens: 1, OutputTokens: 2, CacheCreationInputTokens: 30, CacheReadInputTokens: 4, CacheCreation1hInputTokens: 10}
	srv := NewServer(t, &Script{Main: []Reply{
		Bash("echo hi", "say hi").WithText("Running.").WithUsage(u),
		Text("plain"),
	}})

	// Streaming: a text block and a tool_use block.
	resp := post(t, srv.URL+"/v1/messages?beta=true", "main", mainBody("first", true))
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	evs := readSSE(t, resp.Body)
	var names []string
	for _, e := range evs {
		names = append(names, e.Name)
	}
	want := "message_start ping content_block_start content_block_delta content_block_stop content_block_start content_block_delta content_block_delta content_block_delta content_block_stop message_delta message_stop"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
	msg := evs[0].Data["message"].(map[string]any)
	su := msg["usage"].(map[string]any)
	if su["input_tokens"] != 1.0 || su["output_tokens"] != 1.0 || su["cache_creation_input_tokens"] != 30.0 || su["cache_read_input_tokens"] != 4.0 {
		t.Errorf("message_start usage %v", su)
	}
	cc := su["cache_creation"].(map[string]any)
	if cc["ephemeral_5m_input_tokens"] != 20.0 || cc["ephemeral_1h_input_tokens"] != 10.0 {
		t.Errorf("cache_creation %v", cc)
	}
	tu := evs[5].Data["content_block"].(map[string]any)
	if tu["type"] != "tool_use" || tu["name"] != "Bash" || tu["id"] != "toolu_mock_1_0" {
		t.Errorf("tool_use start %v", tu)
	}
	var partial string
	for _, e := range evs[6:9] {
		partial += e.Data["delta"].(map[string]any)["partial_json"].(string)
	}
	var in map[string]any
	if err := json.Unmarshal([]byte(partial), &in); err != nil || in["command"] != "echo hi" || in["description"] != "say hi" {
		t.Errorf("tool input %q: %v", partial, err)
	}
	md := evs[10].Data
	if md["delta"].(map[string]any)["stop_reason"] != "tool_use" || md["usage"].(map[string]any)["output_tokens"] != 2.0 {
		t.Errorf("message_delta %v", md)
	}

	// Non-streaming, and the script moved on.
	resp = post(t, srv.URL+"/v1/messages", "main", mainBody("second", false))
	var m struct {
		ID         string `json:"id"`
		Content    []Block
		StopReason string `json:"stop_reason"`
		Usage      Usage
	}
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	if len(m.Content) != 1 || m.Content[0].Text != "plain" || m.StopReason != "end_turn" || m.Usage.OutputTokens != DefaultUsage.OutputTokens {
		t.Errorf("JSON reply %+v", m)
	}
	if resp.Header.Get("request-id") == "" {
		t.Error("no request-id header")
	}

	// Side request (by header): does not consume the script.
	resp = post(t, srv.URL+"/v1/messages", "auxiliary", map[string]any{
		"model": "claude-haiku-5-5", "max_tokens": 100,
		"messages":      []any{map[string]any{"role": "user", "content": "name it"}},
		"output_config": map[string]any{"format": map[string]any{"type": "json_schema", "schema": map[string]any{"type": "object", "properties": map[string]any{"title": map[string]any{"type": "string"}}}}},
	})
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	if len(m.Content) != 1 || m.Content[0].Text != `{"title":"Mock title"}` {
		t.Errorf("side reply %+v", m)
	}
	// Third main request: the script repeats its last reply.
	resp = post(t, srv.URL+"/v1/messages", "", mainBody("third", false))
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	if m.Content[0].Text != "plain" {
		t.Errorf("third reply %+v", m)
	}

	// Other endpoints.
	resp = post(t, srv.URL+"/v1/messages/count_tokens", "", mainBody("x", false))
	var ct struct {
		InputTokens int `json:"input_tokens"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&ct); err != nil || ct.InputTokens < 1 {
		t.Errorf("count_tokens %+v %v", ct, err)
	}
	for _, c := range []struct {
		method, path string
		status       int
	}{{"HEAD", "/api/hello", 200}, {"GET", "/api/hello", 200}, {"GET", "/v1/models", 200}, {"GET", "/v1/models/claude-opus-5-5", 200}, {"GET", "/v1/nope", 404}} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, resp.StatusCode, c.status)
		}
	}

	reqs := srv.Requests()
	var kinds []string
	for _, r := range reqs {
		kinds = append(kinds, r.Kind.String())
	}
	if got := strings.Join(kinds, " "); got != "main main side main count_tokens hello hello models models other" {
		t.Errorf("kinds: %s", got)
	}
	m1 := srv.Main()
	if len(m1) != 3 || m1[1].KindIndex != 2 || m1[0].LastUserText() != "first" || !m1[0].HasTool("Bash") || m1[0].Reply == nil {
		t.Errorf("main requests: %d, %+v", len(m1), m1[0].Messages)
	}
	if m1[0].Messages[1].Role != "system" || m1[0].Messages[1].Text() != "environment" {
		t.Errorf("system message not kept: %+v", m1[0].Messages)
	}
	if got, want := srv.Tokens(), u.Add(DefaultUsage).Add(DefaultUsage); got != want {
		t.Errorf("Tokens() = %+v, want %+v", got, want)
	}
	if got := srv.Tokens(KindSide); got != SideUsage {
		t.Errorf("Tokens(KindSide) = %+v", got)
	}
}

func TestClassifyWithoutHeader(t *testing.T) {
	for _, c := range []struct {
		name   string
		req    Request
		want   Kind
		reason string
	}{
		{"main", Request{Tools: []Tool{{Name: "Bash"}}, Header: http.Header{"Anthropic-Beta": {"claude-code-20250219,x"}}}, KindMain, ""},
		{"subagent", Request{Tools: []Tool{{Name: "Bash"}}, Header: http.Header{"Anthropic-Beta": {"claude-code-20250219"}}, System: []Block{{Type: "text", Text: "x-anthropic-billing-header: cc_version=2.1.330.4; cc_is_subagent=true;"}}}, KindSubagent, ""},
		{"title", Request{Header: http.Header{}}, KindSide, "no tools"},
		{"compact", Request{Tools: []Tool{{Name: "Bash"}}, Header: http.Header{"Anthropic-Beta": {"claude-code-20250219"}}, Messages: []Message{{Role: "user", Content: []Block{{Type: "text", Text: compactPrompt + "\n..."}}}}}, KindSide, "compaction"},
		{"no beta", Request{Tools: []Tool{{Name: "Bash"}}, Header: http.Header{}}, KindSide, "no claude-code beta"},
		{"header wins", Request{Header: http.Header{RequestClassHeader: {"main"}}}, KindMain, ""},
		{"header side", Request{Tools: []Tool{{Name: "Bash"}}, Header: http.Header{RequestClassHeader: {"side_reply"}}}, KindSide, "side_reply"},
	} {
		k, reason := Classify(&c.req)
		if k != c.want || reason != c.reason {
			t.Errorf("%s: got %v %q, want %v %q", c.name, k, reason, c.want, c.reason)
		}
	}
}

func TestDelayAndWait(t *testing.T) {
	srv := NewServer(t, HandlerFunc(func(r *Request) Reply {
		return Text("late " + r.LastUserText()).WithDelay(200 * time.Millisecond)
	}), WithQuiet())
	done := make(chan struct{})
	b, _ := json.Marshal(mainBody("q", true))
	go func() {
		defer close(done)
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/messages", bytes.NewReader(b))
		req.Header.Set("Anthropic-Beta", "claude-code-20250219")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}()
	ctx := t.Context()
	reqs, err := srv.Wait(ctx, func(rs []Request) bool { return len(rs) == 1 })
	if err != nil || reqs[0].Kind != KindMain {
		t.Fatalf("Wait: %v %d %v", err, len(reqs), reqs[0].Kind)
	}
	start := time.Now()
	<-done
	if time.Since(start) < 100*time.Millisecond {
		t.Errorf("reply was not delayed")
	}
	if got := srv.Main()[0].Reply.Text; got != "late q" {
		t.Errorf("reply %q", got)
	}
	if _, err := srv.Wait(ctx, func(rs []Request) bool { return rs[0].Sent }); err != nil {
		t.Fatal(err)
	}

	// A client that gives up during the delay: not Sent, not in Tokens.
	cctx, ccancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer ccancel()
	req, _ := http.NewRequestWithContext(cctx, http.MethodPost, srv.URL+"/v1/messages", bytes.NewReader(b))
	req.Header.Set("Anthropic-Beta", "claude-code-20250219")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("request was not cut short")
	}
	reqs, err = srv.Wait(ctx, func(rs []Request) bool { return len(rs) == 2 && rs[1].Reply != nil })
	if err != nil {
		t.Fatal(err)
	}
	if reqs[1].Kind != KindMain || reqs[1].Reply.Text != "late q" {
		t.Fatalf("abandoned request: %v answered %q", reqs[1].Kind, reqs[1].Reply.Text)
	}
	time.Sleep(300 * time.Millisecond) // past the delay
	if srv.Main()[1].Sent {
		t.Error("abandoned reply counted as sent")
	}
	if got := srv.Tokens(); got != DefaultUsage {
		t.Errorf("Tokens() = %+v, want one DefaultUsage", got)
	}
}

func TestChunkDelaySideHandlerAndErrors(t *testing.T) {
	srv := NewServer(t, &Script{Main: []Reply{
		{Text: "slow text here", ChunkDelay: 30 * time.Millisecond},
		Error(529, "overloaded_error", "Overloaded"),
	}}, WithSideHandler(HandlerFunc(func(r *Request) Reply { return Text("custom side") })), WithQuiet())

	start := time.Now()
	resp := post(t, srv.URL+"/v1/messages", "main", mainBody("q", true))
	evs := readSSE(t, resp.Body)
	// 1 start + ping + block start + 3 deltas + block stop + delta + stop = 9
	// events, 8 gaps of 30ms.
	if len(evs) != 9 || time.Since(start) < 8*30*time.Millisecond {
		t.Errorf("%d events in %v", len(evs), time.Since(start))
	}
	var text string
	for _, e := range evs {
		if d, ok := e.Data["delta"].(map[string]any); ok && d["type"] == "text_delta" {
			text += d["text"].(string)
		}
	}
	if text != "slow text here" {
		t.Errorf("text %q", text)
	}

	resp = post(t, srv.URL+"/v1/messages", "main", mainBody("q", true))
	var e struct {
		Type  string
		Error struct{ Type, Message string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 529 || resp.Header.Get("x-should-retry") != "false" || e.Type != "error" || e.Error.Type != "overloaded_error" || e.Error.Message != "Overloaded" {
		t.Errorf("error reply: %d %+v", resp.StatusCode, e)
	}

	resp = post(t, srv.URL+"/v1/messages", "auxiliary", mainBody("side", false))
	var m struct{ Content []Block }
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	if len(m.Content) != 1 || m.Content[0].Text != "custom side" {
		t.Errorf("side reply %+v", m)
	}
	if got := srv.Tokens(); got != DefaultUsage {
		t.Errorf("tokens %+v: errors must not count", got)
	}
}
