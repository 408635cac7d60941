package mockapi

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/codex"
)

// These tests run the real codex (HOOKSUP_TEST_CODEX; skipped without it, a failure in CI)
// offline against the Responses mock, in a loopback-only network namespace when the test
// runs as root.

const codexTimeout = 60 * time.Second

// runCodex runs codex with args in env, bounded by codexTimeout, and fails the test if it
// timed out.
func runCodex(t *testing.T, srv *ResponsesServer, env *CodexEnv, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), codexTimeout)
	defer cancel()
	res := srv.Run(env.CodexCommand(ctx, args...))
	if ctx.Err() != nil {
		t.Fatalf("codex %s timed out after %v (killed)\nstdout: %s\nstderr: %s", clip(strings.Join(args, " "), 60), codexTimeout, res.Stdout, res.Stderr)
	}
	t.Logf("codex %s: exit %d in %v", clip(strings.Join(args, " "), 60), res.ExitCode, res.Duration.Round(time.Millisecond))
	return res
}

// codex exec prints the model's last message on stdout and exits 0; the request carried the
// prompt as the last user message, the mock's key, and stream:true.
func TestCodexMockExec(t *testing.T) {
	srv := NewResponsesServer(t, &ResponsesScript{Replies: []ResponsesReply{OutputText("hello from the mock")}}, WithNetNS())
	env := NewCodexEnv(t, srv.URL, "")
	res := runCodex(t, srv, env, "exec", "hi")
	if res.ExitCode != 0 || res.Stdout != "hello from the mock\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !reqs[0].IsResponses() {
		t.Fatalf("requests: %+v", reqs)
	}
	r := reqs[0]
	if got := r.LastInputText("user"); got != "hi" {
		t.Errorf("last user input %q, want %q", got, "hi")
	}
	if !r.Stream || r.Model != "mock-model" {
		t.Errorf("stream %v, model %q", r.Stream, r.Model)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+CodexTestKey {
		t.Errorf("Authorization %q", got)
	}
	if !contains(r.Tools, "exec_command") {
		t.Errorf("tools %v lack exec_command", r.Tools)
	}
}

// A Stop hook defined for this one run by codex.Overrides (trusted by its hash, no
// --dangerously-bypass-hook-trust) blocks once: Codex sends a second request whose last
// user message carries the reason, and the hook's second call has stop_hook_active.
func TestCodexStopHookBlockReachesModel(t *testing.T) {
	srv := NewResponsesServer(t, &ResponsesScript{Replies: []ResponsesReply{OutputText("first answer"), OutputText("second answer")}}, WithNetNS())
	env := NewCodexEnv(t, srv.URL, "")
	log := NewHookLog(t)
	stop := log.Command("Stop", `if [ -e "$HOOKLOG_DIR/blocked" ]; then exit 0; fi; touch "$HOOKLOG_DIR/blocked"; echo '{"decision":"block","reason":"REASON-X <&> \"q\""}'`)
	over, err := codex.Overrides([]codex.Hook{{Event: "Stop", Command: stop}})
	if err != nil {
		t.Fatal(err)
	}
	res := runCodex(t, srv, env, append([]string{"exec", "hello"}, over...)...)
	if res.ExitCode != 0 || res.Stdout != "second answer\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	reqs := srv.Model()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if p := reqs[0].HookPrompts(); len(p) != 0 {
		t.Errorf("1st request already has a hook prompt: %+v", p)
	}
	if got, want := reqs[1].LastHookPrompt(), `REASON-X <&> "q"`; got != want {
		t.Errorf("2nd request's last hook prompt %q, want %q; last user input %q", got, want, reqs[1].LastInputText("user"))
	}
	if p := reqs[1].HookPrompts(); len(p) != 1 || p[0].RunID != "stop:0:"+codex.SessionFlagsSource {
		t.Errorf("hook prompts %+v", p)
	}
	if got := reqs[1].Messages("assistant"); len(got) == 0 || got[len(got)-1].Text() != "first answer" {
		t.Errorf("2nd request lacks the first answer: %+v", got)
	}
	stops := log.Inputs("Stop")
	if len(stops) != 2 {
		t.Fatalf("Stop hook ran %d times, want 2", len(stops))
	}
	for i, want := range []struct {
		active bool
		last   string
	}{{false, "first answer"}, {true, "second answer"}} {
		in := stops[i].JSON
		if in["stop_hook_active"] != want.active || in["last_assistant_message"] != want.last || in["hook_event_name"] != "Stop" {
			t.Errorf("Stop #%d stdin: %s", i+1, stops[i].Raw)
		}
		if tp := stops[i].Get("transcript_path"); !strings.HasPrefix(tp, env.SessionsDir()+"/") || !strings.HasSuffix(tp, ".jsonl") {
			t.Errorf("Stop #%d transcript_path %q, want a rollout under %s", i+1, tp, env.SessionsDir())
		}
	}
	if !strings.Contains(res.Stderr, "hook: Stop Blocked") {
		t.Errorf("stderr lacks %q:\n%s", "hook: Stop Blocked", res.Stderr)
	}
}
