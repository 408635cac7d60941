package mockapi

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// These tests run the real claude (HOOKSUP_TEST_CLAUDE, else claude on
// PATH, else skipped) against the mock, in a loopback-only network
// namespace when the test runs as root.

const claudeTimeout = 60 * time.Second

// runClaude runs claude with args in env, bounded by claudeTimeout, and
// fails the test if it timed out.
func runClaude(t *testing.T, srv *Server, env *Env, args ...string) Result {
	t.Helper()
	return runAgent(t, srv, claudeTimeout, "claude", args, env.ClaudeCommand)
}

// hostNetNS is the test process's network namespace (that of its main
// thread, which the mock never moves).
func hostNetNS(t *testing.T) string {
	id, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// a. claude -p gets the scripted text back.
func TestClaudePrintHello(t *testing.T) {
	srv := NewServer(t, &Script{Main: []Reply{Text("Hello from the mock")}}, WithNetNS())
	env := NewEnv(t, srv.URL, "")
	ctx, cancel := context.WithTimeout(t.Context(), claudeTimeout)
	defer cancel()
	cmd := env.ClaudeCommand(ctx, "-p", "hello")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := srv.Start(cmd); err != nil {
		t.Fatal(err)
	}
	if srv.NetNS() != "" {
		// claude needs about a second to start, so it is still there.
		ns, err := os.Readlink("/proc/" + itoa(cmd.Process.Pid) + "/ns/net")
		if err != nil {
			t.Fatal(err)
		}
		if ns != srv.NetNS() || ns == hostNetNS(t) {
			t.Errorf("claude runs in network namespace %s; server's is %s, the test's %s", ns, srv.NetNS(), hostNetNS(t))
		}
	}
	err := cmd.Wait()
	if err != nil || ctx.Err() != nil {
		t.Fatalf("claude: %v (ctx %v)\nstderr: %s", err, ctx.Err(), stderr.String())
	}
	if got := stdout.String(); got != "Hello from the mock\n" {
		t.Errorf("stdout = %q, want the scripted text", got)
	}
	main := srv.Main()
	if len(main) != 1 {
		t.Fatalf("%d main requests, want 1", len(main))
	}
	r := main[0]
	if !strings.HasSuffix(r.LastUserText(), "hello") || !r.Stream || r.Model == "" || !r.HasTool("Bash") || !r.HasTool("Agent") {
		t.Errorf("main request: last user %q, stream %v, model %q, tools %v", r.LastUserText(), r.Stream, r.Model, r.ToolNames())
	}
	if r.Header.Get("X-Api-Key") != env.APIKey {
		t.Errorf("x-api-key %q", r.Header.Get("X-Api-Key"))
	}
	for _, r := range srv.Requests() {
		if r.Kind == KindOther {
			t.Errorf("unexpected request %s %s", r.Method, r.Path)
		}
	}
}

// b. A Stop hook that blocks once makes claude send a second request ending
// with the feedback; the hook then sees stop_hook_active true.
func TestClaudeStopHookBlocksOnce(t *testing.T) {
	srv := NewServer(t, &Script{Main: []Reply{Text("first answer"), Text("second answer")}}, WithNetNS())
	env := NewEnv(t, srv.URL, "")
	log := NewHookLog(t)
	stop := log.Command("Stop", `if [ -e "$HOOKLOG_DIR/blocked" ]; then exit 0; fi; touch "$HOOKLOG_DIR/blocked"; echo '{"decision":"block","reason":"R1"}'`)
	res := runClaude(t, srv, env, "-p", "hello", "--settings", HookSettings(map[string]string{"Stop": stop}))
	if res.ExitCode != 0 || res.Stdout != "second answer\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	main := srv.Main()
	if len(main) != 2 {
		t.Fatalf("%d main requests, want 2", len(main))
	}
	if strings.Contains(main[0].LastUserText(), "Stop hook feedback") {
		t.Errorf("1st request already has feedback: %q", main[0].LastUserText())
	}
	if got := main[1].LastUserText(); !strings.Contains(got, "Stop hook feedback:\nR1") {
		t.Errorf("2nd request's last user message = %q, want it to contain %q", got, "Stop hook feedback:\nR1")
	}
	// The first answer is in the conversation sent the second time.
	if m := main[1].Messages; len(m) < 2 || !strings.Contains(assistantTexts(m), "first answer") {
		t.Errorf("2nd request lacks the first answer: %+v", m)
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
		// The request headers carry the ids hooks see.
		if stops[i].Get("prompt_id") != main[i].PromptID() || stops[i].Get("session_id") != main[i].SessionID() {
			t.Errorf("Stop #%d prompt/session %q/%q; request #%d's %q/%q", i+1, stops[i].Get("prompt_id"), stops[i].Get("session_id"), i+1, main[i].PromptID(), main[i].SessionID())
		}
	}
}

func assistantTexts(ms []Message) string {
	var b strings.Builder
	for _, m := range ms {
		if m.Role == "assistant" {
			b.WriteString(m.Text())
		}
	}
	return b.String()
}

// c. A Bash tool_use is executed and its output comes back as tool_result;
// the usage claude records in its transcript matches what was served.
func TestClaudeBashToolUse(t *testing.T) {
	t.Run("allowed", func(t *testing.T) {
		srv := NewServer(t, &Script{Main: []Reply{
			Bash("echo mock-bash-$((6*7))", "Print a number").WithText("Let me run it.").
				WithUsage(Usage{InputTokens: 11, OutputTokens: 22, CacheCreationInputTokens: 33, CacheReadInputTokens: 44, CacheCreation1hInputTokens: 3}),
			Text("done"),
		}}, WithNetNS())
		// "_" and "." in the project path: claude turns them into "-".
		env := NewEnv(t, srv.URL, filepath.Join(t.TempDir(), "my_proj.v2"))
		log := NewHookLog(t)
		settings := HookSettings(map[string]string{"PreToolUse": log.Command("PreToolUse", ""), "PostToolUse": log.Command("PostToolUse", "")})
		res := runClaude(t, srv, env, "-p", "run it", "--allowedTools", "Bash", "--settings", settings)
		if res.ExitCode != 0 || res.Stdout != "done\n" {
			t.Fatalf("exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
		}
		main := srv.Main()
		if len(main) != 2 {
			t.Fatalf("%d main requests, want 2", len(main))
		}
		id := main[0].Reply.ToolUses[0].ID
		results := main[1].ToolResults()
		if len(results) != 1 || results[0].ToolUseID != id || results[0].IsError || !strings.Contains(results[0].ResultText(), "mock-bash-42") {
			t.Fatalf("tool results in 2nd request: %+v", results)
		}
		if post := log.Inputs("PostToolUse"); len(post) != 1 || !strings.Contains(string(post[0].Raw), `"stdout":"mock-bash-42"`) || post[0].Get("tool_use_id") != id {
			t.Errorf("PostToolUse inputs: %v", post)
		}
		if pre := log.Inputs("PreToolUse"); len(pre) != 1 || pre[0].Get("tool_name") != "Bash" {
			t.Errorf("PreToolUse inputs: %v", pre)
		}
		// The transcript: one line per content block, usage repeated per
		// message id; de-duplicated it adds up to what the mock served.
		got, ids := transcriptUsage(t, env)
		if want := srv.Tokens(); got != want || ids != 2 {
			t.Errorf("transcript usage %+v over %d messages, served %+v over 2", got, ids, want)
		}
	})
	t.Run("denied in -p without --allowedTools", func(t *testing.T) {
		srv := NewServer(t, &Script{Main: []Reply{Bash("touch created-by-mock", "Create a file"), Text("gave up")}}, WithNetNS())
		env := NewEnv(t, srv.URL, "")
		log := NewHookLog(t)
		res := runClaude(t, srv, env, "-p", "run it", "--settings", HookSettings(map[string]string{"PermissionRequest": log.Command("PermissionRequest", "")}))
		if res.ExitCode != 0 || res.Stdout != "gave up\n" {
			t.Fatalf("exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
		}
		main := srv.Main()
		if len(main) != 2 {
			t.Fatalf("%d main requests, want 2", len(main))
		}
		results := main[1].ToolResults()
		if len(results) != 1 || !results[0].IsError {
			t.Fatalf("want one error tool_result, got %+v", results)
		}
		t.Logf("denial text: %q", results[0].ResultText())
		if _, err := os.Stat(filepath.Join(env.WorkDir, "created-by-mock")); err == nil {
			t.Error("the command ran")
		}
		if pr := log.Inputs("PermissionRequest"); len(pr) != 1 || pr[0].Get("tool_name") != "Bash" {
			t.Errorf("PermissionRequest inputs: %v", pr)
		}
	})
}

// transcriptUsage sums the usage of the assistant lines of the main
// transcripts, counting each message id once.
func transcriptUsage(t *testing.T, env *Env) (Usage, int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(env.ProjectDir(), "*.jsonl"))
	if err != nil || len(files) != 1 {
		t.Fatalf("transcripts in %s: %v %v", env.ProjectDir(), files, err)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	var u Usage
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var line struct {
			Type    string
			Message struct {
				ID    string
				Usage struct {
					Usage
					CacheCreation struct {
						H1 int `json:"ephemeral_1h_input_tokens"`
					} `json:"cache_creation"`
				}
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		if line.Type != "assistant" || seen[line.Message.ID] {
			continue
		}
		seen[line.Message.ID] = true
		lu := line.Message.Usage.Usage
		lu.CacheCreation1hInputTokens = line.Message.Usage.CacheCreation.H1
		u = u.Add(lu)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return u, len(seen)
}

// d. An Agent tool_use runs a subagent: its requests are recognised, and
// SubagentStart/SubagentStop fire.
func TestClaudeSubagent(t *testing.T) {
	t.Run("foreground", func(t *testing.T) {
		srv := NewServer(t, &Script{
			Main:     []Reply{ForegroundAgent("Say hi", "Reply with hi", "general-purpose"), Text("parent done")},
			Subagent: []Reply{Text("sub result")},
		}, WithNetNS())
		env := NewEnv(t, srv.URL, "")
		log := NewHookLog(t)
		settings := HookSettings(map[string]string{
			"SubagentStart": log.Command("SubagentStart", ""),
			"SubagentStop":  log.Command("SubagentStop", ""),
			"Stop":          log.Command("Stop", ""),
		})
		res := runClaude(t, srv, env, "-p", "delegate", "--settings", settings)
		if res.ExitCode != 0 || res.Stdout != "parent done\n" {
			t.Fatalf("exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
		}
		var order []string
		for _, r := range srv.OfKind(KindMain, KindSubagent) {
			order = append(order, r.Kind.String())
		}
		if got := strings.Join(order, " "); got != "main subagent main" {
			t.Fatalf("request order %q, want %q", got, "main subagent main")
		}
		sub := srv.Subagent()[0]
		if !sub.IsSubagent() || sub.AgentType() != "general-purpose" || sub.AgentID() == "" || !strings.Contains(sub.LastUserText(), "Reply with hi") {
			t.Errorf("subagent request: subagent %v, type %q, id %q, last user %q", sub.IsSubagent(), sub.AgentType(), sub.AgentID(), sub.LastUserText())
		}
		main := srv.Main()
		tr, ok := main[1].ToolResult(main[0].Reply.ToolUses[0].ID)
		if !ok || !strings.Contains(tr.ResultText(), "sub result") {
			t.Errorf("Agent tool_result %+v (found %v)", tr, ok)
		}
		stops := log.Inputs("SubagentStop")
		if len(stops) != 1 {
			t.Fatalf("SubagentStop ran %d times, want 1", len(stops))
		}
		s := stops[0]
		if s.Get("agent_type") != "general-purpose" || s.Get("agent_id") != sub.AgentID() || s.Get("last_assistant_message") != "sub result" || s.JSON["stop_hook_active"] != false {
			t.Errorf("SubagentStop stdin: %s", s.Raw)
		}
		if s.Get("session_id") != sub.SessionID() || s.Get("session_id") != main[0].SessionID() {
			t.Errorf("SubagentStop session_id %q; subagent request's %q, main's %q", s.Get("session_id"), sub.SessionID(), main[0].SessionID())
		}
		if starts := log.Inputs("SubagentStart"); len(starts) != 1 || starts[0].Get("agent_id") != sub.AgentID() {
			t.Errorf("SubagentStart inputs: %v", starts)
		}
		if all := log.Inputs(); len(all) != 3 || all[0].Event != "SubagentStart" || all[1].Event != "SubagentStop" || all[2].Event != "Stop" {
			t.Errorf("hook order: %v", all)
		}
	})
	t.Run("background", func(t *testing.T) {
		// Claude's default: the Agent call returns at once, the parent's
		// turn ends while the subagent runs, and its result arrives in a
		// <task-notification> turn.
		// The subagent's reply is held back until the parent's Stop hook has
		// run, to make the order of events deterministic.
		log := NewHookLog(t)
		script := &Script{
			Main:     []Reply{Agent("Say hi", "Reply with hi", "general-purpose"), Text("launched"), Text("final")},
			Subagent: []Reply{Text("sub result")},
		}
		srv := NewServer(t, HandlerFunc(func(r *Request) Reply {
			if r.Kind == KindSubagent && len(log.WaitFor(20*time.Second, 1, "Stop")) == 0 {
				t.Error("the parent's Stop hook did not run while the subagent waited")
			}
			return script.Reply(r)
		}), WithNetNS())
		env := NewEnv(t, srv.URL, "")
		settings := HookSettings(map[string]string{"SubagentStop": log.Command("SubagentStop", ""), "Stop": log.Command("Stop", "")})
		res := runClaude(t, srv, env, "-p", "delegate", "--settings", settings)
		if res.ExitCode != 0 || !strings.HasSuffix(res.Stdout, "final\n") {
			t.Fatalf("exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
		}
		main := srv.Main()
		if len(main) != 3 || len(srv.Subagent()) != 1 {
			t.Fatalf("%d main and %d subagent requests, want 3 and 1", len(main), len(srv.Subagent()))
		}
		if tr := main[1].ToolResults(); len(tr) != 1 || !strings.Contains(tr[0].ResultText(), "Async agent launched") {
			t.Errorf("2nd main request's tool results: %+v", tr)
		}
		if got := main[2].LastUserText(); !strings.Contains(got, "<task-notification>") || !strings.Contains(got, "<result>sub result</result>") {
			t.Errorf("3rd main request's last user text: %q", got)
		}
		var events []string
		for _, in := range log.Inputs() {
			events = append(events, in.Event)
		}
		if got := strings.Join(events, " "); got != "Stop SubagentStop Stop" {
			t.Errorf("hooks ran: %s, want Stop SubagentStop Stop", got)
		}
	})
}

// An API error ends the turn: no retry (the mock sends x-should-retry:
// false), StopFailure instead of Stop, exit status 1.
func TestClaudeAPIError(t *testing.T) {
	srv := NewServer(t, &Script{Main: []Reply{Error(529, "overloaded_error", "Overloaded")}}, WithNetNS())
	env := NewEnv(t, srv.URL, "")
	log := NewHookLog(t)
	settings := HookSettings(map[string]string{"Stop": log.Command("Stop", ""), "StopFailure": "trap '' TERM HUP INT; " + log.Command("StopFailure", "")})
	res := runClaude(t, srv, env, "-p", "hello", "--settings", settings)
	if res.ExitCode != 1 || !strings.Contains(res.Stdout, "529") {
		t.Errorf("exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if n := len(srv.Main()); n != 1 {
		t.Errorf("%d main requests, want 1", n)
	}
	if got := srv.Tokens(); got != (Usage{}) {
		t.Errorf("tokens served with an error: %+v", got)
	}
	// Claude does not wait for StopFailure hooks: it exits and sends them
	// SIGTERM, so this one ignores SIGTERM and the test polls.
	var events []string
	for _, in := range log.WaitFor(30*time.Second, 1) {
		events = append(events, in.Event)
		if in.Event == "StopFailure" && in.Get("error") != "server_error" {
			t.Errorf("StopFailure stdin: %s", in.Raw)
		}
	}
	if strings.Join(events, " ") != "StopFailure" {
		t.Errorf("hooks ran: %v, want StopFailure only", events)
	}
}

// The netns really is loopback-only: a child sees only lo, reaches the
// mock, and cannot reach a listener on the test's own loopback.
func TestNetNSIsolation(t *testing.T) {
	srv := NewServer(t, nil, WithNetNS())
	if srv.NetNS() == "" {
		t.Skip("no network namespace here (see the log above)")
	}
	host, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), "MOCKAPI_HELPER=netns", "MOCKAPI_URL="+srv.URL, "MOCKAPI_HOST_ADDR="+host.Addr().String())
	res := srv.Run(cmd)
	if res.ExitCode != 0 {
		t.Fatalf("helper: exit %d\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	want := []string{"ns " + srv.NetNS(), "ifaces lo", "mock 200", "host unreachable"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("helper saw %q, want %q", lines, want)
	}
	if srv.NetNS() == hostNetNS(t) {
		t.Error("server namespace is the test's")
	}
	if hello := srv.OfKind(KindHello); len(hello) != 1 {
		t.Errorf("%d hello requests", len(hello))
	}
}

// TestMain doubles as the child process of TestNetNSIsolation.
func TestMain(m *testing.M) {
	if os.Getenv("MOCKAPI_HELPER") == "netns" {
		netnsHelper()
	}
	os.Exit(m.Run())
}

// netnsHelper reports what it sees from inside the namespace.
func netnsHelper() {
	ns, _ := os.Readlink("/proc/self/ns/net")
	println := func(s string) { os.Stdout.WriteString(s + "\n") }
	println("ns " + ns)
	ifs, _ := net.Interfaces()
	var names []string
	for _, i := range ifs {
		names = append(names, i.Name)
	}
	println("ifaces " + strings.Join(names, ","))
	resp, err := http.Get(os.Getenv("MOCKAPI_URL") + "/api/hello")
	if err != nil {
		println("mock " + err.Error())
	} else {
		resp.Body.Close()
		println("mock " + itoa(resp.StatusCode))
	}
	c, err := net.DialTimeout("tcp4", os.Getenv("MOCKAPI_HOST_ADDR"), 2*time.Second)
	if err == nil {
		c.Close()
		println("host reachable")
	} else {
		println("host unreachable")
	}
	os.Exit(0)
}

func itoa(i int) string { return strconv.Itoa(i) }

// When the context ends, claude and everything it started (here a
// background process left by a hook) are killed, and Run returns promptly.
func TestClaudeKilledOnTimeout(t *testing.T) {
	srv := NewServer(t, &Script{Main: []Reply{Text("too late").WithDelay(time.Minute)}}, WithNetNS())
	env := NewEnv(t, srv.URL, "")
	pidFile := filepath.Join(t.TempDir(), "sleeper.pid")
	settings := HookSettings(map[string]string{"UserPromptSubmit": "sleep 300 >/dev/null 2>&1 & echo $! > " + shellQuote(pidFile)})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cmd := env.ClaudeCommand(ctx, "-p", "hello", "--settings", settings)
	go func() {
		// Cancel once claude is waiting for the (delayed) reply.
		if _, err := srv.Wait(ctx, func(rs []Request) bool { return len(Filter(rs, KindMain)) > 0 }); err == nil {
			cancel()
		}
	}()
	res := srv.Run(cmd)
	if res.ExitCode != -1 || res.Duration > claudeTimeout/2 {
		t.Errorf("exit %d after %v; want killed promptly", res.ExitCode, res.Duration)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the hook did not run: %v", err)
	}
	pid := strings.TrimSpace(string(b))
	deadline := time.Now().Add(30 * time.Second)
	for {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			break // gone, or a zombie
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hook's background process %s survived: %s", pid, stat)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
