package mockapi

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// The Responses mock's wire format and request parsing, without codex (host loopback).
func TestResponsesWireFormat(t *testing.T) {
	srv := NewResponsesServer(t, &ResponsesScript{Replies: []ResponsesReply{
		{Text: "running it", Calls: []FunctionCall{{Name: "exec_command", Arguments: map[string]any{"cmd": "ls"}}}},
		OutputText("done"),
	}})
	body := map[string]any{
		"model": "mock-model", "stream": true,
		"tools": []any{map[string]any{"type": "function", "name": "exec_command"}, map[string]any{"type": "web_search"}},
		"input": []any{
			map[string]any{"type": "message", "role": "developer", "content": []any{map[string]any{"type": "input_text", "text": "be brief"}}},
			map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": "hi"}}},
			map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": "first"}}},
			map[string]any{"type": "function_call", "call_id": "c1", "name": "exec_command", "arguments": `{"cmd":"ls"}`},
			map[string]any{"type": "function_call_output", "call_id": "c1", "output": "a.txt\n"},
			map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": `<hook_prompt hook_run_id="stop:0:/&lt;session-flags&gt;/config.toml">fix &lt;it&gt; &amp; "go"</hook_prompt>`}}},
		},
	}
	b, _ := json.Marshal(body)
	resp, err := http.Post(srv.URL+"/responses", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
	evs := readSSE(t, resp.Body)
	var names []string
	for _, e := range evs {
		names = append(names, e.Name)
	}
	want := []string{"response.created",
		"response.output_item.added", "response.output_text.delta", "response.output_item.done",
		"response.output_item.added", "response.function_call_arguments.delta", "response.output_item.done",
		"response.completed"}
	if len(names) != len(want) {
		t.Fatalf("events %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("events %v, want %v", names, want)
		}
	}
	call := evs[6].Data["item"].(map[string]any)
	if call["type"] != "function_call" || call["name"] != "exec_command" || call["arguments"] != `{"cmd":"ls"}` || call["call_id"] != "call_mock_1_0" {
		t.Errorf("function call item %v", call)
	}
	done := evs[7].Data["response"].(map[string]any)
	usage := done["usage"].(map[string]any)
	if done["status"] != "completed" || usage["total_tokens"] != float64(DefaultResponsesUsage.Total()) || len(done["output"].([]any)) != 2 {
		t.Errorf("response.completed %v", done)
	}

	// The server marks the reply sent after its last write, which may come after we read it.
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := srv.Wait(ctx, func(rs []ResponsesRequest) bool { return len(rs) == 1 && rs[0].Sent }); err != nil {
		t.Fatalf("reply never marked sent: %v", err)
	}
	reqs := srv.Model()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Model != "mock-model" || !r.Stream || len(r.Tools) != 2 || r.Tools[1] != "web_search" {
		t.Errorf("model %q stream %v tools %v", r.Model, r.Stream, r.Tools)
	}
	if got := r.LastInputText(); got != `<hook_prompt hook_run_id="stop:0:/&lt;session-flags&gt;/config.toml">fix &lt;it&gt; &amp; "go"</hook_prompt>` {
		t.Errorf("LastInputText %q", got)
	}
	if got := r.LastInputText("developer"); got != "be brief" {
		t.Errorf("LastInputText(developer) %q", got)
	}
	if got := r.LastHookPrompt(); got != `fix <it> & "go"` {
		t.Errorf("LastHookPrompt %q", got)
	}
	if p := r.HookPrompts(); len(p) != 1 || p[0].RunID != "stop:0:/<session-flags>/config.toml" {
		t.Errorf("HookPrompts %+v", p)
	}
	if out, ok := r.FunctionOutput("c1"); !ok || out.Output != "a.txt\n" {
		t.Errorf("FunctionOutput(c1) %+v %v", out, ok)
	}
	if r.Reply == nil || !r.Sent || len(r.Reply.Calls) != 1 {
		t.Errorf("reply %+v sent %v", r.Reply, r.Sent)
	}

	// Anything else is a 404, recorded.
	resp2, err := http.Get(srv.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusNotFound || len(srv.Requests()) != 2 || len(srv.Model()) != 1 {
		t.Errorf("GET /models: %d; %d requests", resp2.StatusCode, len(srv.Requests()))
	}
}
