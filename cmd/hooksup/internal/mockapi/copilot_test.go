package mockapi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// These tests run the real copilot (HOOKSUP_TEST_COPILOT; skipped without it, a failure in CI)
// offline against the Chat Completions mock, in a loopback-only network namespace when the
// test runs as root.

// agentTimeout bounds one run of copilot or qwen: each takes some 5 to 30 s on a busy machine
// (copilot's first run in a fresh CacheHome also unpacks its package).
const agentTimeout = 3 * time.Minute

func runCopilot(t *testing.T, srv *ChatServer, env *CopilotEnv, args ...string) Result {
	t.Helper()
	return runAgent(t, srv, agentTimeout, "copilot", args, env.CopilotCommand)
}

// blockOnce is a hook's shell snippet (after HookLog.Command's recording) that blocks the
// first stop with reason and allows every later one.
func blockOnce(reason string) string {
	answer, _ := json.Marshal(map[string]string{"decision": "block", "reason": reason})
	return `if [ -e "$HOOKLOG_DIR/blocked" ]; then exit 0; fi; touch "$HOOKLOG_DIR/blocked"; printf '%s\n' ` + shellQuote(string(answer))
}

// missingSampleKeys returns the top-level keys of a recorded hook input in testdata that in lacks.
func missingSampleKeys(t *testing.T, sample string, in HookInput) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", sample))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var missing []string
	for k := range m {
		if _, ok := in.JSON[k]; !ok {
			missing = append(missing, k)
		}
	}
	return missing
}

// copilot -p in BYOK mode prints the mock's reply and exits 0 with no account: one request to
// /v1/chat/completions (stream, include_usage, the key as a Bearer token, COPILOT_MODEL), whose
// last user message is the prompt after copilot's <current_datetime> element; the session's
// events.jsonl lands under the env's session-state.
func TestCopilotPrintsMockReply(t *testing.T) {
	srv := NewChatServer(t, &ChatScript{Replies: []ChatReply{ChatText("The answer is 42.")}}, WithNetNS())
	env := NewCopilotEnv(t, srv.URL, "")
	res := runCopilot(t, srv, env, "-p", "what is the answer?")
	if res.ExitCode != 0 || strings.TrimSpace(res.Stdout) != "The answer is 42." {
		t.Fatalf("exit %d, stdout %q, stderr %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !reqs[0].IsChat() || reqs[0].IsSide() {
		t.Fatalf("requests: %+v", reqs)
	}
	r := reqs[0]
	if !r.Stream || !r.IncludeUsage || r.Model != CopilotModel {
		t.Errorf("stream %v, include_usage %v, model %q", r.Stream, r.IncludeUsage, r.Model)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+CopilotTestKey {
		t.Errorf("Authorization %q", got)
	}
	if got := r.UserPrompt(); got != "what is the answer?" {
		t.Errorf("prompt %q (last user text %q)", got, r.LastUserText())
	}
	if !strings.HasPrefix(r.LastUserText(), "<current_datetime>") {
		t.Errorf("last user text %q lacks copilot's datetime", r.LastUserText())
	}
	if !contains(r.Tools, "bash") {
		t.Errorf("tools %v lack bash", r.Tools)
	}
	if ev, _ := filepath.Glob(filepath.Join(env.SessionStateDir(), "*", "events.jsonl")); len(ev) != 1 {
		t.Errorf("events.jsonl files: %v", ev)
	}
}

// With --allow-all-tools copilot runs the bash call the mock makes and sends its output back
// as the "tool" message answering that call; then it prints the mock's next reply.
func TestCopilotRunsToolCall(t *testing.T) {
	srv := NewChatServer(t, &ChatScript{Replies: []ChatReply{
		CopilotBash("echo TOOL-OUT-$((6+1)) | tee out.txt", "write a file"),
		ChatText("wrote it"),
	}}, WithNetNS())
	env := NewCopilotEnv(t, srv.URL, "")
	res := runCopilot(t, srv, env, "-p", "write a file", "--allow-all-tools")
	if res.ExitCode != 0 || !strings.Contains(res.Stdout, "wrote it") {
		t.Fatalf("exit %d, stdout %q, stderr %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	turns := srv.Turns()
	if len(turns) != 2 {
		t.Fatalf("%d turns, want 2", len(turns))
	}
	call := turns[0].Reply.ToolCalls[0]
	out, ok := turns[1].ToolResult(call.ID)
	if !ok || !strings.Contains(out.Text(), "TOOL-OUT-7") {
		t.Errorf("2nd request's result for %s: %q (%v); messages %+v", call.ID, out.Text(), ok, turns[1].ToolResults())
	}
	if b, err := os.ReadFile(filepath.Join(env.WorkDir, "out.txt")); err != nil || string(b) != "TOOL-OUT-7\n" {
		t.Errorf("out.txt %q: %v", b, err)
	}
	if a, b := turns[0].Header.Get(CopilotInitiatorHeader), turns[1].Header.Get(CopilotInitiatorHeader); a != "user" || b != "agent" {
		t.Errorf("%s %q then %q, want user then agent", CopilotInitiatorHeader, a, b)
	}
}

// An agentStop hook from a --plugin-dir plugin that blocks once makes copilot continue: the
// next request ends with a user message carrying the reason (after the datetime element), the
// hook's second call has stop_hook_active, and both replies are printed.
func TestCopilotAgentStopBlockReachesModel(t *testing.T) {
	srv := NewChatServer(t, &ChatScript{Replies: []ChatReply{ChatText("first answer"), ChatText("second answer")}}, WithNetNS())
	env := NewCopilotEnv(t, srv.URL, "")
	log := NewHookLog(t)
	const reason = `REASON-X <&> "q"`
	plugin, err := env.Plugin(map[string]string{"agentStop": log.Command("agentStop", blockOnce(reason))})
	if err != nil {
		t.Fatal(err)
	}
	res := runCopilot(t, srv, env, "-p", "hello", "--plugin-dir", plugin)
	if res.ExitCode != 0 || !strings.Contains(res.Stdout, "first answer") || !strings.Contains(res.Stdout, "second answer") {
		t.Fatalf("exit %d, stdout %q, stderr %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	turns := srv.Turns()
	if len(turns) != 2 {
		t.Fatalf("%d turns, want 2", len(turns))
	}
	if got := turns[1].UserPrompt(); got != reason {
		t.Errorf("2nd request's last user message %q, want %q", got, reason)
	}
	if got := turns[1].Header.Get(CopilotInitiatorHeader); got != "user" {
		t.Errorf("the continuation's %s %q, want user", CopilotInitiatorHeader, got)
	}
	if as := turns[1].Assistant(); len(as) == 0 || as[len(as)-1].Text() != "first answer" {
		t.Errorf("2nd request lacks the first answer: %+v", as)
	}
	stops := log.Inputs("agentStop")
	if len(stops) != 2 {
		t.Fatalf("agentStop ran %d times, want 2", len(stops))
	}
	for i, active := range []bool{false, true} {
		in := stops[i]
		if in.JSON["stop_hook_active"] != active || in.Get("stopReason") != "end_turn" {
			t.Errorf("agentStop #%d stdin: %s", i+1, in.Raw)
		}
		tp := in.Get("transcriptPath")
		if want := filepath.Join(env.SessionStateDir(), in.Get("sessionId"), "events.jsonl"); tp != want {
			t.Errorf("agentStop #%d transcriptPath %q, want %q", i+1, tp, want)
		}
		if _, err := os.Stat(tp); err != nil {
			t.Errorf("agentStop #%d transcript: %v", i+1, err)
		}
	}
	for i, sample := range []string{"copilot-1.0.102/hook-input-agentStop.json", "copilot-1.0.102/hook-input-agentStop-2nd.json"} {
		if m := missingSampleKeys(t, sample, stops[i]); len(m) > 0 {
			t.Errorf("agentStop #%d stdin lacks the keys %v of the recorded %s: %s", i+1, m, sample, stops[i].Raw)
		}
	}
}
