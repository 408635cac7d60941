package claude

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/creack/pty"

	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/supervisor"
)

// The tokens and tool calls hooksup reports are what the mock served: a main agent that runs
// Bash twice and a subagent, each with its own usage.
func TestClaudeTokensAndToolCallsMatchTheMock(t *testing.T) {
	t.Parallel()
	u := func(in, out, cw, cr int) mockapi.Usage {
		return mockapi.Usage{InputTokens: in, OutputTokens: out, CacheCreationInputTokens: cw, CacheReadInputTokens: cr}
	}
	rc := e2e.NewRealClaude(t, &mockapi.Script{
		Main: []mockapi.Reply{
			mockapi.Bash("echo one", "first").WithUsage(u(101, 11, 1001, 5001)),
			mockapi.Bash("echo two", "second").WithUsage(u(102, 12, 1002, 5002)),
			mockapi.ForegroundAgent("Look", "look around", "general-purpose").WithUsage(u(103, 13, 1003, 5003)),
			mockapi.Text("All done.").WithUsage(u(104, 14, 1004, 5004)),
		},
		Subagent: []mockapi.Reply{mockapi.Text("Sub done.").WithUsage(u(201, 21, 2001, 6001))},
	})
	res := rc.Hooksup("--config", rc.Config(`mode = "auto"`), "claude", "-p", "work", "--allowedTools", "Bash")
	if res.ExitCode != 0 || res.Stdout != "All done.\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	served := rc.Srv.Tokens()
	paths, _ := filepath.Glob(filepath.Join(rc.State, "hooksup", "sessions", "*", "summary.json"))
	if len(paths) != 1 {
		t.Fatalf("summaries: %v", paths)
	}
	b, _ := os.ReadFile(paths[0])
	var sum session.Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	got := sum.Usage
	if got.InputTokens != int64(served.InputTokens) || got.OutputTokens != int64(served.OutputTokens) ||
		got.CacheCreationTokens != int64(served.CacheCreationInputTokens) || got.CacheReadTokens != int64(served.CacheReadInputTokens) {
		t.Fatalf("hooksup counted %+v, the mock served %+v", got, served)
	}
	if served.InputTokens != 101+102+103+104+201 {
		t.Fatalf("the mock served %+v: the script did not run as planned", served)
	}
	if sum.ToolCalls["Bash"] != 2 || sum.ToolCalls["Agent"] != 1 || sum.Subagents != 1 {
		t.Fatalf("tool calls %v, subagents %d", sum.ToolCalls, sum.Subagents)
	}
	if !strings.Contains(res.Stderr, "tools Agent×1 Bash×2") {
		t.Fatalf("the headless summary line is missing: %q", res.Stderr)
	}
}

// A permission request in claude's TUI (--permission-mode manual) shows as needs-permission as
// soon as the PermissionRequest hook fires, not after the ~6 s Notification delay.
func TestClaudePermissionStateIsImmediate(t *testing.T) {
	// Serial: it bounds the time from the hook to the state change at a second, which tests running beside it would stretch.
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Bash("touch created.txt", "Create a file"), mockapi.Text("ok")}})
	cfg := config.Defaults()
	cfg.Mode = config.ModeAuto
	ctx, cancel := context.WithTimeout(t.Context(), e2e.ClaudeTimeout)
	defer cancel()
	ptys := make(chan *os.File, 1)
	sup, err := supervisor.New(supervisor.Options{
		Config: cfg, Agent: claude.Agent{}, Bin: rc.Env.Claude, Args: []string{"--permission-mode", "manual"}, HooksupBin: e2e.HooksupBin, Events: rc.Events(),
		HookClient: e2e.HookClientBin, ProjectDir: rc.Env.WorkDir, StateDir: filepath.Join(rc.State, "hooksup"),
		RuntimeDir: rc.Run, Env: append(rc.Env.Environ(), "TERM=xterm-256color"), Interactive: true,
		Start: func(cmd *exec.Cmd) error {
			var err error
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
			p, tty, err := pty.Open()
			if err != nil {
				return err
			}
			pty.Setsize(p, &pty.Winsize{Cols: 120, Rows: 40})
			cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
			err = rc.Srv.Start(cmd)
			tty.Close()
			ptys <- p
			return err
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	type stamp struct {
		what string
		at   time.Time
	}
	stamps := make(chan stamp, 64)
	go func() {
		for ev := range sup.Events() {
			switch e := ev.(type) {
			case session.HookReceived:
				stamps <- stamp{"hook " + e.Input.HookEventName + " " + e.Input.NotificationType, e.Time}
			case session.StateChanged:
				stamps <- stamp{"state " + string(e.State), e.Time}
			}
		}
		close(stamps)
	}()
	done := make(chan int, 1)
	go func() { code, _ := sup.Run(ctx); done <- code }()
	ptmx := <-ptys
	defer ptmx.Close()
	// Answer claude's DA1 probe like a terminal would, and keep what claude draws.
	var outMu sync.Mutex
	var out strings.Builder
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			if n > 0 {
				if strings.Contains(string(buf[:n]), "\x1b[c") {
					ptmx.Write([]byte("\x1b[?62;22c"))
				}
				outMu.Lock()
				out.Write(buf[:n])
				outMu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	// drawn reports whether claude has drawn text since offset from (white space ignored: claude
	// moves the cursor instead of printing spaces), and how much it has drawn in all.
	drawn := func(from int, text string) (bool, int) {
		outMu.Lock()
		defer outMu.Unlock()
		s := out.String()
		return strings.Contains(squashDrawn(s[from:]), squashDrawn(text)), len(s)
	}
	waitDrawn := func(from int, text string, d time.Duration) bool {
		for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			if ok, _ := drawn(from, text); ok {
				return true
			}
		}
		return false
	}
	// Type once claude is up (its SessionStart hook fired) and has drawn its prompt; claude may
	// drop keys typed while it is still starting up: type until the text shows in its box.
	for s := range stamps {
		if strings.HasPrefix(s.what, "hook SessionStart") {
			break
		}
	}
	if !waitDrawn(0, "❯", 60*time.Second) {
		t.Fatal("claude did not draw its prompt")
	}
	for try := 0; ; try++ {
		_, from := drawn(0, "")
		ptmx.Write([]byte("make a file"))
		if waitDrawn(from, "make a file", 3*time.Second) {
			break
		}
		if try == 9 {
			t.Fatal("claude never showed the typed prompt")
		}
		ptmx.Write([]byte{0x15}) // clear whatever arrived, and type again
	}
	ptmx.Write([]byte("\r"))
	var hookAt, stateAt time.Time
	deadline := time.After(60 * time.Second)
	for stateAt.IsZero() || hookAt.IsZero() {
		select {
		case s := <-stamps:
			if strings.HasPrefix(s.what, "hook PermissionRequest") && hookAt.IsZero() {
				hookAt = s.at
			}
			if s.what == "state needs permission" && stateAt.IsZero() {
				stateAt = s.at
			}
		case <-deadline:
			t.Fatalf("no needs-permission state (hook at %v)", hookAt)
		}
	}
	if d := stateAt.Sub(hookAt); d > time.Second || d < 0 {
		t.Fatalf("needs-permission came %v after the PermissionRequest hook", d)
	}
	t.Logf("needs permission %v after the PermissionRequest hook", stateAt.Sub(hookAt))
	_, from := drawn(0, "")
	ptmx.Write([]byte("\x1b")) // dismiss the dialog
	if !waitDrawn(from, "Interrupted", 30*time.Second) {
		t.Fatal("claude did not take the dialog down")
	}
	ptmx.Write([]byte("/exit\r"))
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("claude did not exit")
	}
}

var drawnEscapes = regexp.MustCompile(`\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-B]|\x1b[=>78]`)

// squashDrawn is what a terminal program drew, without its escape sequences and white space.
func squashDrawn(s string) string {
	return strings.Join(strings.Fields(drawnEscapes.ReplaceAllString(s, "")), "")
}
