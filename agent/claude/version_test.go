package claude

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hooks"
)

func TestSupported(t *testing.T) {
	if Supported(hooks.Version{Major: 2, Minor: 1, Patch: 58}) || !Supported(hooks.Version{Major: 2, Minor: 1, Patch: 59}) || !Supported(hooks.Version{}) {
		t.Error("Supported")
	}
}

func TestEventsFor(t *testing.T) {
	all := EventsFor(TestedVersion, false)
	if !slices.Equal(all, InjectedEvents) {
		t.Fatalf("2.1.330: %v", all)
	}
	if got := EventsFor(hooks.Version{}, false); !slices.Equal(got, InjectedEvents) {
		t.Fatalf("unknown version: %v", got)
	}
	// Up to 2.1.77 a settings file naming hooks.StopFailure is rejected whole.
	old := EventsFor(hooks.Version{Major: 2, Minor: 1, Patch: 77}, false)
	if slices.Contains(old, hooks.StopFailure) || !slices.Contains(old, hooks.Stop) || len(old) != len(InjectedEvents)-1 {
		t.Fatalf("2.1.77: %v", old)
	}
	if !slices.Contains(EventsFor(hooks.Version{Major: 2, Minor: 1, Patch: 78}, false), hooks.StopFailure) {
		t.Fatal("2.1.78 knows hooks.StopFailure")
	}
	// Print mode leaves hooks.SessionStart out: claude reports it on stdout.
	p := EventsFor(TestedVersion, true)
	if slices.Contains(p, hooks.SessionStart) || !slices.Contains(p, hooks.UserPromptSubmit) || !slices.Contains(p, hooks.Stop) {
		t.Fatalf("print mode: %v", p)
	}
	for _, ev := range InjectedEvents {
		if _, ok := eventSince[ev]; !ok {
			t.Errorf("no first version for %s", ev)
		}
	}
}

func TestVersionFromFiles(t *testing.T) {
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
	if v, err := Version(t.Context(), link, nil, time.Second); err != nil || v != (hooks.Version{Major: 2, Minor: 1, Patch: 200}) {
		t.Fatalf("npm: %v %v", v, err)
	}
	// The native installer: ~/.local/bin/claude → ~/.local/share/claude/versions/2.1.330.
	vdir := filepath.Join(dir, "share", "claude", "versions")
	os.MkdirAll(vdir, 0o755)
	os.WriteFile(filepath.Join(vdir, "2.1.330"), []byte("#!/bin/sh\nexit 1\n"), 0o755)
	os.Symlink(filepath.Join(vdir, "2.1.330"), filepath.Join(dir, "claude-native"))
	if v, err := Version(t.Context(), filepath.Join(dir, "claude-native"), nil, time.Second); err != nil || v != (hooks.Version{Major: 2, Minor: 1, Patch: 330}) {
		t.Fatalf("native: %v %v", v, err)
	}
}

func TestVersionRunsVersion(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "claude")
	os.WriteFile(bin, []byte("#!/bin/sh\n[ \"$1\" = --version ] && echo '2.1.99 (Claude Code)'\n"), 0o755)
	if v, err := Version(t.Context(), bin, nil, 5*time.Second); err != nil || v != (hooks.Version{Major: 2, Minor: 1, Patch: 99}) {
		t.Fatalf("%v %v", v, err)
	}
	os.WriteFile(bin, []byte("#!/bin/sh\necho hello\n"), 0o755)
	if v, err := Version(t.Context(), bin, nil, 5*time.Second); err == nil || v.Known() {
		t.Fatalf("a program that prints no version: %v %v", v, err)
	}
	os.WriteFile(bin, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if v, err := Version(ctx, bin, nil, 100*time.Millisecond); err == nil || v.Known() {
		t.Fatalf("a program that hangs: %v %v", v, err)
	}
}
