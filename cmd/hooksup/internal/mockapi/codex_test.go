package mockapi

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/agent/codex"
	"github.com/hooksup/hooksup/internal/tomltext"
)

// These tests run the real codex (HOOKSUP_TEST_CODEX; skipped without it, a failure in CI)
// offline against the Responses mock, in a loopback-only network namespace when the test
// runs as root.

const codexTimeout = 60 * time.Second

// runCodex runs codex with args in env, bounded by codexTimeout, and fails the test if it
// timed out.
func runCodex(t *testing.T, srv *ResponsesServer, env *CodexEnv, args ...string) Result {
	t.Helper()
	return runAgent(t, srv, codexTimeout, "codex", args, env.CodexCommand)
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
	// Codex passes its environment to hooks: hooksup's socket and token travel that way.
	env.Setenv("HOOKSUP_SOCKET", "/run/test/hooksup.sock")
	stop := log.Command("Stop", `printf %s "$HOOKSUP_SOCKET" > "$HOOKLOG_DIR/socket"; if [ -e "$HOOKLOG_DIR/blocked" ]; then exit 0; fi; touch "$HOOKLOG_DIR/blocked"; echo '{"decision":"block","reason":"REASON-X <&> \"q\""}'`)
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
	if b, err := os.ReadFile(filepath.Join(log.Dir, "socket")); err != nil || string(b) != "/run/test/hooksup.sock" {
		t.Errorf("the hook saw HOOKSUP_SOCKET=%q (%v), want codex's", b, err)
	}
	if !strings.Contains(res.Stderr, "hook: Stop Blocked") {
		t.Errorf("stderr lacks %q:\n%s", "hook: Stop Blocked", res.Stderr)
	}
}

// Hooks trusted by codex.Overrides run without --dangerously-bypass-hook-trust; the user's
// untrusted hook (CODEX_HOME/config.toml) and the project's (.codex/config.toml) stay off,
// the user's trusted hook still runs, and the run leaves nothing behind in CODEX_HOME or the
// project beyond what any codex run writes (its rollout, its sqlite state, a shell snapshot). With the
// bypass flag instead, the untrusted hooks run too: what hooksup must not do.
func TestCodexTrustRunsOnlyHooksupsHook(t *testing.T) {
	srv := NewResponsesServer(t, nil, WithNetNS())
	env := NewCodexEnv(t, srv.URL, "")
	marks := t.TempDir()
	mark := func(name string) string { return "touch " + shellQuote(filepath.Join(marks, name)) }
	trustedHash, err := codex.TrustedHash(codex.Hook{Event: "Stop", Command: mark("user-trusted")})
	if err != nil {
		t.Fatal(err)
	}
	if err := env.AppendConfig(fmt.Sprintf(`[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = %s

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = %s

[hooks.state.%s]
trusted_hash = %s
`, tomltext.Quote(mark("user-untrusted")), tomltext.Quote(mark("user-trusted")), tomltext.Quote(env.ConfigPath()+":stop:1:0"), tomltext.Quote(trustedHash))); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(env.WorkDir, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	project := fmt.Sprintf("[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = %s\n", tomltext.Quote(mark("project")))
	if err := os.WriteFile(filepath.Join(env.WorkDir, ".codex", "config.toml"), []byte(project), 0o644); err != nil {
		t.Fatal(err)
	}
	marked := func() []string {
		ents, _ := os.ReadDir(marks)
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
			os.Remove(filepath.Join(marks, e.Name()))
		}
		return names
	}

	// A plain run first: codex creates its own state on the first run in a CODEX_HOME.
	if res := runCodex(t, srv, env, "exec", "warm up"); res.ExitCode != 0 {
		t.Fatalf("plain run: exit %d, stderr %s", res.ExitCode, res.Stderr)
	}
	if got := marked(); !slices.Equal(got, []string{"user-trusted"}) {
		t.Fatalf("plain run ran hooks %v, want only [user-trusted]", got)
	}
	before := codexTree(t, env)

	over, err := codex.Overrides([]codex.Hook{{Event: "Stop", Command: mark("hooksup")}})
	if err != nil {
		t.Fatal(err)
	}
	res := runCodex(t, srv, env, append([]string{"exec", "hello"}, over...)...)
	if res.ExitCode != 0 {
		t.Fatalf("exit %d, stderr %s", res.ExitCode, res.Stderr)
	}
	if got := marked(); !slices.Equal(got, []string{"hooksup", "user-trusted"}) {
		t.Errorf("with hooksup's trusted hook, hooks %v ran; want [hooksup user-trusted]", got)
	}
	after := codexTree(t, env)
	for path, sum := range after {
		if was, ok := before[path]; !ok {
			if !isRollout(path) && !isCodexState(path) && !isShellSnapshot(path) {
				t.Errorf("the run created %s", path)
			}
		} else if was != sum && !isCodexState(path) {
			t.Errorf("the run changed %s", path)
		}
	}
	for path := range before {
		if _, ok := after[path]; !ok && !isCodexState(path) && !isShellSnapshot(path) {
			t.Errorf("the run removed %s", path)
		}
	}

	// The control: the bypass flag runs every hook, the untrusted ones too.
	res = runCodex(t, srv, env, "exec", "hello", "--dangerously-bypass-hook-trust")
	if res.ExitCode != 0 {
		t.Fatalf("bypass run: exit %d, stderr %s", res.ExitCode, res.Stderr)
	}
	if got := marked(); !slices.Equal(got, []string{"project", "user-trusted", "user-untrusted"}) {
		t.Errorf("with --dangerously-bypass-hook-trust, hooks %v ran; want [project user-trusted user-untrusted]", got)
	}
}

// codexTree maps every regular file under CODEX_HOME and the project (relative to the
// CodexEnv's root, .git excluded) to a hash of its content.
func codexTree(t *testing.T, env *CodexEnv) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range []string{env.CodexHome, env.WorkDir} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == ".git" {
				return filepath.SkipDir
			}
			if !d.Type().IsRegular() {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			out[path] = hex.EncodeToString(sum[:])
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// isRollout: a session's rollout, CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl, which
// every codex run writes.
func isRollout(path string) bool {
	return strings.Contains(path, "/sessions/") && strings.HasPrefix(filepath.Base(path), "rollout-") && strings.HasSuffix(path, ".jsonl")
}

// isShellSnapshot: CODEX_HOME/shell_snapshots/, the snapshots of the user's shell codex takes
// for a session; normally gone when it exits, but one still being written then is left as
// <id>.tmp-<n>. Codex's own, whatever hooks run.
func isShellSnapshot(path string) bool {
	return strings.Contains(path, "/shell_snapshots/")
}

// isCodexState: the sqlite databases codex updates on every run (state, thread history,
// logs, goals, memories, queue), directly in CODEX_HOME, with the -wal and -shm files it
// sometimes leaves behind at exit.
func isCodexState(path string) bool {
	return strings.Contains(filepath.Base(path), ".sqlite")
}

// A function_call of exec_command makes Codex run the command in the project and send its
// output back as function_call_output in the next request.
func TestCodexShellCall(t *testing.T) {
	srv := NewResponsesServer(t, &ResponsesScript{Replies: []ResponsesReply{ShellCall("echo tool-ran > out.txt; cat out.txt"), OutputText("done")}}, WithNetNS())
	env := NewCodexEnv(t, srv.URL, "")
	res := runCodex(t, srv, env, "exec", "run it")
	if res.ExitCode != 0 || res.Stdout != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	reqs := srv.Model()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	call := reqs[0].Reply.Calls[0]
	out, ok := reqs[1].FunctionOutput(call.CallID)
	if !ok || !strings.Contains(out.Output, "tool-ran") {
		t.Errorf("2nd request's output for %s: %+v (found %v)", call.CallID, out, ok)
	}
	if b, err := os.ReadFile(filepath.Join(env.WorkDir, "out.txt")); err != nil || string(b) != "tool-ran\n" {
		t.Errorf("out.txt: %q, %v", b, err)
	}
}

// A subagent spawned with spawn_agent makes its requests with SubagentHeader, gets the
// script's subagent replies, and its end runs a SubagentStop hook defined by codex.Overrides,
// whose input names the agent and its own rollout. The main agent waits for it (wait_agent),
// so it cannot finish first.
func TestCodexSubagentStopHook(t *testing.T) {
	srv := NewResponsesServer(t, SpawnAndWait(t, "say hi", OutputText("sub done"), OutputText("main done")), WithNetNS())
	env := NewCodexEnv(t, srv.URL, "")
	log := NewHookLog(t)
	over, err := codex.Overrides([]codex.Hook{
		{Event: "SubagentStop", Command: log.Command("SubagentStop", "")},
		{Event: "Stop", Command: log.Command("Stop", "")},
	})
	if err != nil {
		t.Fatal(err)
	}
	res := runCodex(t, srv, env, append([]string{"exec", "spawn one"}, over...)...)
	if res.ExitCode != 0 || res.Stdout != "main done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	var subs int
	for _, r := range srv.Model() {
		if r.IsSubagent() {
			subs++
			if got := r.LastInputText("user"); got != "say hi" {
				t.Errorf("subagent request's last user input %q", got)
			}
		}
	}
	if subs != 1 {
		t.Errorf("%d subagent requests, want 1", subs)
	}
	in := log.Inputs("SubagentStop")
	if len(in) != 1 {
		t.Fatalf("SubagentStop ran %d times, want 1; hooks: %v", len(in), log.Inputs())
	}
	if in[0].Get("hook_event_name") != "SubagentStop" || in[0].Get("agent_id") == "" || in[0].Get("last_assistant_message") != "sub done" ||
		!strings.HasPrefix(in[0].Get("agent_transcript_path"), env.SessionsDir()+"/") || in[0].Get("agent_transcript_path") == in[0].Get("transcript_path") {
		t.Errorf("SubagentStop stdin: %s", in[0].Raw)
	}
	if stops := log.Inputs("Stop"); len(stops) != 1 || stops[0].Get("last_assistant_message") != "main done" {
		t.Errorf("Stop ran %d times, want once, for the main agent's end: %v", len(stops), stops)
	}
}

// The arguments codex.Overrides makes parse in the real codex as the hooks they describe,
// each trusted: `codex app-server`'s hooks/list reports every one with trustStatus "trusted"
// and the hash codex.TrustedHash computed — for the awkward definitions of
// agent/codex/testdata/hooks_list.json too.
func TestCodexTrustOverridesMatchCodex(t *testing.T) {
	srv := NewResponsesServer(t, nil, WithNetNS())
	env := NewCodexEnv(t, srv.URL, "")
	b, err := os.ReadFile("../../../../agent/codex/testdata/hooks_list.json")
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Hooks []struct {
			Event, Matcher, Command string
			Timeout                 int
		}
	}
	if err := json.Unmarshal(b, &data); err != nil {
		t.Fatal(err)
	}
	var hooks []codex.Hook
	for _, h := range data.Hooks {
		hooks = append(hooks, codex.Hook{Event: h.Event, Matcher: h.Matcher, Command: h.Command, Timeout: h.Timeout})
	}
	over, err := codex.Overrides(hooks)
	if err != nil {
		t.Fatal(err)
	}
	listed := codexHooksList(t, srv, env, over)
	want := map[string]string{}
	groups := map[string]int{}
	for _, h := range hooks {
		key, _ := codex.TrustKey(h.Event, groups[h.Event])
		groups[h.Event]++
		want[key], _ = codex.TrustedHash(h)
	}
	if len(listed) != len(want) {
		t.Errorf("codex lists %d hooks, want %d", len(listed), len(want))
	}
	for _, l := range listed {
		if w, ok := want[l.Key]; !ok || l.CurrentHash != w || l.TrustStatus != "trusted" {
			t.Errorf("codex lists %s (%s) hash %s trust %q; want hash %s, trusted", l.Key, l.Command, l.CurrentHash, l.TrustStatus, w)
		}
	}
}

type listedHook struct {
	Key         string `json:"key"`
	Command     string `json:"command"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"`
}

// codexHooksList asks `codex app-server` (JSON-RPC on stdio) for hooks/list in WorkDir with
// the given extra arguments.
func codexHooksList(t *testing.T, srv *ResponsesServer, env *CodexEnv, args []string) []listedHook {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), codexTimeout)
	defer cancel()
	cmd := env.CodexCommand(ctx, append([]string{"app-server"}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(cmd); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"hooksup-test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":[` + strconv.Quote(env.WorkDir) + `]}}`,
	} {
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var msg struct {
			ID     int `json:"id"`
			Result struct {
				Data []struct {
					Hooks    []listedHook `json:"hooks"`
					Warnings []string     `json:"warnings"`
					Errors   []any        `json:"errors"`
				} `json:"data"`
			} `json:"result"`
			Error any `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.ID != 2 {
			continue
		}
		if msg.Error != nil || len(msg.Result.Data) != 1 {
			t.Fatalf("hooks/list: %s", sc.Bytes())
		}
		d := msg.Result.Data[0]
		if len(d.Errors) > 0 {
			t.Errorf("hooks/list errors: %v", d.Errors)
		}
		t.Logf("hooks/list warnings: %q", d.Warnings)
		return d.Hooks
	}
	t.Fatalf("no hooks/list answer (%v)", sc.Err())
	return nil
}

// The interactive codex in a pty starts straight at its prompt with NewCodexEnv's
// config.toml (no login, no trust-directory prompt), answers with the mock's reply, and its
// thread-title side request gets a title without consuming the script.
func TestCodexTUI(t *testing.T) {
	srv := NewResponsesServer(t, &ResponsesScript{Replies: []ResponsesReply{OutputText("tui reply from the mock"), OutputText("WRONG: a second main reply")}}, WithNetNS())
	env := NewCodexEnv(t, srv.URL, "")
	ctx, cancel := context.WithTimeout(t.Context(), codexTimeout)
	defer cancel()

	// Codex asks where the cursor is (and what the terminal is) at start-up and waits for the
	// answers.
	ptm, scr := startPTY(t, cancel, srv.Start, env.CodexCommand(ctx), [][2]string{{"\x1b[6n", "\x1b[1;1R"}, {"\x1b[c", "\x1b[?62;22c"}})
	const prompt = "please say hello to the mock server"
	scr.submit(t, ctx, ptm, "Ask Codex to do anything", prompt, "tui reply from the mock")
	for _, s := range []string{"trust", "Sign in", "login"} {
		if strings.Contains(strings.ToLower(squash(scr.text())), strings.ToLower(squash(s))) {
			t.Errorf("the screen mentions %q:\n%s", s, scr.text())
		}
	}
	reqs, err := srv.Wait(ctx, func(rs []ResponsesRequest) bool {
		var side, main int
		for _, r := range rs {
			if r.IsSide() && r.Reply != nil {
				side++
			} else if r.IsResponses() && !r.IsSide() {
				main++
			}
		}
		return side > 0 && main > 0
	})
	if err != nil {
		t.Fatalf("no title request seen: %v", err)
	}
	var main []ResponsesRequest
	for _, r := range reqs {
		switch {
		case r.IsSide():
			t.Logf("side request #%d (%s), reply %q", r.Seq, r.ThreadSource(), r.Reply.Text)
			if r.Reply.Text != `{"title":"Mock title"}` || !strings.Contains(r.LastInputText("user"), prompt) {
				t.Errorf("side request #%d: reply %q, last user %q", r.Seq, r.Reply.Text, r.LastInputText("user"))
			}
		case r.IsResponses():
			main = append(main, r)
		}
	}
	if len(main) != 1 || main[0].LastInputText("user") != prompt || main[0].ThreadSource() != "user" {
		t.Errorf("main requests: %d", len(main))
	}
}
