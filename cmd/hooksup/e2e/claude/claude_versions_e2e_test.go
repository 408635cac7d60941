package claude

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/supervisor"
)

// envTooOldClaude names a Claude Code older than claude.MinVersion (.ci/run installs one).
const envTooOldClaude = "HOOKSUP_TEST_CLAUDE_TOO_OLD"

// A claude older than the minimum is refused before it runs, with its version, its path and
// the fix; doctor says the same.
func TestClaudeTooOldIsRefused(t *testing.T) {
	t.Parallel()
	old := os.Getenv(envTooOldClaude)
	if old == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set: .ci/run installs an old claude", envTooOldClaude)
		}
		t.Skipf("set %s to a Claude Code older than %s", envTooOldClaude, claude.MinVersion)
	}
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("must not run")}})
	v, err := claude.Version(t.Context(), old, rc.Env.Environ(), 30*time.Second)
	if err != nil || claude.Supported(v) {
		t.Fatalf("%s=%s is %v (%v): not older than %s", envTooOldClaude, old, v, err, claude.MinVersion)
	}
	want := []string{fmt.Sprintf("%s is Claude Code %s, older than %s, the oldest hooksup supervises", old, v, claude.MinVersion),
		"npm install -g @anthropic-ai/claude-code@latest"}
	res := rc.Hooksup("--claude-bin", old, "claude", "-p", "hi")
	if res.ExitCode != 1 || res.Stdout != "" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	for _, w := range want {
		if !strings.Contains(res.Stderr, w) {
			t.Fatalf("stderr %q lacks %q", res.Stderr, w)
		}
	}
	if n := len(rc.Srv.Requests()); n != 0 {
		t.Fatalf("the old claude ran: %d requests", n)
	}
	res = rc.Hooksup("--claude-bin", old, "doctor")
	if res.ExitCode != 1 || !strings.Contains(res.Stdout, "✗ "+want[0]) {
		t.Fatalf("doctor: exit %d\n%s", res.ExitCode, res.Stdout)
	}
}

// doctor names the claude's version against the supported range.
func TestClaudeDoctorReportsTheVersion(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{})
	res := rc.Hooksup("doctor")
	want := fmt.Sprintf("✓ %s: Claude Code %s (hooksup supports %s and newer; tested with %s)", filepath.Join(rc.Env.BinDir, "claude"), rc.ClaudeVersion(), claude.MinVersion, claude.TestedVersion)
	if !strings.Contains(res.Stdout, want) {
		t.Fatalf("doctor lacks %q:\n%s", want, res.Stdout)
	}
}

// brokenHookClient is a copy of hooksup whose hook client beside it exits 0 at once without
// reaching hooksup (as a stale or broken hooksup-hook would): claude runs the hooks, none
// arrives.
func brokenHookClient(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "hooksup")
	src, err := os.Open(e2e.HooksupBin)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_WRONLY|os.O_CREATE, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	dst.Close()
	if err := os.WriteFile(filepath.Join(dir, "hooksup-hook"), []byte("#!/bin/sh\ncat >/dev/null\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// Claude replies but no hook reaches hooksup: headless hooksup says so on stderr.
func TestClaudeHooksNotRunningIsSaidHeadless(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("unsupervised")}})
	ctx, cancel := context.WithTimeout(t.Context(), e2e.ClaudeTimeout)
	defer cancel()
	res := rc.Srv.Run(rc.Env.Command(ctx, brokenHookClient(t), "--config", rc.Config(`mode = "auto"`), "claude", "-p", "hi"))
	if res.ExitCode != 0 || res.Stdout != "unsupervised\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if !strings.Contains(res.Stderr, "hooksup: "+supervisor.NotRunning("claude")+": its transcript shows a reply, but no hook reached hooksup") {
		t.Fatalf("stderr %q", res.Stderr)
	}
	// With hooks that work, nothing is said.
	res = rc.Hooksup("--config", rc.Config(`mode = "auto"`), "claude", "-p", "hi")
	if res.ExitCode != 0 || strings.Contains(res.Stderr, supervisor.NotRunning("claude")) {
		t.Fatalf("exit %d stderr %q", res.ExitCode, res.Stderr)
	}
}

// The same in the TUI: the notice shows while claude sits at its prompt after replying.
func TestClaudeHooksNotRunningIsSaidInTheTUI(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("UNSUPERVISED-REPLY")}})
	rc.Env.Setenv("HOOKSUP_CLAUDE_BIN", rc.Env.Claude)
	tm := e2e.StartTmux(t, 200, 45, rc.Env.Environ(), rc.Env.WorkDir, brokenHookClient(t), "--config", rc.Config(`mode = "auto"`), "claude")
	const wait = 45 * time.Second
	tm.WaitFor("claude's prompt", wait, func(s string) bool { return strings.Contains(s, "❯") })
	e2e.TypeIntoClaude(t, tm, "hello")
	tm.Keys("Enter")
	tm.WaitText(wait, "UNSUPERVISED-REPLY", supervisor.NotRunning("claude"))
}
