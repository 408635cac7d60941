package agents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// A call to an MCP server's tool raises a dialog of its own, which no hook answers either:
// hooksup reads it on the agent's screen, lists the tool as the dialog names it and the
// arguments as shown, and answers it with keys. The server is the test's mcpprobe, named
// "test", whose one tool, probe, appends its note to a file.

// mcpNote is the note the model passes to the probe, and mcpArgs the arguments as gemini shows
// them.
const (
	mcpNote = "hello-probe"
	mcpArgs = `{"note":"` + mcpNote + `"}`
)

// probeLog is the file the probe of a test appends its notes to.
func probeLog(t *testing.T) string { return filepath.Join(t.TempDir(), "probe.log") }

// addJSONSetting sets key at the top of the JSON settings file path to v.
func addJSONSetting(t *testing.T, path, key string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m[key] = v
	if b, err = json.MarshalIndent(m, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// probeServers is the mcpServers setting that gives the agent the probe as server "test",
// its calls' notes appended to log.
func probeServers(log string) map[string]any {
	return map[string]any{"test": map[string]any{"command": e2e.MCPProbeBin, "env": map[string]any{"MCPPROBE_LOG": log}}}
}

// probeRan checks what the probe's file holds: the note when it ran, nothing when it did not.
func probeRan(t *testing.T, log string, ran bool) {
	t.Helper()
	b, err := os.ReadFile(log)
	switch {
	case ran && (err != nil || string(b) != mcpNote+"\n"):
		t.Fatalf("the allowed call did not run the probe: %q %v", b, err)
	case !ran && err == nil:
		t.Fatalf("the denied call ran the probe: %q", b)
	}
}

// geminiMCPDialog starts the real gemini, on its defaults with the probe in its settings, under
// hooksup's TUI and has the model call the probe. It returns the probe's file.
func geminiMCPDialog(t *testing.T, replies ...mockapi.GeminiReply) (*e2e.RealGemini, *e2e.Tmux, string) {
	t.Helper()
	call := mockapi.GeminiReply{Call: &mockapi.GeminiCall{Name: "mcp_test_probe", Args: map[string]any{"note": mcpNote}}}
	rg := newRealGeminiTUI(t, append([]mockapi.GeminiReply{call}, replies...)...)
	log := probeLog(t)
	addJSONSetting(t, rg.Env.SettingsPath(), "mcpServers", probeServers(log))
	tm := e2e.StartTmux(t, 160, 45, rg.Env.Environ(), rg.Env.WorkDir, e2e.HooksupBin, "--debug", "--config", rg.Config(`mode = "auto"`), "gemini")
	const wait = 60 * time.Second
	tm.WaitText(wait, "hooksup gemini", "Type your message", "1 MCP server")
	promptGemini(t, tm, rg, "call the probe")
	tm.WaitText(wait, `Allow execution of MCP tool "probe"`)
	s := e2e.WaitPermission(t, rg.Run, wait)
	fileQuestion(t, s, "probe (test MCP Server)", mcpArgs)
	if a := s.Pending[0].Permission.Always; !strings.HasPrefix(a, `allow the MCP tool "probe" of server "test" for the rest of this gemini session`) {
		t.Fatalf("the question's always: %q", a)
	}
	tm.WaitText(10*time.Second, "⚑ probe (test MCP Server)")
	return rg, tm, log
}

func TestKeysGeminiMCPApproved(t *testing.T) {
	t.Parallel()
	rg, tm, log := geminiMCPDialog(t, mockapi.GeminiText("PROBED-IT"), mockapi.GeminiText("NEXT-TURN"))
	answerAndTime(t, rg.Run, tm, "Allow execution of MCP tool", "allowed probe (test MCP Server): "+mcpArgs, "approve")
	tm.WaitText(60*time.Second, "PROBED-IT")
	probeRan(t, log, true)
	turns := rg.Srv.Turns()
	if len(turns) < 2 || !geminiHasResponse(turns[1], "probe-ran "+mcpNote) {
		t.Fatalf("the model did not get the tool's result: %d turns", len(turns))
	}
	keyVerdict(t, rg.Verdicts(), "allow", "manual (hooksup approve)", mcpArgs)
	geminiPromptClean(t, rg, tm)
}

func TestKeysGeminiMCPDenied(t *testing.T) {
	t.Parallel()
	rg, tm, log := geminiMCPDialog(t, mockapi.GeminiText("NEXT-TURN"))
	answerAndTime(t, rg.Run, tm, "Allow execution of MCP tool", "denied probe (test MCP Server): "+mcpArgs, "deny")
	tm.WaitText(60*time.Second, "Request cancelled")
	probeRan(t, log, false)
	keyVerdict(t, rg.Verdicts(), "deny", "manual (hooksup deny)", mcpArgs)
	// Escape ends gemini's turn and drops the call, as at its other dialogs: the model never
	// hears of it, and the next prompt follows the one before.
	if r := geminiPromptClean(t, rg, tm); geminiHasResponse(r, "") {
		t.Fatalf("the next request carries a result of the cancelled call: %s", r.Body)
	}
}

// Always presses gemini's own "Allow tool for this session": a second call of the tool in the
// same turn, with other arguments, runs with no dialog and no new question, and the person's
// settings are left as they were.
func TestKeysGeminiMCPAlways(t *testing.T) {
	t.Parallel()
	again := mockapi.GeminiReply{Call: &mockapi.GeminiCall{Name: "mcp_test_probe", Args: map[string]any{"note": "again"}}}
	rg, tm, log := geminiMCPDialog(t, again, mockapi.GeminiText("PROBED-BOTH"))
	settings, err := os.ReadFile(rg.Env.SettingsPath())
	if err != nil {
		t.Fatal(err)
	}
	answerAndTime(t, rg.Run, tm, "Allow execution of MCP tool", "allowed probe (test MCP Server): "+mcpArgs, "approve", "--always")
	tm.WaitText(60*time.Second, "PROBED-BOTH")
	if b, err := os.ReadFile(log); err != nil || string(b) != mcpNote+"\nagain\n" {
		t.Fatalf("the calls allowed always: %q %v", b, err)
	}
	nothingPending(t, rg.Run)
	if b, err := os.ReadFile(rg.Env.SettingsPath()); err != nil || string(b) != string(settings) {
		t.Fatalf("always changed the person's settings: %q %v", b, err)
	}
	keyVerdict(t, rg.Verdicts(), "always", "manual (hooksup approve)", mcpArgs)
}

// copilotMCPDialog starts the real copilot, on its default settings with the probe given by
// --additional-mcp-config, under hooksup's TUI and has the model call the probe (copilot names
// it "test-probe" for the model), then answers with then. It returns the probe's file.
func copilotMCPDialog(t *testing.T, then ...mockapi.ChatReply) (*realCopilot, *e2e.Tmux, string) {
	t.Helper()
	e2e.RequireTmux(t)
	script := &mockapi.ChatScript{Replies: append([]mockapi.ChatReply{mockapi.ChatCall("test-probe", map[string]any{"note": mcpNote})}, then...)}
	srv := mockapi.NewChatServer(t, script, mockapi.WithQuiet())
	env := mockapi.NewCopilotEnv(t, srv.URL, "")
	env.Setenv("TERM", "xterm-256color")
	env.Setenv("HOOKSUP_COPILOT_BIN", env.Copilot)
	rc := &realCopilot{HooksupEnv: e2e.NewHooksupEnv(t, "hp", env.Home, env.Setenv, srv.Run, env.Command), Srv: srv, Env: env}
	log := probeLog(t)
	servers := probeServers(log)
	servers["test"].(map[string]any)["type"] = "local"
	servers["test"].(map[string]any)["tools"] = []string{"*"}
	conf, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	confPath := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(confPath, conf, 0o600); err != nil {
		t.Fatal(err)
	}
	tm := e2e.StartTmux(t, 160, 45, env.Environ(), env.WorkDir, e2e.HooksupBin, "--debug", "--config", rc.Config(`mode = "auto"`), "copilot", "--additional-mcp-config", "@"+confPath)
	const wait = 60 * time.Second
	tm.WaitText(wait, "Do you trust the files in this folder?", "❯ 1. Yes")
	tm.Keys("Enter")
	tm.WaitText(wait, "hooksup copilot", "Manual Approval", "1 server connected")
	promptCopilot(t, tm, rc, "call the probe")
	tm.WaitText(wait, "Do you want to use this tool?")
	s := e2e.WaitPermission(t, rc.Run, wait)
	fileQuestion(t, s, "probe (MCP: test)", mcpArgs)
	if a := s.Pending[0].Permission.Always; !strings.HasPrefix(a, `allow tool "probe" from "test" in this directory (`) {
		t.Fatalf("the question's always: %q", a)
	}
	tm.WaitText(10*time.Second, "⚑ probe (MCP: test)")
	return rc, tm, log
}

func TestKeysCopilotMCPApproved(t *testing.T) {
	t.Parallel()
	rc, tm, log := copilotMCPDialog(t, mockapi.ChatText("PROBED-IT"), mockapi.ChatText("NEXT-TURN"))
	answerAndTime(t, rc.Run, tm, "Do you want to use this tool?", "allowed probe (MCP: test): "+mcpArgs, "approve")
	tm.WaitText(60*time.Second, "PROBED-IT")
	probeRan(t, log, true)
	turns := rc.Srv.Turns()
	if len(turns) < 2 || len(turns[1].ToolResults()) != 1 || !strings.Contains(turns[1].ToolResults()[0].Text(), "PROBE-RAN "+mcpNote) {
		t.Fatalf("the model did not get the tool's result: %d turns", len(turns))
	}
	keyVerdict(t, rc.Verdicts(), "allow", "manual (hooksup approve)", mcpArgs)
	copilotPromptClean(t, rc, tm)
}

func TestKeysCopilotMCPDenied(t *testing.T) {
	t.Parallel()
	rc, tm, log := copilotMCPDialog(t, mockapi.ChatText("NEXT-TURN"))
	answerAndTime(t, rc.Run, tm, "Do you want to use this tool?", "denied probe (MCP: test): "+mcpArgs, "deny")
	tm.WaitText(60*time.Second, "Operation cancelled by user")
	probeRan(t, log, false)
	keyVerdict(t, rc.Verdicts(), "deny", "manual (hooksup deny)", mcpArgs)
	// Escape ends copilot's turn: the next prompt's request carries the call as interrupted.
	r := copilotPromptClean(t, rc, tm)
	if res := r.ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text(), "interrupted") {
		t.Fatalf("the next request does not carry the refused call: %+v", res)
	}
}

// deny --reason at copilot's MCP tool dialog types the reason into its third option, the one for
// feedback: the probe does not run, the turn goes on, and the model reads the reason.
func TestKeysCopilotMCPDeniedWithReason(t *testing.T) {
	t.Parallel()
	rc, tm, log := copilotMCPDialog(t, mockapi.ChatText("TOOK-THE-HINT"))
	const reason = "ask the probe tomorrow"
	answerAndTime(t, rc.Run, tm, "Do you want to use this tool?", "denied probe (MCP: test): "+mcpArgs, "deny", "--reason", reason)
	copilotReadTheReason(t, rc, tm, reason)
	probeRan(t, log, false)
	keyVerdict(t, rc.Verdicts(), "deny", "manual (hooksup deny)", mcpArgs)
}

// Always presses copilot's own "Yes, and don't ask again for tool "probe" from "test" in this
// directory": a second call with other arguments in the same turn runs with no dialog and no new
// question, and copilot keeps the approval (its permissions-config.json, an "mcp" one).
func TestKeysCopilotMCPAlways(t *testing.T) {
	t.Parallel()
	rc, tm, log := copilotMCPDialog(t, mockapi.ChatCall("test-probe", map[string]any{"note": "again"}), mockapi.ChatText("PROBED-BOTH"))
	answerAndTime(t, rc.Run, tm, "Do you want to use this tool?", "allowed probe (MCP: test): "+mcpArgs, "approve", "--always")
	tm.WaitText(60*time.Second, "PROBED-BOTH")
	if b, err := os.ReadFile(log); err != nil || string(b) != mcpNote+"\nagain\n" {
		t.Fatalf("the calls allowed always: %q %v", b, err)
	}
	nothingPending(t, rc.Run)
	conf, err := os.ReadFile(filepath.Join(rc.Env.Home, ".copilot", "permissions-config.json"))
	if err != nil || !strings.Contains(string(conf), `"kind": "mcp"`) || !strings.Contains(string(conf), `"toolName": "probe"`) {
		t.Fatalf("copilot's permissions after always: %q %v", conf, err)
	}
	keyVerdict(t, rc.Verdicts(), "always", "manual (hooksup approve)", mcpArgs)
}

// qwenMCPDialog starts the real qwen, on its defaults (auto mode, whose classifier cannot judge
// the call offline) with the probe in its settings, under hooksup's TUI and has the model call
// the probe (qwen names it "mcp__test__probe" for the model). It returns the probe's file.
func qwenMCPDialog(t *testing.T, then ...mockapi.ChatReply) (*realQwen, *e2e.Tmux, string) {
	t.Helper()
	e2e.RequireTmux(t)
	script := &mockapi.ChatScript{Replies: append([]mockapi.ChatReply{mockapi.ChatCall("mcp__test__probe", map[string]any{"note": mcpNote})}, then...)}
	srv := mockapi.NewChatServer(t, script, mockapi.WithQuiet())
	env := mockapi.NewQwenEnv(t, srv.URL, "")
	env.Setenv("TERM", "xterm-256color")
	env.Setenv("HOOKSUP_QWEN_BIN", env.Qwen)
	rq := &realQwen{HooksupEnv: e2e.NewHooksupEnv(t, "hq", env.Home, env.Setenv, srv.Run, env.Command), srv: srv, env: env}
	log := probeLog(t)
	addJSONSetting(t, env.SettingsPath(), "mcpServers", probeServers(log))
	tm := e2e.StartTmux(t, 160, 45, env.Environ(), env.WorkDir, e2e.HooksupBin, "--debug", "--config", rq.Config(`mode = "auto"`), "qwen")
	const wait = 90 * time.Second
	tm.WaitText(wait, "hooksup qwen", "Type your message")
	promptQwen(t, tm, rq, "call the probe")
	tm.WaitText(wait, `Allow execution of MCP tool "probe"`)
	s := e2e.WaitPermission(t, rq.Run, wait)
	fileQuestion(t, s, "probe (test MCP Server)", mcpArgs)
	if a := s.Pending[0].Permission.Always; a != "" {
		t.Fatalf("auto mode's MCP dialog offers always: %q", a)
	}
	tm.WaitText(10*time.Second, "⚑ probe (test MCP Server)")
	return rq, tm, log
}

func TestKeysQwenMCPApproved(t *testing.T) {
	t.Parallel()
	rq, tm, log := qwenMCPDialog(t, mockapi.ChatText("PROBED-IT"), mockapi.ChatText("NEXT-TURN"))
	answerAndTime(t, rq.Run, tm, "Allow execution of MCP tool", "allowed probe (test MCP Server): "+mcpArgs, "approve")
	tm.WaitText(60*time.Second, "PROBED-IT")
	probeRan(t, log, true)
	turns := rq.srv.Turns()
	if len(turns) < 2 || len(turns[1].ToolResults()) != 1 || !strings.Contains(turns[1].ToolResults()[0].Text(), "PROBE-RAN "+mcpNote) {
		t.Fatalf("the model did not get the tool's result: %d turns", len(turns))
	}
	keyVerdict(t, rq.Verdicts(), "allow", "manual (hooksup approve)", mcpArgs)
	qwenPromptClean(t, rq, tm)
}

func TestKeysQwenMCPDenied(t *testing.T) {
	t.Parallel()
	rq, tm, log := qwenMCPDialog(t, mockapi.ChatText("NEXT-TURN"))
	answerAndTime(t, rq.Run, tm, "Allow execution of MCP tool", "denied probe (test MCP Server): "+mcpArgs, "deny")
	tm.WaitText(60*time.Second, "Type your message")
	probeRan(t, log, false)
	keyVerdict(t, rq.Verdicts(), "deny", "manual (hooksup deny)", mcpArgs)
	// Escape cancels the call and ends qwen's turn: the model reads the refusal with the next
	// prompt, as the call's result.
	r := qwenPromptClean(t, rq, tm)
	if len(rq.srv.Turns()) != 2 {
		t.Fatalf("%d turn requests: the denied call went on to the model before the next prompt", len(rq.srv.Turns()))
	}
	if res := r.ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text(), "User did not allow tool call") {
		t.Fatalf("the next request does not carry the refusal: %+v", res)
	}
}

// codexMCPDialog starts the real codex, on its defaults with the probe as [mcp_servers.test] in
// its config.toml, under hooksup's TUI and has the model call the probe (codex gives the model
// the server's tools in the namespace "mcp__test"), then answers with then. It returns the
// probe's file.
func codexMCPDialog(t *testing.T, then ...mockapi.ResponsesReply) (*e2e.RealCodex, *e2e.Tmux, string) {
	t.Helper()
	call := mockapi.ResponsesReply{Calls: []mockapi.FunctionCall{{Name: "probe", Namespace: "mcp__test", Arguments: map[string]any{"note": mcpNote}}}}
	rc := newRealCodexTUI(t, &mockapi.ResponsesScript{Replies: append([]mockapi.ResponsesReply{call}, then...)})
	log := probeLog(t)
	if err := rc.Env.AppendConfig("\n[mcp_servers.test]\ncommand = " + strconv.Quote(e2e.MCPProbeBin) + "\nenv = { MCPPROBE_LOG = " + strconv.Quote(log) + " }\n"); err != nil {
		t.Fatal(err)
	}
	tm := e2e.StartTmux(t, 160, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--debug", "--config", rc.Config(`mode = "auto"`), "codex")
	const wait = 45 * time.Second
	tm.WaitText(wait, "hooksup codex", "Ask Codex to do anything")
	promptCodex(t, tm, rc, "call the probe")
	tm.WaitText(wait, `Allow the test MCP server to run tool "probe"?`)
	s := e2e.WaitPermission(t, rc.Run, wait)
	fileQuestion(t, s, "probe (test MCP server)", "note: "+mcpNote)
	if a := s.Pending[0].Permission.Always; !strings.HasPrefix(a, `allow the test MCP server's tool "probe" for the rest of this codex session`) {
		t.Fatalf("the question's always: %q", a)
	}
	tm.WaitText(10*time.Second, "⚑ probe (test MCP server)")
	return rc, tm, log
}

func TestKeysCodexMCPApproved(t *testing.T) {
	t.Parallel()
	rc, tm, log := codexMCPDialog(t, mockapi.OutputText("PROBED-IT"))
	answerAndTime(t, rc.Run, tm, "MCP server to run tool", "allowed probe (test MCP server): note: "+mcpNote, "approve")
	tm.WaitText(45*time.Second, "PROBED-IT")
	probeRan(t, log, true)
	reqs := rc.Srv.Model()
	if len(reqs) < 2 || len(reqs[1].FunctionOutputs()) == 0 || !strings.Contains(reqs[1].FunctionOutputs()[0].Output, "PROBE-RAN "+mcpNote) {
		t.Fatalf("the model did not get the tool's result: %d requests", len(reqs))
	}
	keyVerdict(t, rc.Verdicts(), "allow", "manual (hooksup approve)", "note: "+mcpNote)
}

// Escape cancels the call at codex's form, and the turn goes on: the model reads the
// cancellation as the call's output at once.
func TestKeysCodexMCPDenied(t *testing.T) {
	t.Parallel()
	rc, tm, log := codexMCPDialog(t, mockapi.OutputText("HEARD-NO"))
	answerAndTime(t, rc.Run, tm, "MCP server to run tool", "denied probe (test MCP server): note: "+mcpNote, "deny")
	tm.WaitText(45*time.Second, "user cancelled MCP tool call", "HEARD-NO")
	probeRan(t, log, false)
	keyVerdict(t, rc.Verdicts(), "deny", "manual (hooksup deny)", "note: "+mcpNote)
	reqs := rc.Srv.Model()
	if len(reqs) != 2 || len(reqs[1].FunctionOutputs()) != 1 || !strings.Contains(reqs[1].FunctionOutputs()[0].Output, "user cancelled MCP tool call") {
		t.Fatalf("the model did not read the cancellation: %d requests", len(reqs))
	}
}

// Always presses codex's own "Allow for this session": a second call with other arguments in
// the same turn runs with no form and no new question, and codex's config.toml is left as it
// was (its "Always allow" would remember the tool there).
func TestKeysCodexMCPAlways(t *testing.T) {
	t.Parallel()
	again := mockapi.ResponsesReply{Calls: []mockapi.FunctionCall{{Name: "probe", Namespace: "mcp__test", Arguments: map[string]any{"note": "again"}}}}
	rc, tm, log := codexMCPDialog(t, again, mockapi.OutputText("PROBED-BOTH"))
	conf, err := os.ReadFile(rc.Env.ConfigPath())
	if err != nil {
		t.Fatal(err)
	}
	answerAndTime(t, rc.Run, tm, "MCP server to run tool", "allowed probe (test MCP server): note: "+mcpNote, "approve", "--always")
	tm.WaitText(45*time.Second, "PROBED-BOTH")
	if b, err := os.ReadFile(log); err != nil || string(b) != mcpNote+"\nagain\n" {
		t.Fatalf("the calls allowed always: %q %v", b, err)
	}
	nothingPending(t, rc.Run)
	if b, err := os.ReadFile(rc.Env.ConfigPath()); err != nil || string(b) != string(conf) {
		t.Fatalf("always changed codex's config.toml: %q %v", b, err)
	}
	keyVerdict(t, rc.Verdicts(), "always", "manual (hooksup approve)", "note: "+mcpNote)
}
