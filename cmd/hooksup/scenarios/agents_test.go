package scenarios

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	codexhooks "github.com/hooksup/hooksup/agent/codex"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/verdictlog"
)

// agentTimeout bounds one run of hooksup or of an agent.
const agentTimeout = 90 * time.Second

// reply is one canned answer of the mock to an agent's turn request: text, after delay.
type reply struct {
	text  string
	delay time.Duration
}

// texts are replies of text alone.
func texts(ss ...string) []reply {
	out := make([]reply, len(ss))
	for i, s := range ss {
		out[i] = reply{text: s}
	}
	return out
}

// agent is a driver: what the scenarios need to know of one agent to run it and to read what it
// did. Every scenario runs for every agent; an outcome that differs by agent is a field here.
type agent struct {
	name string
	// newEnv makes the agent's mock API, which answers its turn requests with replies in order
	// (the last again once they run out), and the agent's environment pointing at it. onHost puts
	// the mock on the host's loopback rather than in a network namespace of its own, which tmux
	// cannot join.
	newEnv func(t *testing.T, a *agent, replies []reply, onHost bool) *env
	// prompt is the agent's arguments to run one prompt headless.
	prompt func(text string) []string
	// stdout is what the agent prints headless when its turn requests were answered replies, in
	// order.
	stdout func(replies ...string) string
	// settings are the person's files of the agent's that install writes hooksup's hooks into.
	settings func(e *env) []string
	// installKeepsBytes is whether uninstall gives those files back byte for byte (else with the
	// same content: the agent's settings are JSON that install rewrites whole).
	installKeepsBytes bool
	// theirs, when set, writes settings of the person's own into those files before install, of
	// the kinds an install could lose.
	theirs func(t *testing.T, e *env)
	// untrust makes the project a folder the agent does not trust, as the person may have it;
	// trusts says whether the agent's own record trusts it now.
	untrust func(t *testing.T, e *env)
	trusts  func(e *env) bool
	// refusesUntrusted is the exit status of an agent that runs nothing headless in a folder it
	// does not trust; 0 for one that runs there, its settings' hooks and hooksup's with it.
	refusesUntrusted int
	// ownStopHook writes the person's settings with a stop hook of their own running command,
	// and returns the files it wrote.
	ownStopHook func(t *testing.T, e *env, command string) []string
	// logsOtherHooks is whether the verdict log records what the person's own stop hooks came
	// to, after each stop's verdict.
	logsOtherHooks bool
	// installVars name the agent's installation (the tests' variables, as mockapi reads them):
	// the agent's binary first.
	installVars []string
	// runAs makes every command of e run as the user cred, with what the agent keeps outside
	// its home placed under reach, a directory the user can read; it returns the directories
	// outside the agent's home that the user must own.
	runAs func(t *testing.T, e *env, cred *syscall.Credential, reach string) []string

	// In the TUI: tuiArgs are the agent's arguments; ready is on the screen once the agent takes
	// a prompt, which it shows after inputPrompt as it is typed; firstRun answers what the agent
	// asks before that, a key at a time once the screen shows what the key answers.
	tuiArgs     []string
	ready       string
	inputPrompt string
	firstRun    func(t *testing.T, tm *e2e.Tmux)
	// halted, when set, is what the agent shows of hooksup halt --reason REASON: qwen shows the
	// message of the allow its halt is; the others end the turn with no word of it.
	halted func(reason string) string
}

// env is one scenario's agent: its mock, its environment, and hooksup's state and runtime
// directories.
type env struct {
	t       *testing.T
	agent   *agent
	state   string // XDG_STATE_HOME
	run     string // XDG_RUNTIME_DIR
	home    string // the agent's $HOME
	workDir string // the project, the commands' working directory
	bin     string // the agent's binary
	setenv  func(key, value string)
	environ func() []string
	command func(ctx context.Context, name string, args ...string) *exec.Cmd
	runCmd  func(*exec.Cmd) mockapi.Result
	// me is the agent's environment of package mockapi (*mockapi.Env, *mockapi.CodexEnv, …),
	// and cred its Credential, which runs its commands as that user.
	me   any
	cred **syscall.Credential
	// turns is the text that ends each of the agent's turn requests so far, where a stop hook's
	// reason reaches the model.
	turns func() []string
}

// mockEnv is what the scenarios call of an agent's environment of package mockapi.
type mockEnv interface {
	Setenv(key, value string)
	Environ() []string
	Command(ctx context.Context, name string, args ...string) *exec.Cmd
}

// newEnv makes hooksup's state, runtime and config directories under a short temporary
// directory (socket paths must stay short) and sets them in the agent's environment me, with
// hooksup's HOOKSUP_<AGENT>_BIN naming the agent's binary bin. cred is me's Credential; runCmd
// runs a command with the agent's mock serving, and turns reads the mock's turn requests.
func newEnv(t *testing.T, a *agent, me mockEnv, home, workDir, bin string, cred **syscall.Credential,
	runCmd func(*exec.Cmd) mockapi.Result, turns func() []string) *env {
	t.Helper()
	short, err := os.MkdirTemp("", "hs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	e := &env{t: t, agent: a, me: me, cred: cred, state: filepath.Join(short, "state"), run: filepath.Join(short, "run"), home: home, workDir: workDir,
		bin: bin, setenv: me.Setenv, environ: me.Environ, command: me.Command, runCmd: runCmd, turns: turns}
	os.MkdirAll(e.run, 0o700)
	me.Setenv("HOOKSUP_"+strings.ToUpper(a.name)+"_BIN", bin)
	me.Setenv("XDG_STATE_HOME", e.state)
	me.Setenv("XDG_RUNTIME_DIR", e.run)
	me.Setenv("XDG_CONFIG_HOME", filepath.Join(short, "config"))
	return e
}

// scripted is replies in the mock's own type, each made by one.
func scripted[R any](replies []reply, one func(reply) R) []R {
	var out []R
	for _, r := range replies {
		out = append(out, one(r))
	}
	return out
}

// turnsOf reads, of each turn request the mock has had (requests), the text that ends it (last).
func turnsOf[R any](requests func() []R, last func(*R) string) func() []string {
	return func() []string {
		rs := requests()
		var out []string
		for i := range rs {
			out = append(out, last(&rs[i]))
		}
		return out
	}
}

// runAsCred is runAs of an agent that keeps nothing outside its home: e's commands run as cred.
func runAsCred(t *testing.T, e *env, cred *syscall.Credential, reach string) []string {
	*e.cred = cred
	return nil
}

// promptAfter is the arguments of a prompt headless: first, then the prompt.
func promptAfter(first string) func(text string) []string {
	return func(text string) []string { return []string{first, text} }
}

// inHome is the files at paths (slash-separated) under the agent's home.
func inHome(paths ...string) func(e *env) []string {
	return func(e *env) []string {
		var out []string
		for _, p := range paths {
			out = append(out, filepath.Join(e.home, filepath.FromSlash(p)))
		}
		return out
	}
}

// holds is whether the file at path holds s.
func holds(path, s string) bool {
	b, _ := os.ReadFile(path)
	return strings.Contains(string(b), s)
}

// config writes a trusted (explicit) config file and returns its path.
func (e *env) config(toml string) string {
	p := filepath.Join(e.home, "hooksup-test.toml")
	if err := os.WriteFile(p, []byte(toml), 0o600); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// hooksup runs hooksup with args headless (no terminal) and waits for it.
func (e *env) hooksup(args ...string) mockapi.Result {
	e.t.Helper()
	return e.runBounded(hooksupBin, args...)
}

// plain runs the agent itself, without hooksup, on one prompt headless.
func (e *env) plain(prompt string) mockapi.Result {
	e.t.Helper()
	return e.runBounded(e.bin, e.agent.prompt(prompt)...)
}

// supervised runs the agent under hooksup with the config file cfg on one prompt headless.
func (e *env) supervised(cfg, prompt string) mockapi.Result {
	e.t.Helper()
	return e.hooksup(append([]string{"--config", cfg, e.agent.name}, e.agent.prompt(prompt)...)...)
}

// runBounded runs name with args in the agent's environment and waits for it, failing the test
// when it outlasts agentTimeout.
func (e *env) runBounded(name string, args ...string) mockapi.Result {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(e.t.Context(), agentTimeout)
	defer cancel()
	res := e.runCmd(e.command(ctx, name, args...))
	if ctx.Err() != nil {
		e.t.Fatalf("%s %v timed out\nstdout: %s\nstderr: %s", filepath.Base(name), args, res.Stdout, res.Stderr)
	}
	return res
}

func (e *env) verdicts() []verdictlog.Verdict {
	e.t.Helper()
	vs, err := e2e.Verdicts(filepath.Join(e.state, "hooksup"))
	if err != nil {
		e.t.Fatal(err)
	}
	return vs
}

func (e *env) decisions() string { return e2e.Decisions(e.verdicts()) }

// log is hooksup.log.
func (e *env) log() string {
	b, _ := os.ReadFile(filepath.Join(e.state, "hooksup", "hooksup.log"))
	return string(b)
}

// checkStdout fails the test unless res's stdout is what the agent prints for replies.
func (e *env) checkStdout(res mockapi.Result, replies ...string) {
	e.t.Helper()
	if want := e.agent.stdout(replies...); res.Stdout != want {
		e.t.Fatalf("stdout %q, want %q\nexit %d\nstderr: %s", res.Stdout, want, res.ExitCode, res.Stderr)
	}
}

// lastReply is what an agent that prints its last reply alone prints.
func lastReply(replies ...string) string { return replies[len(replies)-1] + "\n" }

// everyReply is what an agent that prints every reply of the turn, one after the other, prints.
func everyReply(replies ...string) string { return strings.Join(replies, "") + "\n" }

// agents is every agent, in the order of hooksup's list.
var agents = []*agent{claude, codex, gemini, copilot, qwen}

var claude = &agent{
	name: "claude",
	newEnv: func(t *testing.T, a *agent, replies []reply, onHost bool) *env {
		rs := scripted(replies, func(r reply) mockapi.Reply { return mockapi.Text(r.text).WithDelay(r.delay) })
		srv := mockapi.NewServer(t, &mockapi.Script{Main: rs}, serverOpts(onHost)...)
		me := mockapi.NewEnv(t, srv.URL, "")
		return newEnv(t, a, me, me.Home, me.WorkDir, me.Claude, &me.Credential, srv.Run, turnsOf(srv.Main, (*mockapi.Request).LastUserText))
	},
	prompt:            promptAfter("-p"),
	stdout:            lastReply,
	settings:          inHome(".claude/settings.json"),
	installKeepsBytes: true,
	// claude keeps the answer of its trust dialog in ~/.claude.json; -p asks nothing.
	untrust: func(t *testing.T, e *env) {
		if err := e.me.(*mockapi.Env).UpdateClaudeJSON(func(m map[string]any) {
			m["projects"] = map[string]any{e.workDir: map[string]any{"hasTrustDialogAccepted": false}}
		}); err != nil {
			t.Fatal(err)
		}
	},
	trusts: func(e *env) bool {
		var m struct {
			Projects map[string]struct {
				HasTrustDialogAccepted bool `json:"hasTrustDialogAccepted"`
			} `json:"projects"`
		}
		b, _ := os.ReadFile(e.me.(*mockapi.Env).ClaudeJSONPath())
		json.Unmarshal(b, &m)
		return m.Projects[e.workDir].HasTrustDialogAccepted
	},
	ownStopHook: func(t *testing.T, e *env, command string) []string {
		return writeFile(t, filepath.Join(e.home, ".claude", "settings.json"), `{
  "theme": "dark",
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": `+quoteJSON(command)+`}]}]}
}
`)
	},
	installVars:    []string{mockapi.ClaudeEnvVar},
	logsOtherHooks: true,
	runAs:          runAsCred,
	tuiArgs:        []string{"--permission-mode", "manual"},
	ready:          "manual mode on",
	inputPrompt:    "❯ ",
}

var codex = &agent{
	name: "codex",
	newEnv: func(t *testing.T, a *agent, replies []reply, onHost bool) *env {
		rs := scripted(replies, func(r reply) mockapi.ResponsesReply { return mockapi.OutputText(r.text).WithDelay(r.delay) })
		srv := mockapi.NewResponsesServer(t, &mockapi.ResponsesScript{Replies: rs}, serverOpts(onHost)...)
		me := mockapi.NewCodexEnv(t, srv.URL, "")
		// A stop hook's reason reaches Codex's model as a hook prompt.
		return newEnv(t, a, me, me.Home, me.WorkDir, me.Codex, &me.Credential, srv.Run, turnsOf(srv.Model, (*mockapi.ResponsesRequest).LastHookPrompt))
	},
	prompt:            promptAfter("exec"),
	stdout:            lastReply,
	settings:          inHome(".codex/config.toml", ".codex/hooks.json"),
	installKeepsBytes: true,
	// A Stop hook of their own in config.toml, trusted, and comments.
	theirs: func(t *testing.T, e *env) {
		config := filepath.Join(e.home, ".codex", "config.toml")
		f, err := os.OpenFile(config, os.O_APPEND|os.O_WRONLY, 0)
		if err == nil {
			_, err = f.WriteString(`
# my own Stop hook
[[hooks.Stop]]
hooks = [{ type = "command", command = "true" }]

[hooks.state."` + config + `:stop:0:0"]
# trusted by me
trusted_hash = "sha256:0000000000000000000000000000000000000000000000000000000000000000"
# the end of my config
`)
			f.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
	},
	// codex keeps a project's trust in config.toml's [projects."DIR"].
	untrust: func(t *testing.T, e *env) {
		config := e.me.(*mockapi.CodexEnv).ConfigPath()
		b, err := os.ReadFile(config)
		if err != nil {
			t.Fatal(err)
		}
		kept, _, _ := strings.Cut(string(b), "[projects.")
		if err := os.WriteFile(config, []byte(kept), 0o600); err != nil {
			t.Fatal(err)
		}
	},
	trusts: func(e *env) bool { return holds(e.me.(*mockapi.CodexEnv).ConfigPath(), "[projects.") },
	// Codex runs a hook of the person's only once they trusted its definition, by its hash.
	ownStopHook: func(t *testing.T, e *env, command string) []string {
		config := e.me.(*mockapi.CodexEnv).ConfigPath()
		hash, err := codexhooks.TrustedHash(codexhooks.Hook{Event: "Stop", Command: command})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(config)
		return writeFile(t, config, string(b)+`
# my own Stop hook
[[hooks.Stop]]
hooks = [{ type = "command", command = `+quoteJSON(command)+` }]

[hooks.state."`+config+`:stop:0:0"]
trusted_hash = "`+hash+`"
`)
	},
	installVars: []string{mockapi.CodexEnvVar},
	runAs:       runAsCred,
	ready:       "Ask Codex to do anything",
	inputPrompt: "› ",
}

var gemini = &agent{
	name: "gemini",
	newEnv: func(t *testing.T, a *agent, replies []reply, onHost bool) *env {
		rs := scripted(replies, func(r reply) mockapi.GeminiReply { return mockapi.GeminiReply{Text: r.text, Delay: r.delay} })
		srv := mockapi.NewGeminiServer(t, &mockapi.GeminiScript{Replies: rs}, serverOpts(onHost)...)
		me := mockapi.NewGeminiEnv(t, srv.URL, "")
		return newEnv(t, a, me, me.Home, me.WorkDir, me.Gemini, &me.Credential, srv.Run, turnsOf(srv.Turns, (*mockapi.GeminiRequest).LastUserText))
	},
	prompt:   promptAfter("-p"),
	stdout:   everyReply,
	settings: inHome(".gemini/settings.json"),
	untrust: func(t *testing.T, e *env) {
		if err := e.me.(*mockapi.GeminiEnv).Untrust(); err != nil {
			t.Fatal(err)
		}
	},
	trusts: func(e *env) bool {
		return holds(filepath.Join(e.me.(*mockapi.GeminiEnv).GeminiDir, "trustedFolders.json"), e.workDir)
	},
	refusesUntrusted: 55,
	// A comment, a theme and an AfterAgent hook of theirs.
	ownStopHook: func(t *testing.T, e *env, command string) []string {
		return writeFile(t, e.me.(*mockapi.GeminiEnv).SettingsPath(), `// my gemini settings
{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
  "ide": {"enabled": false},
  "model": {"name": "`+mockapi.GeminiModel+`"},
  "ui": {"theme": "GitHub"}, /* mine */
  "hooks": {"AfterAgent": [{"hooks": [{"name": "mine", "type": "command", "command": `+quoteJSON(command)+`, "timeout": 5000}]}]}
}
`)
	},
	installVars: []string{mockapi.GeminiEnvVar},
	runAs:       runAsCred,
	ready:       "Type your message",
	inputPrompt: "> ",
}

var copilot = &agent{
	name: "copilot",
	newEnv: func(t *testing.T, a *agent, replies []reply, onHost bool) *env {
		srv := chatServer(t, replies, onHost)
		me := mockapi.NewCopilotEnv(t, srv.URL, "")
		return newEnv(t, a, me, me.Home, me.WorkDir, me.Copilot, &me.Credential, srv.Run, chatTurns(srv))
	},
	prompt: promptAfter("-p"),
	// copilot -p prints each reply followed by an empty line.
	stdout:            func(replies ...string) string { return strings.Join(replies, "\n\n") + "\n\n" },
	settings:          inHome(".copilot/settings.json"),
	installKeepsBytes: true,
	// Settings laid out as no JSON encoder would.
	theirs: func(t *testing.T, e *env) {
		dir := filepath.Join(e.home, ".copilot")
		os.MkdirAll(dir, 0o700)
		if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte("{\n\t\"banner\":   \"never\" ,\n\t\"theme\": \"dim\"\n}"), 0o600); err != nil {
			t.Fatal(err)
		}
	},
	// copilot trusts no folder of the tests' until told to (its config.json's trusted_folders).
	untrust: func(*testing.T, *env) {},
	trusts: func(e *env) bool {
		return holds(filepath.Join(e.me.(*mockapi.CopilotEnv).ConfigDir, "config.json"), e.workDir)
	},
	ownStopHook: func(t *testing.T, e *env, command string) []string {
		return writeFile(t, filepath.Join(e.me.(*mockapi.CopilotEnv).ConfigDir, "settings.json"),
			"{\n    \"banner\": \"never\",\n    \"hooks\": {\"agentStop\": [{\"type\": \"command\", \"bash\": "+quoteJSON(command)+", \"timeoutSec\": 5}]}\n}\n")
	},
	installVars: []string{mockapi.CopilotEnvVar},
	// copilot unpacks itself into its cache on its first run: the user gets a copy of the tests'.
	runAs: func(t *testing.T, e *env, cred *syscall.Credential, reach string) []string {
		me := e.me.(*mockapi.CopilotEnv)
		me.Credential = cred
		cache := filepath.Join(reach, "copilot-cache")
		hardCopy(t, me.CacheHome, cache)
		me.CacheHome = cache
		me.Setenv("COPILOT_CACHE_HOME", cache)
		return []string{cache}
	},
	ready: "Manual Approval",
	// "┃ " in the tests' terminal, "❯ " when CI is set.
	inputPrompt: "┃ " + e2e.PromptOr + "❯ ",
	// copilot asks first whether to trust the folder: "1. Yes", for this session, is the one marked.
	firstRun: func(t *testing.T, tm *e2e.Tmux) {
		tm.WaitText(tuiWait, "Do you trust the files in this folder?", "❯ 1. Yes")
		tm.Keys("Enter")
	},
}

var qwen = &agent{
	name: "qwen",
	newEnv: func(t *testing.T, a *agent, replies []reply, onHost bool) *env {
		srv := chatServer(t, replies, onHost)
		me := mockapi.NewQwenEnv(t, srv.URL, "")
		return newEnv(t, a, me, me.Home, me.WorkDir, me.Qwen, &me.Credential, srv.Run, chatTurns(srv))
	},
	prompt:            promptAfter("-p"),
	stdout:            everyReply,
	settings:          inHome(".qwen/settings.json"),
	installKeepsBytes: true,
	// qwen's folder trust is off unless the person turns it on.
	untrust: func(t *testing.T, e *env) {
		settings := mockapi.OfflineQwenSettings()
		settings["security"] = map[string]any{"folderTrust": map[string]any{"enabled": true}}
		b, _ := json.Marshal(settings)
		if err := os.WriteFile(e.me.(*mockapi.QwenEnv).SettingsPath(), b, 0o644); err != nil {
			t.Fatal(err)
		}
	},
	trusts: func(e *env) bool {
		return holds(filepath.Join(e.me.(*mockapi.QwenEnv).QwenDir, "trustedFolders.json"), e.workDir)
	},
	ownStopHook: func(t *testing.T, e *env, command string) []string {
		return writeFile(t, e.me.(*mockapi.QwenEnv).SettingsPath(), `{"$version": 4, "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false}, "general": {"enableAutoUpdate": false}, "ide": {"enabled": false},
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": `+quoteJSON(command)+`}]}]}}
`)
	},
	installVars: []string{mockapi.QwenEnvVar, mockapi.Node22EnvVar},
	runAs:       runAsCred,
	ready:       "Type your message",
	inputPrompt: "> ",
	halted:      func(reason string) string { return "hooksup: halted: " + reason },
}

// writeFile writes content to path (its directory made) and returns path alone.
func writeFile(t *testing.T, path, content string) []string {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{path}
}

// quoteJSON is s as a JSON string (which TOML reads too, for what the tests write).
func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// chatServer is the mock of an agent that speaks OpenAI's chat completions (copilot, qwen).
func chatServer(t *testing.T, replies []reply, onHost bool) *mockapi.ChatServer {
	rs := scripted(replies, func(r reply) mockapi.ChatReply { return mockapi.ChatText(r.text).WithDelay(r.delay) })
	return mockapi.NewChatServer(t, &mockapi.ChatScript{Replies: rs}, serverOpts(onHost)...)
}

// chatTurns reads the turn requests of a chatServer.
func chatTurns(srv *mockapi.ChatServer) func() []string {
	return turnsOf(srv.Turns, (*mockapi.ChatRequest).LastUserText)
}

// serverOpts puts a mock in a loopback-only network namespace of its own (when the tests run
// as root), or on the host's loopback when onHost.
func serverOpts(onHost bool) []mockapi.Option {
	if onHost {
		return []mockapi.Option{mockapi.WithQuiet()}
	}
	return []mockapi.Option{mockapi.WithNetNS(), mockapi.WithQuiet()}
}

// start makes the agent's mock and environment (agent.newEnv).
func (a *agent) start(t *testing.T, replies []reply, onHost bool) *env {
	t.Helper()
	return a.newEnv(t, a, replies, onHost)
}

// forEach runs scenario for every agent, each in a subtest of its name.
func forEach(t *testing.T, scenario func(t *testing.T, a *agent)) {
	for _, a := range agents {
		t.Run(a.name, func(t *testing.T) { scenario(t, a) })
	}
}
