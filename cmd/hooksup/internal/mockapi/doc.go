// Package mockapi runs the real Claude Code CLI (2.1.330) offline in tests:
// a loopback mock of the Anthropic Messages API whose replies the test
// scripts, plus a launcher that gives claude (or a program that runs
// claude, like hooksup) a throwaway environment pointing at the mock. The
// same is here for Codex (the Responses API), Gemini CLI (the Gemini API),
// GitHub Copilot CLI and Qwen Code (both OpenAI's Chat Completions API).
//
// # Typical use
//
//	srv := mockapi.NewServer(t, &mockapi.Script{
//		Main:     []mockapi.Reply{mockapi.ForegroundAgent("Say hi", "Reply with hi", "general-purpose"), mockapi.Text("done")},
//		Subagent: []mockapi.Reply{mockapi.Text("hi")},
//	}, mockapi.WithNetNS())
//	env := mockapi.NewEnv(t, srv.URL, "")     // skips the test without a claude binary
//	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
//	defer cancel()
//	res := srv.Run(env.ClaudeCommand(ctx, "-p", "hello", "--settings", settings))
//	main := srv.Main()                        // the main-agent requests, in order
//	_ = main[1].LastUserText()                // e.g. contains "Stop hook feedback:\nR1"
//	_ = srv.Tokens()                          // usage served to main+subagent requests
//
// To run another program (hooksup) instead: env.Command(ctx, hooksupBin,
// args...) — the Env puts a "claude" symlink to the binary under test first
// on PATH, and sets HOOKSUP_TEST_CLAUDE to it. Start every process with
// Server.Start or Server.Run so it lands in the server's network namespace.
// For a pty, replace cmd.SysProcAttr with {Setsid: true, Setctty: true}
// (Setpgid cannot be combined with Setsid); the context still kills the
// whole process group. Claude's TUI waits for an answer to its DA1 probe
// (ESC [ c) at start-up, e.g. ESC [ ? 62 ; 22 c.
//
// # Server
//
// NewServer serves POST /v1/messages (SSE when "stream":true, else JSON),
// POST /v1/messages/count_tokens, HEAD/GET /api/hello, GET /v1/models[/id];
// anything else gets an Anthropic-style 404 and is recorded as KindOther.
// Each request is parsed into a Request (model, system blocks, messages of
// any role — claude sends role:"system" messages too —, tools) and recorded;
// Server.Requests returns copies, safe while claude runs, and Server.Wait
// blocks until a condition on them holds. A Handler (a *Script, or a
// HandlerFunc for full control) answers main-agent and subagent requests
// with a Reply: text, tool_use blocks (Bash, Agent, ForegroundAgent,
// ToolCall), stop_reason, usage (DefaultUsage when zero), an HTTP error
// (Error; sent with x-should-retry: false, so claude does not retry), a Delay
// before answering or a ChunkDelay between SSE events. The SSE stream has
// the real API's shape: message_start (input-side usage, output_tokens 1),
// ping, content_block_start/delta/stop per block (tool input as
// input_json_delta pieces), message_delta (stop_reason and the full usage,
// with cache_creation.ephemeral_5m/1h), message_stop; responses carry a
// request-id header, which claude stores as requestId in the transcript.
// Claude writes the final usage on every transcript line of a message, so
// de-duplicating by message id gives exactly Server.Tokens().
//
// # Side requests and how they are told apart
//
// Besides the conversation, claude makes auxiliary model calls. Seen with
// 2.1.330: session-title generation (TUI, first prompt; model
// claude-haiku-5-5, no tools, output_config.format = JSON schema
// {title}), and /compact (same system prompt and tools as the main agent,
// last user message "CRITICAL: Respond with TEXT ONLY..."). Its code knows
// many more (prompt suggestions, agent and away summaries, memory
// extraction, quota checks, ...); CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
// (set by NewEnv) turned off the title request, and no -p run made any side
// request. With the gateway setting used here, auto permission mode does not
// send "is this command safe" requests: claude shows an "Auto mode can't
// check actions in this session" dialog instead (use --permission-mode
// manual in TUI tests).
//
// Classification (Classify): NewEnv sets CLAUDE_CODE_GATEWAY_HINT_HEADERS=1,
// which makes claude label every messages request with
// X-Claude-Code-Request-Class: "main" → KindMain, "subagent" or "workflow" →
// KindSubagent, "compaction", "auxiliary", "side_reply" (or anything new) →
// KindSide. Subagent requests also carry X-Claude-Code-Agent-Id/-Type
// (Request.AgentID, AgentType) and "cc_is_subagent=true" in the first system
// block (Request.IsSubagent). Without the header (a program that drops the
// variable) the shape decides: no tools, output_config.format, the compact
// prompt, or no "claude-code-" anthropic-beta → KindSide; cc_is_subagent →
// KindSubagent; else KindMain. Side requests never reach the Handler (a
// Script's sequences are not consumed); they get DefaultSideReply (JSON
// fitting the requested schema, e.g. {"title":"Mock title"}; a <summary>
// for compaction; else a short text) with SideUsage, unless WithSideHandler
// says otherwise.
//
// # Network namespace
//
// WithNetNS puts the server in a fresh network namespace holding only lo:
// one goroutine locks itself to an OS thread (never the main thread),
// unshare(CLONE_NEWNET)s it, brings lo up, and creates the listener there;
// Server.Start forks processes from that same thread, so they inherit the
// namespace and can reach the mock and nothing else (not even the test's
// own loopback). The thread is never unlocked and dies with the server.
// Without root (or where unshare is refused) the server says so with t.Log
// and uses the host loopback; Server.NetNS is then "".
//
// # Codex: the Responses API mock and CodexEnv
//
// NewResponsesServer mocks OpenAI's Responses API for the real Codex CLI 0.169.0
// ($HOOKSUP_TEST_CODEX; FindCodex skips without it, and fails in CI): POST /v1/responses
// answered with SSE (response.created, response.output_item.added, output_text or
// function_call_arguments deltas, response.output_item.done, response.completed with usage).
// A ResponsesScript (main and subagent sequences) or ResponsesHandlerFunc answers with
// OutputText, ShellCall (Codex's exec_command tool), SpawnAgent (multi_agent_v1's
// spawn_agent: a subagent, whose requests carry SubagentHeader and whose end runs
// SubagentStop hooks) or Call; Codex runs the call and sends a function_call_output item in
// the next request. SpawnAndWait is the handler of a main agent that spawns one subagent and
// waits for it (wait_agent) before it answers. Requests are recorded (ResponsesServer.Requests, Model, Wait) and
// parsed into input items; HookPrompts/LastHookPrompt find a Stop hook's block reason, which
// Codex sends as a user message "<hook_prompt hook_run_id=…>reason</hook_prompt>". The
// interactive codex's thread-title request is a side request (IsSide): it gets
// DefaultResponsesSideReply ({"title":"Mock title"}, or WithResponsesSideHandler's) and is
// left out of ResponsesServer.Model; subagents' requests carry SubagentHeader (IsSubagent).
//
// NewCodexEnv gives codex a throwaway HOME and CODEX_HOME (= HOME/.codex) whose config.toml
// points it at the mock, turns off analytics, plugin sync and the update check (each would
// otherwise try the network; in a network namespace the metrics flush alone waits 5 s for
// DNS at exit), and trusts WorkDir, a fresh git repository: `codex exec "hi"` and the
// interactive codex need no other argument. codex.Overrides gives the arguments that add
// hooks for one run, trusted by their hash.
//
// # Copilot CLI and Qwen Code: the Chat Completions mock
//
// NewChatServer mocks OpenAI's Chat Completions API, which GitHub Copilot CLI 1.0.102 (BYOK)
// and Qwen Code 0.24.4 (an OpenAI-compatible provider) speak: POST /v1/chat/completions,
// answered as the body asks — both CLIs send "stream":true with
// stream_options.include_usage, and get bare SSE data lines (the role, the text in pieces, each
// tool call's id and name then its arguments in pieces, the finish_reason, a usage chunk with no
// choices, "data: [DONE]"); without "stream" one chat.completion JSON. GET /v1/models lists
// ChatModels (neither CLI asked for it in our runs); anything else is a 404 in OpenAI's error
// format, logged as unexpected. A ChatScript (one reply per agent request, repeating the last)
// or a ChatHandlerFunc answers with ChatText, ChatCall, CopilotBash (copilot's bash tool),
// QwenShell (qwen's run_shell_command), ChatFailure, a Delay or ChunkDelay; the agent runs a
// call and answers it with a "tool" message (ToolCallID) in the next request. Requests are
// recorded (ChatServer.Requests, Turns, Wait) and parsed into messages: LastUserText,
// UserPrompt (the last message when it is the user's, without copilot's
// <current_datetime> element: a prompt, or a stop hook's reason), ToolResult, Assistant.
// Side requests (IsSide: no tools, or a body holding one of ChatSideMarkers, qwen's memory
// extraction and classifiers) never reach the handler; they get DefaultChatSideReply or
// WithChatSideHandler's.
//
// # CopilotEnv: GitHub Copilot CLI 1.0.102 offline
//
//	srv := mockapi.NewChatServer(t, &mockapi.ChatScript{Replies: []mockapi.ChatReply{
//		mockapi.CopilotBash("ls", "list"), mockapi.ChatText("done")}}, mockapi.WithNetNS())
//	env := mockapi.NewCopilotEnv(t, srv.URL, "")   // skips without $HOOKSUP_TEST_COPILOT
//	plugin, _ := env.Plugin(map[string]string{"agentStop": log.Command("agentStop", "")})
//	res := srv.Run(env.CopilotCommand(ctx, "-p", "hi", "--allow-all-tools", "--plugin-dir", plugin))
//	_ = srv.Turns()[1].UserPrompt()               // a stop hook's reason, when it blocked
//
// Verified by copilot_test.go: BYOK mode needs no GitHub account and no network with
// COPILOT_PROVIDER_BASE_URL=<mock>/v1, COPILOT_PROVIDER_API_KEY (sent as "Authorization:
// Bearer"), COPILOT_MODEL (required; gpt-4.1) and COPILOT_OFFLINE=true. Each turn is one
// POST /v1/chat/completions with stream and stream_options.include_usage, every user message
// prefixed with "<current_datetime>…</current_datetime>\n\n", and CopilotInitiatorHeader
// "user" or "agent"; no other request. -p prints the reply (and a line per tool it ran) on
// stdout, its totals on stderr; a tool call in -p needs --allow-all-tools. The npm package is
// a loader of a native binary that unpacks its JavaScript into $COPILOT_CACHE_HOME/pkg on its
// first run (some 10 s more); CopilotEnv shares one such cache (CopilotCacheHome). Copilot
// keeps its settings, logs and sessions in $HOME/.copilot (COPILOT_HOME unset): the transcript
// is session-state/<sessionId>/events.jsonl, the agentStop hook's transcriptPath.
//
// Hooks for one run come from a plugin directory given with --plugin-dir (CopilotEnv.Plugin:
// .plugin/plugin.json and hooks/hooks.json in copilot's own form, {"version":1,"hooks":
// {"agentStop":[{"type":"command","bash":…,"timeoutSec":30}]}}). agentStop's stdin is
// {"sessionId","timestamp" (ms),"cwd","transcriptPath","stopReason":"end_turn",
// "stop_hook_active"} (testdata/copilot-1.0.102); {"decision":"block","reason":R} on stdout
// with exit 0 makes copilot continue with R as the next user message, the hook's next call
// has stop_hook_active true. One -p run takes 3.5 to 11 s on a busy 2-core machine.
//
// # QwenEnv: Qwen Code 0.24.4 offline
//
//	srv := mockapi.NewChatServer(t, &mockapi.ChatScript{Replies: []mockapi.ChatReply{
//		mockapi.ChatText("first"), mockapi.ChatText("second")}}, mockapi.WithNetNS())
//	env := mockapi.NewQwenEnv(t, srv.URL, "")     // skips without $HOOKSUP_TEST_QWEN (and node 22)
//	env.SystemDefaults(map[string]string{"Stop": log.Command("Stop", "")})
//	res := srv.Run(env.QwenCommand(ctx, "-p", "hi"))
//
// Verified by qwen_test.go: Qwen Code needs node 22 or later (its "engines"; qwen's #! runs
// node from PATH and it restarts itself with process.execPath): QwenEnv puts the directory of
// $HOOKSUP_TEST_NODE22, a node binary, first on PATH when the node there is older. It talks to
// the mock with OPENAI_BASE_URL=<mock>/v1, OPENAI_API_KEY (Bearer) and OPENAI_MODEL
// (mock-model): no login. QwenEnv also writes $HOME/.qwen/settings.json ($version 4, no usage
// statistics, telemetry, auto-update or IDE). Each turn is one streamed POST
// /v1/chat/completions (User-Agent QwenCode/0.24.4); the prompt is the last part of the first
// user message, after <system-reminder> parts. After the answer qwen may ask for a managed-memory
// extraction (a side request, ChatSideMarkers). -p offers run_shell_command only with --yolo.
// The transcript is $HOME/.qwen/projects/<project>/chats/<session_id>.jsonl, the Stop hook's
// transcript_path. Harmless on stderr: "Ripgrep not available: … EACCES" (the npm package's
// rg lacks its x bit).
//
// Hooks for one run come from the lowest settings layer, the file QWEN_CODE_SYSTEM_DEFAULTS_PATH
// names (QwenEnv.SystemDefaults; Claude Code's form, {"$version":4,"hooks":{"Stop":[{"hooks":
// [{"type":"command","command":…,"timeout":30}]}]}}; keep $version, or qwen rewrites the file).
// Stop's stdin is Claude Code's with more: {"session_id","transcript_path","cwd",
// "hook_event_name":"Stop","timestamp","permission_mode","prompt_id","stop_hook_active",
// "last_assistant_message","background_tasks","crons","context_usage","context_limit",
// "input_tokens"} (testdata/qwen-code-0.24.4); {"decision":"block","reason":R} makes the next
// request end with a user message that is exactly R. One -p run takes 7 to 20 s on a busy
// 2-core machine.
//
// Both envs run the agent as the test's user, or as Credential's; as root the mock (WithNetNS)
// and the agent share a loopback-only network namespace, otherwise the host loopback.
//
// # Hooks
//
// HookSettings builds a --settings value; HookLog gives hook commands that
// record their stdin (HookLog.Command, Inputs, WaitFor). Set
// MOCKAPI_DUMP_DIR to a directory to get every request written there.
package mockapi
