package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// userStopHook writes the project's .claude/settings.json with a Stop hook of the user's own
// that blocks once (exit 2, its reason on stderr) and lets claude stop after, and returns the
// hook's command as claude records it.
func userStopHook(t *testing.T, rc *e2e.RealClaude, reason string) string {
	t.Helper()
	marker := filepath.Join(rc.Env.Home, "user-hook-ran")
	script := filepath.Join(rc.Env.Home, "user-stop-hook.sh")
	body := fmt.Sprintf("#!/bin/sh\ncat >/dev/null\nif [ -f %[1]s ]; then exit 0; fi\ntouch %[1]s\necho %[2]s >&2\nexit 2\n", e2e.ShellQuote(marker), e2e.ShellQuote(reason))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	settings := map[string]any{"hooks": map[string]any{"Stop": []any{map[string]any{
		"hooks": []any{map[string]any{"type": "command", "command": script}},
	}}}}
	b, _ := json.Marshal(settings)
	dir := filepath.Join(rc.Env.WorkDir, ".claude")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return script
}

// The user's own Stop hook blocks once, on claude's default permission mode: claude continues
// although hooksup allowed, and hooksup's verdict log says which hook made it continue and why.
func TestClaudeOtherHookBlockIsRecorded(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("First answer."), mockapi.Text("Second answer.")}})
	const reason = "the user's hook wants the changelog updated"
	hook := userStopHook(t, rc, reason)
	res := rc.Hooksup("--config", rc.Config(`mode = "auto"`), "claude", "-p", "do it")
	if res.ExitCode != 0 || res.Stdout != "Second answer.\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if n := len(rc.Srv.Main()); n != 2 {
		t.Fatalf("%d main requests, want 2: the user's hook did not make claude continue", n)
	}
	out := runHooksupEnv(t, rc, "log", "--json")
	var blocked map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		hs, _ := entry["other_hooks"].([]any)
		for _, h := range hs {
			if m, _ := h.(map[string]any); m["command"] == hook && m["blocked"] == true {
				blocked = m
			}
		}
	}
	if blocked == nil {
		t.Fatalf("hooksup log --json does not record the user's hook blocking:\n%s\nstderr: %s", out, res.Stderr)
	}
	if r, _ := blocked["reason"].(string); !strings.Contains(r, reason) {
		t.Fatalf("the user's hook's reason is %q, want it to hold %q", r, reason)
	}
	text := runHooksupEnv(t, rc, "log")
	if !strings.Contains(text, hook) || !strings.Contains(text, reason) {
		t.Fatalf("hooksup log does not show the user's hook:\n%s", text)
	}
}

// runHooksupEnv runs a hooksup subcommand in the test's environment and returns its stdout.
func runHooksupEnv(t *testing.T, rc *e2e.RealClaude, args ...string) string {
	t.Helper()
	res := rc.Hooksup(args...)
	if res.ExitCode != 0 {
		t.Fatalf("hooksup %v: exit %d\nstdout %s\nstderr %s", args, res.ExitCode, res.Stdout, res.Stderr)
	}
	return res.Stdout
}

// In the TUI, on claude's default permission mode: the user's own Stop hook blocks once while
// hooksup allows; the verdicts pane shows that hook's block beside hooksup's allow, and its
// detail says claude continued, never that it stopped.
func TestClaudeTUIShowsOtherHookBlock(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("FIRST-ANSWER"), mockapi.Text("SECOND-ANSWER")}})
	const reason = "update the changelog"
	userStopHook(t, rc, reason)
	rc.Env.Setenv("HOOKSUP_CLAUDE_BIN", rc.Env.Claude)
	tm := e2e.StartTmux(t, 160, 45, rc.Env.Environ(), rc.Env.WorkDir, e2e.HooksupBin, "--config", rc.Config(`mode = "auto"`), "claude")
	const wait = 45 * time.Second
	tm.WaitText(wait, "❯", "╭─ verdicts")
	e2e.TypeIntoClaude(t, tm, "go")
	tm.Keys("Enter")
	// Both stops are decided, each with what the user's hook did at it, before the pane is
	// read and navigated: claude prints its second answer before hooksup decides its second
	// stop, and with one verdict in the pane Up stays on it, and its open detail follows the
	// newest verdict when the second comes.
	scr := tm.WaitText(wait, "SECOND-ANSWER", "╭─ verdicts 2 ", "user-stop-hook.sh blocked: "+reason, "user-stop-hook.sh allowed")
	if n := len(rc.Srv.Main()); n != 2 {
		t.Fatalf("%d main requests, want 2: the user's hook did not make claude continue\n%s", n, scr)
	}
	pane := verdictsPaneText(scr)
	if !strings.Contains(pane, "allow") {
		t.Fatalf("hooksup's allow is not in the verdicts pane:\n%s", pane)
	}
	if strings.Contains(pane, "stopped") {
		t.Fatalf("the verdicts pane says claude stopped while another hook made it continue:\n%s", pane)
	}

	// The first verdict's detail: hooksup allowed, the user's hook blocked with its reason, and
	// claude continued.
	tm.Keys("C-]", "Tab")
	tm.Keys("Up")
	tm.Keys("Enter")
	scr = tm.WaitText(wait, "claude continued", reason)
	pane = verdictsPaneText(scr)
	if !strings.Contains(pane, "let stop (no checks) · logged allow") || !strings.Contains(pane, "user-stop-hook.sh") || strings.Contains(pane, "stopped") {
		t.Fatalf("verdict detail:\n%s", pane)
	}
}

// verdictsPaneText is the right-hand column of a wide layout from the verdicts box's top border
// down: the verdicts pane and what is below it.
func verdictsPaneText(screen string) string {
	var b strings.Builder
	col := -1
	for _, line := range strings.Split(screen, "\n") {
		if col < 0 {
			i := strings.Index(line, "╭─ verdicts")
			if i < 0 {
				continue
			}
			col = ansi.StringWidth(line[:i])
		}
		w := 0
		for i, r := range line {
			if w >= col {
				b.WriteString(line[i:])
				break
			}
			w += ansi.StringWidth(string(r))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
