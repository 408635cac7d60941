package gemini

import (
	"bytes"
	"encoding/json"
	"github.com/hooksup/hooksup/agent"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
)

// The hook inputs gemini 0.61.0 sent (testdata), as hooksup's: AfterAgent is the Stop, with the
// chat's last reply as its message (prompt_response repeats the pieces of a streamed reply);
// a ToolPermission notification is a permission prompt.
func TestGeminiInput(t *testing.T) {
	b, err := os.ReadFile("testdata/gemini-afteragent.json")
	if err != nil {
		t.Fatal(err)
	}
	in, err := hooks.ParseInput(b)
	if err != nil {
		t.Fatal(err)
	}
	in.TranscriptPath = "testdata/gemini-chat.jsonl"
	Agent{}.Input(in)
	if in.HookEventName != hooks.Stop || in.Active() || in.LastAssistantMessage != "after gate" {
		t.Fatalf("AfterAgent as %q, active %v, last message %q", in.HookEventName, in.Active(), in.LastAssistantMessage)
	}
	b, _ = os.ReadFile("testdata/gemini-notification.json")
	in, _ = hooks.ParseInput(b)
	Agent{}.Input(in)
	if in.HookEventName != hooks.Notification || in.NotificationType != "permission_prompt" {
		t.Fatalf("Notification as %q %q", in.HookEventName, in.NotificationType)
	}
	in = &hooks.Input{HookEventName: "BeforeAgent", Prompt: "hi"}
	Agent{}.Input(in)
	if in.HookEventName != hooks.UserPromptSubmit {
		t.Fatalf("BeforeAgent as %q", in.HookEventName)
	}
}

func TestGeminiHeadless(t *testing.T) {
	for args, want := range map[string]bool{
		"-p hi":              true,
		"--prompt hi":        true,
		"--prompt=hi":        true,
		"-m x -p hi":         true,
		"":                   false,
		"-i hi":              false,
		"--resume latest":    false,
		"-- -p":              false,
		"--skip-trust -p go": true,
	} {
		if got := (Agent{}).Headless(strings.Fields(args)); got != want {
			t.Errorf("Headless(%q) = %v, want %v", args, got, want)
		}
	}
}

// geminiHome makes a person's home with a .gemini holding settings of theirs (with comments)
// and another file of theirs.
func geminiHome(t *testing.T) (home string, settings []byte) {
	home = t.TempDir()
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o755)
	os.MkdirAll(filepath.Join(home, ".agents"), 0o755)
	settings = []byte("// mine\n{\"ui\": {\"theme\": \"GitHub\"}, /* a \"quoted\" // comment */ \"x\": \"a // not a comment\",\n" +
		"\"hooks\": {\"AfterAgent\": [{\"hooks\": [{\"name\": \"mine\", \"type\": \"command\", \"command\": \"true\"}]}]}}\n")
	os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), settings, 0o644)
	os.WriteFile(filepath.Join(home, ".gemini", "projects.json"), []byte(`{"projects":{}}`), 0o644)
	return home, settings
}

func geminiInject(t *testing.T, home string) (agent.Launch, string) {
	t.Helper()
	run := t.TempDir()
	env := map[string]string{"HOME": home}
	l, err := Agent{}.Inject(agent.Hooks{Command: func(ev string) string { return "hooksup-hook " + ev },
		StopTimeout: 90 * time.Second, OtherTimeout: 30 * time.Second, Getenv: func(k string) string { return env[k] }}, []string{"-p", "hi"}, run, "s1")
	if err != nil {
		t.Fatal(err)
	}
	return l, filepath.Join(run, "s1.gemini")
}

// The session's home: gemini reads the person's settings with hooksup's hooks added after theirs
// (timeouts in milliseconds), sees every other file of theirs through a link, and their files
// are as they were.
func TestGeminiInjectMirrorsTheirHome(t *testing.T) {
	home, settings := geminiHome(t)
	l, root := geminiInject(t, home)
	if !slices.Contains(l.Env, "GEMINI_CLI_HOME="+root) || !slices.Contains(l.Env, "GEMINI_CLI_TRUSTED_FOLDERS_PATH="+filepath.Join(home, ".gemini", "trustedFolders.json")) {
		t.Fatalf("env %v", l.Env)
	}
	if strings.Join(l.Args, " ") != "-p hi" {
		t.Fatalf("args %v", l.Args)
	}
	b, err := os.ReadFile(filepath.Join(root, ".gemini", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		UI    map[string]string `json:"ui"`
		X     string            `json:"x"`
		Hooks map[string][]struct {
			Hooks []struct {
				Name, Command string
				Timeout       int64
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if got.UI["theme"] != "GitHub" || got.X != "a // not a comment" {
		t.Fatalf("their settings are not all there: %s", b)
	}
	aa := got.Hooks["AfterAgent"]
	if len(aa) != 2 || aa[0].Hooks[0].Name != "mine" || aa[1].Hooks[0].Command != "hooksup-hook Stop" || aa[1].Hooks[0].Timeout != 90000 {
		t.Fatalf("AfterAgent hooks: %+v", aa)
	}
	if ba := got.Hooks["BeforeAgent"]; len(ba) != 1 || ba[0].Hooks[0].Command != "hooksup-hook UserPromptSubmit" || ba[0].Hooks[0].Timeout != 30000 {
		t.Fatalf("BeforeAgent hooks: %+v", ba)
	}
	for _, name := range []string{".agents", ".gemini/projects.json", ".gemini/tmp", ".gemini/history"} {
		if l, err := os.Readlink(filepath.Join(root, name)); err != nil || l != filepath.Join(home, name) {
			t.Errorf("%s: link to %q (%v)", name, l, err)
		}
	}
	if err := l.Cleanup(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".gemini", "settings.json")); !bytes.Equal(b, settings) {
		t.Fatalf("their settings changed:\n%s", b)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("the session's home is left: %v", err)
	}
}

// What gemini writes into the session's .gemini rather than through a link is the person's once
// the session ends: a file it replaced by a rename, a new directory, a setting it saved (without
// hooksup's hooks).
func TestGeminiCleanupGivesBackWhatGeminiWrote(t *testing.T) {
	home, _ := geminiHome(t)
	l, root := geminiInject(t, home)
	g := filepath.Join(root, ".gemini")
	os.Remove(filepath.Join(g, "projects.json"))
	os.WriteFile(filepath.Join(g, "projects.json"), []byte(`{"projects":{"/w":"w"}}`), 0o644)
	os.MkdirAll(filepath.Join(g, "commands"), 0o755)
	os.WriteFile(filepath.Join(g, "commands", "x.toml"), []byte("prompt = 'x'"), 0o644)
	var m map[string]any
	b, _ := os.ReadFile(filepath.Join(g, "settings.json"))
	json.Unmarshal(b, &m)
	m["ui"] = map[string]any{"theme": "Dracula"}
	b, _ = json.Marshal(m)
	os.WriteFile(filepath.Join(g, "settings.json"), b, 0o600)
	if err := l.Cleanup(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".gemini", "projects.json")); string(b) != `{"projects":{"/w":"w"}}` {
		t.Errorf("projects.json: %s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".gemini", "commands", "x.toml")); string(b) != "prompt = 'x'" {
		t.Errorf("commands/x.toml: %q", b)
	}
	b, _ = os.ReadFile(filepath.Join(home, ".gemini", "settings.json"))
	if !strings.Contains(string(b), "Dracula") || strings.Contains(string(b), "hooksup-hook") || !strings.Contains(string(b), `"mine"`) {
		t.Errorf("their settings after the session:\n%s", b)
	}
}

// A gemini older than MinVersion is refused with its version and the fix, read from its npm
// package without running it; a newer one gets hooksup's events.
func TestGeminiVersionRefusesOlder(t *testing.T) {
	for version, refused := range map[string]bool{"0.60.9": true, "0.61.0": false, "1.2.0": false} {
		dir := t.TempDir()
		pkg := filepath.Join(dir, "node_modules", "@google", "gemini-cli")
		os.MkdirAll(filepath.Join(pkg, "bundle"), 0o755)
		os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@google/gemini-cli","version":"`+version+`"}`), 0o644)
		os.WriteFile(filepath.Join(pkg, "bundle", "gemini.js"), []byte("#!/bin/sh\nexit 1\n"), 0o755)
		bin := filepath.Join(dir, "gemini")
		os.Symlink(filepath.Join(pkg, "bundle", "gemini.js"), bin)
		events, err := Agent{}.Events(t.Context(), bin, nil, slog.New(slog.DiscardHandler))
		switch {
		case refused && (err == nil || !strings.Contains(err.Error(), "Gemini CLI "+version+", older than 0.61.0") || !strings.Contains(err.Error(), "npm install -g @google/gemini-cli@latest")):
			t.Errorf("%s: err %v, want it refused with the fix", version, err)
		case !refused && (err != nil || !slices.Equal(events, geminiEvents)):
			t.Errorf("%s: events %v, err %v", version, events, err)
		}
	}
}

// gemini's parting "To resume this session: gemini --resume ID" resumes under hooksup instead;
// the id is the chat's session, from its first line.
func TestGeminiResume(t *testing.T) {
	if got := (Agent{}).ResumeID("testdata/gemini-chat.jsonl"); got != "c7ca7fa6-120b-4386-bc8e-68b7c70f83dc" {
		t.Fatalf("ResumeID = %q", got)
	}
	for line, want := range map[string]string{
		"To resume this session: gemini --resume c7ca7fa6-120b   ": "To resume this session: hooksup gemini --resume c7ca7fa6-120b",
		"│ To resume this session: gemini --resume 'a b' │":        "│ To resume this session: hooksup gemini --resume 'a b' │",
	} {
		if got, ok := (Agent{}).ResumeHint(line); !ok || got != want {
			t.Errorf("ResumeHint(%q) = %q, %v; want %q", line, got, ok, want)
		}
	}
	for _, line := range []string{"run hooksup gemini --resume x", "gemini is ready", "/usr/bin/gemini --resume x"} {
		if got, ok := (Agent{}).ResumeHint(line); ok {
			t.Errorf("ResumeHint(%q) = %q: not gemini's own hint", line, got)
		}
	}
}
