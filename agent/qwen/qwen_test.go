package qwen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// The real Stop inputs of qwen 0.24.4 read as hooksup's: the stop, whether it follows a block,
// the reply, the prompt.
func TestSampleInputs(t *testing.T) {
	for _, c := range []struct {
		file   string
		active bool
		last   string
	}{
		{"testdata/hook-input-Stop.json", false, "first answer"},
		{"testdata/hook-input-Stop-2nd.json", true, "fixed after gate"},
	} {
		b, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		in, err := hooks.ParseInput(b)
		if err != nil {
			t.Fatal(err)
		}
		Agent{}.Input(in)
		if in.HookEventName != hooks.Stop || in.Active() != c.active || in.LastAssistantMessage != c.last || !strings.HasSuffix(in.PromptID, "########0") {
			t.Errorf("%s: %+v", c.file, in)
		}
	}
	b, _ := os.ReadFile("testdata/tui-hook-input-Notification.jsonl")
	var kinds []string
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		in, err := hooks.ParseInput(l)
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, in.NotificationType)
	}
	if strings.Join(kinds, ",") != "permission_prompt,idle_prompt" {
		t.Errorf("notifications %v", kinds)
	}
}

// Qwen fires UserPromptSubmit for a tool's result and for the reasons Stop hooks blocked with:
// only the person's prompt carries submitted_prompt, and the others continue the turn.
func TestOnlyThePersonsPromptStartsATurn(t *testing.T) {
	b, err := os.ReadFile("testdata/tui-hook-input-UserPromptSubmit.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		in, err := hooks.ParseInput(l)
		if err != nil {
			t.Fatal(err)
		}
		Agent{}.Input(in)
		got = append(got, fmt.Sprintf("%q:%v", in.Prompt, in.Continuing))
	}
	if want := `"please create a file":false,"":true,"GATE-NEEDLE-42 stop fix it":true`; strings.Join(got, ",") != want {
		t.Fatalf("got %s, want %s", strings.Join(got, ","), want)
	}
}

// What other Stop hooks said, out of the prompt qwen joins their reasons into with hooksup's.
func TestOtherStopReasons(t *testing.T) {
	const sent = "check tests failed:\nFAIL x_test.go:3"
	for _, c := range []struct{ prompt, sent, want string }{
		{"REPO says no\n" + sent, sent, "REPO says no"},
		{"REPO says no\nUSER: line one\nline two\n" + sent, sent, "REPO says no\nUSER: line one\nline two"},
		{"Hook executed successfully\n" + sent, sent, ""},
		{sent, sent, ""},
		{"REPO says no", "", "REPO says no"},
		{"Hook executed successfully\nREPO says no", "", "REPO says no"},
		{"REPO quotes check tests failed:\nFAIL x_test.go:3\n" + sent, sent, "REPO quotes check tests failed:\nFAIL x_test.go:3"},
	} {
		if got := (Agent{}).OtherStopReasons(c.prompt, c.sent); got != c.want {
			t.Errorf("OtherStopReasons(%q, %q) = %q, want %q", c.prompt, c.sent, got, c.want)
		}
	}
}

// The chat of a stop blocked once: the prompt, the two replies with their model and tokens (the
// continuation prompt is not in the chat).
func TestChatDecoder(t *testing.T) {
	b, err := os.ReadFile("testdata/transcript-s2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	d := Agent{}.Transcript()(1000)
	var got []string
	var usage session.Usage
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		r := d.Decode(l)
		switch r.Kind {
		case transcript.KindPrompt:
			got = append(got, "prompt:"+r.Text)
		case transcript.KindAssistant:
			got = append(got, r.Model+":"+r.Text)
			if !r.HasUsage || r.UsageID == "" {
				t.Errorf("reply without usage: %+v", r)
			}
			usage.InputTokens += r.Usage.InputTokens
			usage.CacheReadTokens += r.Usage.CacheReadTokens
			usage.OutputTokens += r.Usage.OutputTokens
		}
	}
	if strings.Join(got, "|") != "prompt:hello|mock-model:first answer|mock-model:fixed after gate" {
		t.Errorf("records %q", got)
	}
	if usage.InputTokens != 18 || usage.CacheReadTokens != 6 || usage.OutputTokens != 14 {
		t.Errorf("usage %+v", usage)
	}
	r := d.Decode([]byte(`{"uuid":"u","type":"assistant","model":"m","message":{"role":"model","parts":[{"text":"thinking","thought":true},{"text":"I'll run it"},{"functionCall":{"id":"call_1","name":"run_shell_command","args":{}}}]}}`))
	if r.Text != "I'll run it" || len(r.Tools) != 1 || r.Tools[0].Name != "run_shell_command" || r.Tools[0].ID != "call_1" {
		t.Errorf("tool call record %+v", r)
	}
	if r := d.Decode([]byte(`{"type":"tool_result","message":{"role":"user","parts":[{"functionResponse":{"id":"call_1","name":"run_shell_command"}}]}}`)); r.Kind != transcript.KindToolResult {
		t.Errorf("tool result %+v", r)
	}
	if (Agent{}).ResumeID("/h/.qwen/projects/-p/chats/a4fdbc8d-4f20.jsonl") != "a4fdbc8d-4f20" {
		t.Error("ResumeID")
	}
}

func TestTranscriptsAreTheProjectsChats(t *testing.T) {
	got := Agent{}.Transcripts(envOf(map[string]string{"HOME": "/home/p"}), "/tmp/hE.qwen_run/proj")
	if got != "/home/p/.qwen/projects/-tmp-hE-qwen-run-proj/chats/*.jsonl" {
		t.Errorf("Transcripts = %s", got)
	}
	got = Agent{}.Transcripts(envOf(map[string]string{"HOME": "/home/p", "QWEN_HOME": "/q"}), "/a")
	if got != "/q/projects/-a/chats/*.jsonl" {
		t.Errorf("Transcripts with QWEN_HOME = %s", got)
	}
}

// The session's system defaults: the administrator's carried over, "$version" kept, hooksup's
// hooks after theirs, timeouts in milliseconds, 0600, and the variable that names the file.
func TestInjectWritesSystemDefaults(t *testing.T) {
	dir, etc := t.TempDir(), t.TempDir()
	admin := filepath.Join(etc, "system-defaults.json")
	os.WriteFile(admin, []byte(`{ // the administrator's
  "model": {"name": "theirs"},
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "admin-gate"}]}]}
}`), 0o644)
	h := agent.Hooks{Events: []string{hooks.Stop, hooks.Notification}, Command: func(ev string) string { return "/bin/hooksup-hook " + ev },
		StopTimeout: 20 * time.Minute, OtherTimeout: 30 * time.Second,
		Getenv: envOf(map[string]string{"HOME": t.TempDir(), "QWEN_CODE_SYSTEM_DEFAULTS_PATH": admin})}
	l, err := Agent{}.Inject(h, []string{"-p", "hi"}, dir, "abc")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "abc.qwen-system-defaults.json")
	if len(l.Env) != 1 || l.Env[0] != "QWEN_CODE_SYSTEM_DEFAULTS_PATH="+path || len(l.Files) != 1 || l.Files[0] != path {
		t.Fatalf("launch %+v", l)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file %v %v", fi, err)
	}
	var m struct {
		Version json.Number `json:"$version"`
		Model   struct{ Name string }
		Hooks   map[string][]struct {
			Hooks []struct {
				Name, Command string
				Timeout       int64
			}
		}
	}
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Version != "4" || m.Model.Name != "theirs" {
		t.Errorf("version %q model %q", m.Version, m.Model.Name)
	}
	stop := m.Hooks["Stop"]
	if len(stop) != 2 || stop[0].Hooks[0].Command != "admin-gate" || stop[1].Hooks[0].Command != "/bin/hooksup-hook Stop" || stop[1].Hooks[0].Timeout != 1200000 {
		t.Errorf("Stop hooks %+v", stop)
	}
	if n := m.Hooks["Notification"]; len(n) != 1 || n[0].Hooks[0].Timeout != 30000 {
		t.Errorf("Notification hooks %+v", n)
	}
	if Millis(200*time.Millisecond) != 1000 {
		t.Error("a timeout under a second would be read as seconds")
	}
}

func TestWarningsSayWhatTurnsTheGateOff(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	getenv := envOf(map[string]string{"HOME": home, "QWEN_CODE_SYSTEM_SETTINGS_PATH": filepath.Join(t.TempDir(), "none.json")})
	if w := Warnings([]string{"-p", "hi"}, getenv, proj); len(w) != 0 {
		t.Errorf("plain run warns %q", w)
	}
	w := strings.Join(Warnings([]string{"--bare", "-p", "hi", "--", "--safe-mode"}, getenv, proj), "\n")
	if !strings.Contains(w, "your --bare turns every hook of qwen's off, hooksup's too") || strings.Contains(w, "safe-mode") {
		t.Errorf("--bare: %q", w)
	}
	os.MkdirAll(filepath.Join(home, ".qwen"), 0o755)
	os.WriteFile(filepath.Join(home, ".qwen", "settings.json"), []byte(`{"disableAllHooks": true}`), 0o644)
	os.MkdirAll(filepath.Join(proj, ".qwen"), 0o755)
	os.WriteFile(filepath.Join(proj, ".qwen", "settings.json"), []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./gate"}]}]}}`), 0o644)
	w = strings.Join(Warnings(nil, getenv, proj), "\n")
	if !strings.Contains(w, "disableAllHooks in "+filepath.Join(home, ".qwen", "settings.json")+" turns every hook") {
		t.Errorf("disableAllHooks: %q", w)
	}
	if !strings.Contains(w, "has 1 Stop hook(s) of the project's own: qwen runs them without asking") {
		t.Errorf("project hooks: %q", w)
	}
}

func TestBlockCapIsTheContinuationsQwenHonours(t *testing.T) {
	home := t.TempDir()
	if c := (Agent{}).BlockCap(envOf(map[string]string{"HOME": home})); c != 7 {
		t.Errorf("default = %d, want 7", c)
	}
	if c := (Agent{}).BlockCap(envOf(map[string]string{"HOME": home, "QWEN_CODE_STOP_HOOK_BLOCK_CAP": "3"})); c != 2 {
		t.Errorf("env 3 = %d", c)
	}
	os.MkdirAll(filepath.Join(home, ".qwen"), 0o755)
	os.WriteFile(filepath.Join(home, ".qwen", "settings.json"), []byte(`{"stopHookBlockingCap": 5}`), 0o644)
	if c := (Agent{}).BlockCap(envOf(map[string]string{"HOME": home})); c != 4 {
		t.Errorf("setting 5 = %d", c)
	}
}

func TestTitleStateAndResume(t *testing.T) {
	for title, want := range map[string]string{
		"◐︎ Qwen - proj": "working", "✳︎ Qwen - proj": "blocked/permission", "Qwen - proj": "idle", "": "",
	} {
		st, kind, _, _ := Agent{}.TitleState(title)
		if kind != "" {
			st += "/" + kind
		}
		if st != want {
			t.Errorf("%q: %q, want %q", title, st, want)
		}
	}
	if l, ok := (Agent{}).ResumeHint("  qwen --resume a4fd"); !ok || l != "  hooksup qwen --resume a4fd" {
		t.Errorf("ResumeHint %q %v", l, ok)
	}
	if _, ok := (Agent{}).ResumeHint("hooksup qwen --resume a4fd"); ok {
		t.Error("ResumeHint rewrote hooksup's own")
	}
}

// A qwen older than 0.24.4 is refused, by the version its npm package names.
func TestEventsRefuseAnOlderQwen(t *testing.T) {
	for v, refused := range map[string]bool{"0.24.3": true, "0.24.4": false, "0.25.0": false} {
		dir := filepath.Join(t.TempDir(), "node_modules", "@qwen-code", "qwen-code")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"@qwen-code/qwen-code","version":"`+v+`"}`), 0o644)
		bin := filepath.Join(dir, "cli.js")
		os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755)
		evs, err := Agent{}.Events(context.Background(), bin, nil, slog.New(slog.DiscardHandler))
		if refused != (err != nil) {
			t.Errorf("%s: err %v", v, err)
		}
		if err != nil && !strings.Contains(err.Error(), "older than 0.24.4") {
			t.Errorf("%s: %v", v, err)
		}
		if !refused && !strings.Contains(strings.Join(evs, ","), "Stop") {
			t.Errorf("%s: events %v", v, evs)
		}
	}
}

// install adds a Stop hook (milliseconds) and keeps the rest; uninstall gives the file back
// byte for byte, and removes a file install made.
func TestInstallUninstall(t *testing.T) {
	home := t.TempDir()
	o := agent.Install{Home: home, Getenv: envOf(map[string]string{"HOME": home, "XDG_STATE_HOME": t.TempDir()}), Stdout: &bytes.Buffer{},
		Bin: func() (string, error) { return "/usr/bin/hooksup-hook", nil }, Timeout: func() time.Duration { return 11 * time.Minute }}
	path := filepath.Join(home, ".qwen", "settings.json")
	if err := (Agent{}).Install(o); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !bytes.Contains(b, []byte(`"$version": 4`)) || !bytes.Contains(b, []byte(`"timeout": 660000`)) || !bytes.Contains(b, []byte(`--agent qwen Stop --installed`)) {
		t.Errorf("installed into a new file:\n%s", b)
	}
	if err := (Agent{}).Uninstall(o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("uninstall left the file install made")
	}
	for _, theirs := range [][]byte{
		[]byte("{\n  \"$version\": 4,\n  \"model\": { \"name\": \"x\" },  \"ui\": {\"theme\": \"y\"}\n}\n"),
		[]byte("{\"model\":{\"name\":\"x\"},\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"mine\"}]}]}}"),
	} {
		os.WriteFile(path, theirs, 0o640)
		if err := (Agent{}).Install(o); err != nil {
			t.Fatal(err)
		}
		if err := (Agent{}).Uninstall(o); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); !bytes.Equal(b, theirs) {
			t.Errorf("uninstall changed their file:\n%s\nwas\n%s", b, theirs)
		}
	}
	if err := (Agent{}).Install(agent.Install{Scope: "project"}); err == nil {
		t.Error("--scope project accepted")
	}
}

// hooksup raises qwen's cap on blocked stops (QWEN_CODE_STOP_HOOK_BLOCK_CAP, one more than the
// continuations it honours, 100 at most) to its own budget when that is larger than qwen's
// default; a cap the person set, in the environment or their settings, stays theirs.
func TestQwenCapEnv(t *testing.T) {
	home := t.TempDir()
	withSetting := t.TempDir()
	os.MkdirAll(filepath.Join(withSetting, ".qwen"), 0o755)
	os.WriteFile(filepath.Join(withSetting, ".qwen", "settings.json"), []byte(`{"stopHookBlockingCap": 5}`), 0o644)
	for _, c := range []struct {
		name   string
		blocks int
		env    map[string]string
		want   string
	}{
		{"goal of 12 turns", 12, map[string]string{"HOME": home}, "QWEN_CODE_STOP_HOOK_BLOCK_CAP=13"},
		{"budget within qwen's cap", 7, map[string]string{"HOME": home}, ""},
		{"beyond qwen's highest", 500, map[string]string{"HOME": home}, "QWEN_CODE_STOP_HOOK_BLOCK_CAP=100"},
		{"the person's variable", 12, map[string]string{"HOME": home, "QWEN_CODE_STOP_HOOK_BLOCK_CAP": "3"}, ""},
		{"the person's setting", 12, map[string]string{"HOME": withSetting}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := agent.Hooks{Events: []string{hooks.Stop}, Command: func(string) string { return "h" }, Getenv: envOf(c.env), Blocks: c.blocks}
			l, err := Agent{}.Inject(h, []string{"-p", "hi"}, t.TempDir(), "abc")
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, e := range l.Env {
				if strings.HasPrefix(e, "QWEN_CODE_STOP_HOOK_BLOCK_CAP=") {
					got = e
				}
			}
			if got != c.want {
				t.Fatalf("env %q, want %q", l.Env, c.want)
			}
		})
	}
}
