package mockapi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// These tests run the real qwen (HOOKSUP_TEST_QWEN, with HOOKSUP_TEST_NODE22 when the node on
// PATH is older than 22; skipped without them, a failure in CI) offline against the Chat
// Completions mock, in a loopback-only network namespace when the test runs as root.

func runQwen(t *testing.T, srv *ChatServer, env *QwenEnv, args ...string) Result {
	t.Helper()
	return runAgent(t, srv, agentTimeout, "qwen", args, env.QwenCommand)
}

// qwen -p with the OPENAI_ variables prints the mock's reply and exits 0 with no login: its
// turn request (stream, include_usage, the key as a Bearer token, OPENAI_MODEL) ends with the
// prompt; the transcript lands under the env's ~/.qwen/projects. Whatever else it asks the
// model (the memory extraction after the answer) is a side request.
func TestQwenPrintsMockReply(t *testing.T) {
	srv := NewChatServer(t, &ChatScript{Replies: []ChatReply{ChatText("The answer is 42.")}}, WithNetNS())
	env := NewQwenEnv(t, srv.URL, "")
	res := runQwen(t, srv, env, "-p", "what is the answer?")
	if res.ExitCode != 0 || strings.TrimSpace(res.Stdout) != "The answer is 42." {
		t.Fatalf("exit %d, stdout %q, stderr %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	turns := srv.Turns()
	if len(turns) != 1 {
		t.Fatalf("%d turns, want 1 (requests: %d)", len(turns), len(srv.Requests()))
	}
	r := turns[0]
	if !r.Stream || !r.IncludeUsage || r.Model != QwenModel {
		t.Errorf("stream %v, include_usage %v, model %q", r.Stream, r.IncludeUsage, r.Model)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+QwenTestKey {
		t.Errorf("Authorization %q", got)
	}
	if got := r.Header.Get("User-Agent"); !strings.HasPrefix(got, "QwenCode/"+QwenVersion) {
		t.Errorf("User-Agent %q", got)
	}
	if m, ok := r.LastMessage(); !ok || m.Role != "user" || m.Content[len(m.Content)-1].Text != "what is the answer?" {
		t.Errorf("last message %+v", m)
	}
	if chats, _ := filepath.Glob(env.ChatsGlob()); len(chats) != 1 {
		t.Errorf("chats: %v", chats)
	}
	for _, r := range srv.Requests() {
		if !r.IsChat() {
			t.Errorf("request #%d %s %s", r.Seq, r.Method, r.Path)
		}
	}
}

// With --yolo qwen runs the run_shell_command call the mock makes and sends its result back
// as the "tool" message answering that call; then it prints the mock's next reply.
func TestQwenRunsToolCall(t *testing.T) {
	srv := NewChatServer(t, &ChatScript{Replies: []ChatReply{
		QwenShell("echo TOOL-OUT-$((6+1)) | tee out.txt", "write a file"),
		ChatText("wrote it"),
	}}, WithNetNS())
	env := NewQwenEnv(t, srv.URL, "")
	res := runQwen(t, srv, env, "-p", "write a file", "--yolo")
	if res.ExitCode != 0 || strings.TrimSpace(res.Stdout) != "wrote it" {
		t.Fatalf("exit %d, stdout %q, stderr %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	turns := srv.Turns()
	if len(turns) != 2 {
		t.Fatalf("%d turns, want 2", len(turns))
	}
	if !contains(turns[0].Tools, "run_shell_command") {
		t.Errorf("tools %v lack run_shell_command", turns[0].Tools)
	}
	call := turns[0].Reply.ToolCalls[0]
	// The result answers the call. Its output is there in most runs; now and then qwen 0.24.4's
	// shell tool reports "Output: (empty)" for a command that printed and exited at once (its
	// capture of a short-lived process), so the file the command wrote is the proof it ran.
	out, ok := turns[1].ToolResult(call.ID)
	if !ok || !strings.Contains(out.Text(), "Exit Code: 0") {
		t.Errorf("2nd request's result for %s: %q (%v); messages %+v", call.ID, out.Text(), ok, turns[1].ToolResults())
	} else if !strings.Contains(out.Text(), "TOOL-OUT-7") {
		t.Logf("qwen's result for %s lacks the command's output this time: %q", call.ID, out.Text())
	}
	if b, err := os.ReadFile(filepath.Join(env.WorkDir, "out.txt")); err != nil || string(b) != "TOOL-OUT-7\n" {
		t.Errorf("out.txt %q: %v", b, err)
	}
}

// A Stop hook from the file QWEN_CODE_SYSTEM_DEFAULTS_PATH names that blocks once makes qwen
// continue: the next request ends with a user message that is exactly the reason, the hook's
// second call has stop_hook_active, and qwen prints the second reply.
func TestQwenStopBlockReachesModel(t *testing.T) {
	srv := NewChatServer(t, &ChatScript{Replies: []ChatReply{ChatText("first answer"), ChatText("second answer")}}, WithNetNS())
	env := NewQwenEnv(t, srv.URL, "")
	log := NewHookLog(t)
	const reason = `REASON-X <&> "q"`
	if _, err := env.SystemDefaults(map[string]string{"Stop": log.Command("Stop", blockOnce(reason))}); err != nil {
		t.Fatal(err)
	}
	res := runQwen(t, srv, env, "-p", "hello")
	if res.ExitCode != 0 || !strings.Contains(res.Stdout, "second answer") {
		t.Fatalf("exit %d, stdout %q, stderr %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	turns := srv.Turns()
	if len(turns) != 2 {
		t.Fatalf("%d turns, want 2", len(turns))
	}
	if got := turns[1].UserPrompt(); got != reason {
		t.Errorf("2nd request's last user message %q, want %q", got, reason)
	}
	if as := turns[1].Assistant(); len(as) == 0 || as[len(as)-1].Text() != "first answer" {
		t.Errorf("2nd request lacks the first answer: %+v", as)
	}
	stops := log.Inputs("Stop")
	if len(stops) != 2 {
		t.Fatalf("Stop ran %d times, want 2", len(stops))
	}
	for i, want := range []struct {
		active bool
		last   string
	}{{false, "first answer"}, {true, "second answer"}} {
		in := stops[i]
		if in.JSON["stop_hook_active"] != want.active || in.Get("last_assistant_message") != want.last || in.Get("hook_event_name") != "Stop" {
			t.Errorf("Stop #%d stdin: %s", i+1, in.Raw)
		}
		tp := in.Get("transcript_path")
		if ok, _ := filepath.Match(env.ChatsGlob(), tp); !ok || filepath.Base(tp) != in.Get("session_id")+".jsonl" {
			t.Errorf("Stop #%d transcript_path %q, want %s named by session_id", i+1, tp, env.ChatsGlob())
		}
		if _, err := os.Stat(tp); err != nil {
			t.Errorf("Stop #%d transcript: %v", i+1, err)
		}
	}
	for i, sample := range []string{"qwen-code-0.24.4/hook-input-Stop.json", "qwen-code-0.24.4/hook-input-Stop-2nd.json"} {
		if m := missingSampleKeys(t, sample, stops[i]); len(m) > 0 {
			t.Errorf("Stop #%d stdin lacks the keys %v of the recorded %s: %s", i+1, m, sample, stops[i].Raw)
		}
	}
}
