package copilot

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
)

// The plugin Copilot reads with --plugin-dir: a manifest (without one Copilot runs none of its
// hooks) and hooks/hooks.json in Copilot's form, each event under its own name, timeouts in
// seconds; named before the person's arguments, and gone with the session.
func TestCopilotInject(t *testing.T) {
	dir := t.TempDir()
	h := agent.Hooks{
		Events:       copilotEvents,
		Command:      func(ev string) string { return "/bin/hooksup-hook " + ev },
		StopTimeout:  3*time.Minute + 500*time.Millisecond,
		OtherTimeout: 30 * time.Second,
	}
	l, err := Agent{}.Inject(h, []string{"-p", "hi"}, dir, "s1")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "s1.copilot-plugin")
	if !slices.Equal(l.Args, []string{"--plugin-dir", root, "-p", "hi"}) {
		t.Fatalf("args %q", l.Args)
	}
	var m struct{ Name string }
	if b, err := os.ReadFile(filepath.Join(root, "plugin.json")); err != nil || json.Unmarshal(b, &m) != nil || m.Name != "hooksup" {
		t.Fatalf("manifest %+v %v", m, err)
	}
	var hj struct {
		Version int
		Hooks   map[string][]struct {
			Type, Bash string
			TimeoutSec int64
		}
	}
	b, err := os.ReadFile(filepath.Join(root, "hooks", "hooks.json"))
	if err != nil || json.Unmarshal(b, &hj) != nil {
		t.Fatalf("hooks.json %s %v", b, err)
	}
	stop := hj.Hooks["agentStop"]
	if hj.Version != 1 || len(stop) != 1 || stop[0].Bash != "/bin/hooksup-hook Stop" || stop[0].TimeoutSec != 181 || stop[0].Type != "command" {
		t.Fatalf("agentStop %+v", hj)
	}
	if s := hj.Hooks["subagentStop"]; len(s) != 1 || s[0].Bash != "/bin/hooksup-hook SubagentStop" {
		t.Fatalf("subagentStop %+v", s)
	}
	for _, ev := range []string{"sessionStart", "userPromptSubmitted", "notification", "postToolUse", "sessionEnd"} {
		if s := hj.Hooks[ev]; len(s) != 1 || s[0].TimeoutSec != 30 {
			t.Fatalf("%s %+v", ev, s)
		}
	}
	if err := l.Cleanup(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("the plugin outlived the session: %v", err)
	}
}

func TestCopilotHeadless(t *testing.T) {
	for args, want := range map[string]bool{
		"-p hi":             true,
		"--prompt hi":       true,
		"--prompt=hi":       true,
		"--model x -p hi":   true,
		"":                  false,
		"-i hi":             false,
		"--resume=abc":      false,
		"-- -p":             false,
		"--allow-all -p go": true,
	} {
		if got := (Agent{}).Headless(strings.Fields(args)); got != want {
			t.Errorf("Headless(%q) = %v, want %v", args, got, want)
		}
	}
}

// Copilot's parting "Resume  copilot --resume=ID" reads hooksup's command.
func TestCopilotResume(t *testing.T) {
	got, ok := Agent{}.ResumeHint("   ▔▔▔▔    Resume     copilot --resume=19606540-8334-46db-a0e7-b2c42b8e46d7")
	if !ok || got != "   ▔▔▔▔    Resume     hooksup copilot --resume=19606540-8334-46db-a0e7-b2c42b8e46d7" {
		t.Fatalf("%q %v", got, ok)
	}
	if _, ok := (Agent{}).ResumeHint("Resume hooksup copilot --resume=x"); ok {
		t.Fatal("hooksup's own command rewritten again")
	}
	if id := (Agent{}).ResumeID("/h/.copilot/session-state/a27b/events.jsonl"); id != "a27b" {
		t.Fatalf("resume id %q", id)
	}
}

// An older copilot is refused, naming its version, the oldest supported and the fix.
func TestCopilotVersion(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "node_modules", "@github", "copilot")
	os.MkdirAll(pkg, 0o755)
	os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@github/copilot","version":"1.0.101"}`), 0o644)
	os.WriteFile(filepath.Join(pkg, "npm-loader.js"), []byte("#!/bin/sh\nexit 1\n"), 0o755)
	v, err := Version(t.Context(), filepath.Join(pkg, "npm-loader.js"), nil, time.Second)
	if err != nil || v.String() != "1.0.101" {
		t.Fatalf("version %v %v", v, err)
	}
	err = tooOld("/x/copilot", v)
	if err == nil || !strings.Contains(err.Error(), "GitHub Copilot CLI 1.0.101, older than 1.0.102") || !strings.Contains(err.Error(), "npm install -g @github/copilot@latest") {
		t.Fatalf("refusal %v", err)
	}
	if err := tooOld("/x/copilot", hooks.Version{Major: 1, Minor: 0, Patch: 102}); err != nil {
		t.Fatal(err)
	}
}

// The session's events.jsonl Copilot 1.0.102 wrote (testdata): the model, tokens once per model
// call (input less cached), the latest reply, the prompts (the reason a block sent back is not
// one the person typed).
func TestCopilotTranscript(t *testing.T) {
	p := transcript.NewParser(transcript.Options{Decoder: Agent{}.Transcript(), MaxText: 1000})
	f, err := os.Open("testdata/transcript-events.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := p.ReadFrom(f); err != nil {
		t.Fatal(err)
	}
	// A tool call as 1.0.102's types spell it (copilot-sdk/generated/session-events.d.ts).
	p.Feed([]byte(`{"type":"assistant.message","agentId":"sub1","data":{"model":"gpt-4.1","content":"sub's","toolRequests":[{"toolCallId":"c1","name":"bash","arguments":{}}]},"timestamp":"2026-11-27T15:20:00.000Z"}`))
	p.Feed([]byte(`{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":false},"timestamp":"2026-11-27T15:20:00.100Z"}`))
	s := p.Stats()
	want := session.Usage{InputTokens: 4 * 9, OutputTokens: 4 * 7, CacheReadTokens: 4 * 3}
	if s.Usage != want || s.Messages != 4 || s.Model != "gpt-4.1" {
		t.Fatalf("usage %+v (want %+v), messages %d, model %q", s.Usage, want, s.Messages, s.Model)
	}
	if s.LastText != "resumed after gate" {
		t.Fatalf("last text %q", s.LastText)
	}
	if s.Turns != 2 || s.LastPrompt != "again" {
		t.Fatalf("turns %d, last prompt %q", s.Turns, s.LastPrompt)
	}
	if s.ToolCallCount != 1 || s.ToolCalls["bash"] != 1 || s.ToolErrors != 1 {
		t.Fatalf("tools %v %d errors %d", s.ToolCalls, s.ToolCallCount, s.ToolErrors)
	}
	line := []byte(`{"type":"assistant.message","data":{"content":"x"}}`)
	if !(Agent{}).Reply(line) || (Agent{}).Reply([]byte(`{"type":"user.message"}`)) {
		t.Fatal("Reply")
	}
}

// Each agentStop of the main agent's the events log records (its hook.start line) marks the stop
// as the hook's input does, with the reply before it: what the supervisor gives a stop whose hook
// read the log before Copilot wrote the line. A subagent's agentStop marks none.
func TestCopilotTranscriptMarksStops(t *testing.T) {
	p := transcript.NewParser(transcript.Options{Decoder: Agent{}.Transcript()})
	b, err := os.ReadFile("testdata/transcript-events.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for line := range bytes.Lines(b) {
		if r := p.Feed(bytes.TrimSuffix(line, []byte("\n"))); r.Kind == transcript.KindStopHook {
			got = append(got, r.StopMark+" "+r.Text)
		}
	}
	want := []string{"1795792797914 first answer", "1795792797958 fixed after gate", "1795792799650 resumed answer", "1795792799695 resumed after gate"}
	if !slices.Equal(got, want) {
		t.Fatalf("stops marked %q, want %q", got, want)
	}
	in, err := os.ReadFile("testdata/hook-input-agentStop-from-subagent.json")
	if err != nil {
		t.Fatal(err)
	}
	sub := `{"type":"hook.start","data":{"hookType":"agentStop","input":` + string(bytes.TrimSpace(in)) + `},"timestamp":"2026-11-27T15:20:00.000Z"}`
	if r := p.Feed([]byte(sub)); r.Kind == transcript.KindStopHook {
		t.Fatalf("a subagent's agentStop marked as the main agent's stop: %+v", r)
	}
}

// install inserts hooksup's hook and changes no other byte; uninstall gives the file back byte
// for byte, whatever its layout; install twice is install once.
func TestCopilotInstallSettings(t *testing.T) {
	command := hooks.InstalledCommand("/usr/bin/hooksup-hook", "copilot", hooks.Stop)
	for _, doc := range []string{
		"",
		"{}",
		"{\n  \"banner\": \"never\"\n}\n",
		"{\"banner\": \"never\", \"hooks\": {}}",
		"{\"hooks\": {\"sessionEnd\": [{\"type\":\"command\",\"bash\":\"true\"}]}, \"theme\": \"dim\"}\n",
		"{\n\t\"hooks\": {\n\t\t\"agentStop\": [\n\t\t\t{\"type\": \"command\", \"bash\": \"./mine.sh\", \"timeoutSec\": 30}\n\t\t]\n\t},\n\t\"x\": [1, \"]}\\\"\"]\n}",
		"{\"hooks\": {\"agentStop\": []}}",
		"{\"hooks\":{\"agentStop\":[]}}",
		"{\"hooks\":{}}",
	} {
		out, err := InstallSettings([]byte(doc), command, 300)
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		var m struct {
			Hooks map[string][]json.RawMessage
		}
		var last struct {
			Type, Bash string
			TimeoutSec int64
		}
		if err := json.Unmarshal(out, &m); err != nil || len(m.Hooks["agentStop"]) == 0 ||
			json.Unmarshal(m.Hooks["agentStop"][len(m.Hooks["agentStop"])-1], &last) != nil || last.Bash != command || last.TimeoutSec != 300 || last.Type != "command" {
			t.Fatalf("%q installed as %s (%v)", doc, out, err)
		}
		again, err := InstallSettings(out, command, 300)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("%q installed twice: %s", doc, again)
		}
		back, err := UninstallSettings(out)
		if doc == "" {
			if back != nil || err != nil {
				t.Fatalf("the file install made is left as %q (%v)", back, err)
			}
			continue
		}
		if err != nil || string(back) != doc {
			t.Fatalf("uninstalled:\n%q\nwant\n%q (%v)", back, doc, err)
		}
	}
	for _, bad := range []string{"[]", "{", "{\"hooks\": []}", "{\"hooks\": {\"agentStop\": {}}}"} {
		if _, err := InstallSettings([]byte(bad), command, 300); err == nil {
			t.Errorf("%q: installed", bad)
		}
	}
}
