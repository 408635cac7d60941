package hooks

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestParseVersion(t *testing.T) {
	for in, want := range map[string]Version{
		"2.1.330 (Claude Code)": {2, 1, 330},
		"2.0.77":                {2, 0, 77},
		"claude 10.2.3-beta":    {10, 2, 3},
	} {
		if v, ok := ParseVersion(in); !ok || v != want {
			t.Errorf("ParseVersion(%q) = %v %v, want %v", in, v, ok, want)
		}
	}
	if _, ok := ParseVersion("Usage: claude"); ok {
		t.Error("no version parsed as one")
	}
	if !(Version{2, 1, 58}).Less(Version{2, 1, 59}) || (Version{2, 2, 0}).Less(Version{2, 1, 330}) {
		t.Error("Less")
	}
	if (Version{2, 1, 58}).Supported() || !(Version{2, 1, 59}).Supported() || !(Version{}).Supported() {
		t.Error("Supported")
	}
}

func TestEventsFor(t *testing.T) {
	all := EventsFor(TestedVersion, false)
	if !slices.Equal(all, InjectedEvents) {
		t.Fatalf("2.1.330: %v", all)
	}
	if got := EventsFor(Version{}, false); !slices.Equal(got, InjectedEvents) {
		t.Fatalf("unknown version: %v", got)
	}
	// Up to 2.1.77 a settings file naming StopFailure is rejected whole.
	old := EventsFor(Version{2, 1, 77}, false)
	if slices.Contains(old, StopFailure) || !slices.Contains(old, Stop) || len(old) != len(InjectedEvents)-1 {
		t.Fatalf("2.1.77: %v", old)
	}
	if !slices.Contains(EventsFor(Version{2, 1, 78}, false), StopFailure) {
		t.Fatal("2.1.78 knows StopFailure")
	}
	// Print mode leaves SessionStart out: claude reports it on stdout.
	p := EventsFor(TestedVersion, true)
	if slices.Contains(p, SessionStart) || !slices.Contains(p, UserPromptSubmit) || !slices.Contains(p, Stop) {
		t.Fatalf("print mode: %v", p)
	}
	for _, ev := range InjectedEvents {
		if _, ok := eventSince[ev]; !ok {
			t.Errorf("no first version for %s", ev)
		}
	}
}

func TestClaudeVersionFromFiles(t *testing.T) {
	dir := t.TempDir()
	// An npm install: node_modules/.bin/claude → ../@anthropic-ai/claude-code/bin/claude.exe.
	pkg := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code")
	os.MkdirAll(filepath.Join(pkg, "bin"), 0o755)
	os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@anthropic-ai/claude-code","version":"2.1.200"}`), 0o644)
	exe := filepath.Join(pkg, "bin", "claude.exe")
	os.WriteFile(exe, []byte("#!/bin/sh\nexit 1\n"), 0o755)
	os.MkdirAll(filepath.Join(dir, "node_modules", ".bin"), 0o755)
	link := filepath.Join(dir, "node_modules", ".bin", "claude")
	os.Symlink("../@anthropic-ai/claude-code/bin/claude.exe", link)
	if v, err := ClaudeVersion(t.Context(), link, nil, time.Second); err != nil || v != (Version{2, 1, 200}) {
		t.Fatalf("npm: %v %v", v, err)
	}
	// The native installer: ~/.local/bin/claude → ~/.local/share/claude/versions/2.1.330.
	vdir := filepath.Join(dir, "share", "claude", "versions")
	os.MkdirAll(vdir, 0o755)
	os.WriteFile(filepath.Join(vdir, "2.1.330"), []byte("#!/bin/sh\nexit 1\n"), 0o755)
	os.Symlink(filepath.Join(vdir, "2.1.330"), filepath.Join(dir, "claude-native"))
	if v, err := ClaudeVersion(t.Context(), filepath.Join(dir, "claude-native"), nil, time.Second); err != nil || v != (Version{2, 1, 330}) {
		t.Fatalf("native: %v %v", v, err)
	}
}

func TestClaudeVersionRunsVersion(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "claude")
	os.WriteFile(bin, []byte("#!/bin/sh\n[ \"$1\" = --version ] && echo '2.1.99 (Claude Code)'\n"), 0o755)
	if v, err := ClaudeVersion(t.Context(), bin, nil, 5*time.Second); err != nil || v != (Version{2, 1, 99}) {
		t.Fatalf("%v %v", v, err)
	}
	os.WriteFile(bin, []byte("#!/bin/sh\necho hello\n"), 0o755)
	if v, err := ClaudeVersion(t.Context(), bin, nil, 5*time.Second); err == nil || v.Known() {
		t.Fatalf("a program that prints no version: %v %v", v, err)
	}
	os.WriteFile(bin, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if v, err := ClaudeVersion(ctx, bin, nil, 100*time.Millisecond); err == nil || v.Known() {
		t.Fatalf("a program that hangs: %v %v", v, err)
	}
}
