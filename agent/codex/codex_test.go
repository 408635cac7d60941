package codex

import (
	"github.com/hooksup/hooksup/agent"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCodexHeadless(t *testing.T) {
	for args, want := range map[string]bool{
		"exec hi":                   true,
		"e hi":                      true,
		"-m gpt-5 exec hi":          true,
		"-c model=exec":             false,
		"-c x=y -C /tmp exec -- hi": true,
		"":                          false,
		"fix the tests":             false,
		"resume --last":             false,
		"--full-auto -- exec":       false,
		"--profile exec e":          true,
		"--dangerously-bypass-approvals-and-sandbox exec x": true,
	} {
		if got := (Agent{}).Headless(strings.Fields(args)); got != want {
			t.Errorf("Headless(%q) = %v, want %v", args, got, want)
		}
	}
}

func TestCodexResumeID(t *testing.T) {
	p := "/h/.codex/sessions/2026/11/23/rollout-2026-11-23T14-43-22-01a208dc-8f9c-7193-8458-9d4435e9e247.jsonl"
	if got := (Agent{}).ResumeID(p); got != "01a208dc-8f9c-7193-8458-9d4435e9e247" {
		t.Fatalf("ResumeID = %q", got)
	}
	if got := (Agent{}).ResumeID("/x/other.jsonl"); got != "" {
		t.Fatalf("ResumeID of a file that is no rollout = %q", got)
	}
}

// Inject puts the overrides before the user's arguments and writes no file.
func TestCodexInject(t *testing.T) {
	dir := t.TempDir()
	l, err := Agent{}.Inject(agent.Hooks{Events: []string{"Stop", "UserPromptSubmit"}, Command: func(ev string) string { return "/bin/hook " + ev }},
		[]string{"exec", "hi"}, dir, "id")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Files) != 0 {
		t.Fatalf("files %v", l.Files)
	}
	if n := len(l.Args); n < 4 || !slices.Equal(l.Args[:2], []string{"exec", "hi"}) || l.Args[2] != "-c" {
		t.Fatalf("args %q", l.Args)
	}
	if len(l.Warnings) != 0 {
		t.Fatalf("warnings %q", l.Warnings)
	}
	// Before a "--", and a -c hooks.… of the user's is warned about.
	l, err = Agent{}.Inject(agent.Hooks{Events: []string{"Stop"}, Command: func(ev string) string { return "/bin/hook " + ev }},
		[]string{"-c", "hooks.Stop=[]", "exec", "--", "-c"}, dir, "id")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(l.Args); !slices.Equal(l.Args[:3], []string{"-c", "hooks.Stop=[]", "exec"}) || !slices.Equal(l.Args[n-2:], []string{"--", "-c"}) || l.Args[3] != "-c" {
		t.Fatalf("args %q", l.Args)
	}
	if len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "hooks.Stop=[]") {
		t.Fatalf("warnings %q", l.Warnings)
	}
	joined := strings.Join(l.Args, " ")
	for _, want := range []string{`hooks.Stop=[{hooks=[{type="command",command="/bin/hook Stop"`, "hooks.state=", "trusted_hash"} {
		if !strings.Contains(joined, want) {
			t.Errorf("args lack %q: %s", want, joined)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("Inject wrote %v", entries)
	}
}

func TestHookFiles(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	getenv := func(k string) string { return map[string]string{"CODEX_HOME": home}[k] }
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("model = \"x\"\n[hooks.state]\n\"k\" = { trusted_hash = \"h\" }\n"), 0o600)
	if got := HookFiles(getenv, proj); len(got) != 0 {
		t.Fatalf("trust state alone read as hooks: %v", got)
	}
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("[[hooks.Stop]]\nhooks = [{type=\"command\", command=\"x\"}]\n"), 0o600)
	os.MkdirAll(filepath.Join(proj, ".codex"), 0o755)
	os.WriteFile(filepath.Join(proj, ".codex", "hooks.json"), []byte(`{"hooks":{}}`), 0o600)
	got := HookFiles(getenv, proj)
	want := []string{filepath.Join(home, "config.toml") + " [hooks]", filepath.Join(proj, ".codex", "hooks.json")}
	if !slices.Equal(got, want) {
		t.Fatalf("HookFiles = %q, want %q", got, want)
	}
}
