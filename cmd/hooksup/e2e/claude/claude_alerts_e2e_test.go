package claude

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// ptyOutput collects what a program wrote to a terminal.
type ptyOutput struct {
	mu   sync.Mutex
	b    bytes.Buffer
	done chan struct{}
}

// readPTY reads the terminal's master side until every writer has closed it, answering claude's
// DA1 probe as a terminal would.
func readPTY(master *os.File) *ptyOutput {
	o := &ptyOutput{done: make(chan struct{})}
	go func() {
		defer close(o.done)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			if n > 0 {
				o.mu.Lock()
				o.b.Write(buf[:n])
				o.mu.Unlock()
				if bytes.Contains(buf[:n], []byte("\x1b[c")) {
					master.Write([]byte("\x1b[?62;22c"))
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return o
}

func (o *ptyOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// waitFor waits until the terminal received s.
func (o *ptyOutput) waitFor(t *testing.T, s string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !strings.Contains(o.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("the terminal never received %q; it got:\n%q", s, o.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// hooksupNotify begins an OSC 777 notification, as Ghostty and WezTerm get it; its title names
// the session's project (the test's directory, work).
const hooksupNotify = "\x1b]777;notify;hooksup · work;"

// inTerminal makes rc's commands run as if in the terminal that vars (TERM_PROGRAM=…) name, on a
// Linux desktop: what the test runner's own terminal, multiplexer or ssh set is removed.
func inTerminal(rc *e2e.RealClaude, vars ...string) {
	for _, k := range []string{"TERM_PROGRAM", "LC_TERMINAL", "KITTY_WINDOW_ID", "TMUX", "STY", "SSH_CONNECTION", "SSH_TTY", "WAYLAND_DISPLAY"} {
		rc.Env.Unsetenv(k)
	}
	rc.Env.Setenv("TERM", "xterm-256color")
	rc.Env.Setenv("DISPLAY", ":0")
	for _, kv := range vars {
		k, v, _ := strings.Cut(kv, "=")
		rc.Env.Setenv(k, v)
	}
}

// headlessWithStderr runs `hooksup claude -p` in the terminal vars name (see inTerminal) with
// stderr on a terminal (true) or a pipe, and stdout on a pipe; it returns stdout, and what
// reached stderr.
func headlessWithStderr(t *testing.T, onPermission string, terminal bool, vars ...string) (stdout, stderr string) {
	t.Helper()
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Bash("rm -rf ./build", "Remove the build"), mockapi.Text("ok")}})
	inTerminal(rc, vars...)
	cfg := rc.Config("mode = \"auto\"\n[notifications]\non_permission = \"" + onPermission + "\"\n")
	ctx, cancel := context.WithTimeout(t.Context(), e2e.ClaudeTimeout)
	defer cancel()
	cmd := rc.Env.Command(ctx, e2e.HooksupBin, "--config", cfg, "claude", "-p", "clean up")
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	var term *ptyOutput
	if terminal {
		master, tty, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer master.Close()
		cmd.Stderr = tty
		if err := rc.Srv.Start(cmd); err != nil {
			t.Fatal(err)
		}
		tty.Close()
		term = readPTY(master)
	} else {
		cmd.Stderr = &errb
		if err := rc.Srv.Start(cmd); err != nil {
			t.Fatal(err)
		}
	}
	if err := cmd.Wait(); err != nil || ctx.Err() != nil {
		t.Fatalf("hooksup: %v %v\nstdout %q", err, ctx.Err(), out.String())
	}
	if len(rc.Srv.Main()) != 2 {
		t.Fatalf("%d main requests, want 2", len(rc.Srv.Main()))
	}
	if terminal {
		select {
		case <-term.done:
		case <-time.After(10 * time.Second):
			t.Fatal("the terminal stayed open after hooksup exited")
		}
		return out.String(), term.String()
	}
	return out.String(), errb.String()
}

// Headless, claude asks permission (its PermissionRequest hook fires in -p mode): with stderr a
// terminal, [notifications] reaches it as the TUI would send it, in the one sequence that
// terminal shows (which terminal gets which: notify.TestChoose); claude's stdout stays clean.
func TestClaudeHeadlessAlertsReachATerminal(t *testing.T) {
	t.Parallel()
	const body = "claude needs your permission (PermissionRequest Bash)\a"
	stdout, stderr := headlessWithStderr(t, "notify", true, "TERM_PROGRAM=WezTerm")
	if stdout != "ok\n" {
		t.Fatalf("claude's stdout %q", stdout)
	}
	if !strings.Contains(stderr, hooksupNotify+body) || strings.Contains(stderr, "\x1b]9;") {
		t.Fatalf("WezTerm: not one OSC 777 notification on the terminal:\n%q", stderr)
	}
	if !strings.Contains(stderr, "hooksup: Stop → allow") {
		t.Fatalf("the verdict line is missing:\n%q", stderr)
	}

	stdout, stderr = headlessWithStderr(t, "bell", true, "TERM_PROGRAM=WezTerm")
	if stdout != "ok\n" || !strings.Contains(stderr, "\a") || strings.Contains(stderr, hooksupNotify) {
		t.Fatalf("bell: stdout %q, terminal got:\n%q", stdout, stderr)
	}
}

// With stderr not a terminal, no escape sequence or bell is written anywhere.
func TestClaudeHeadlessAlertsNeverReachAPipe(t *testing.T) {
	t.Parallel()
	for _, action := range []string{"notify", "bell"} {
		stdout, stderr := headlessWithStderr(t, action, false)
		if stdout != "ok\n" {
			t.Fatalf("%s: claude's stdout %q", action, stdout)
		}
		if strings.ContainsAny(stderr, "\x1b\a") {
			t.Fatalf("%s: control bytes written to a pipe:\n%q", action, stderr)
		}
		if !strings.Contains(stderr, "hooksup: Stop → allow") {
			t.Fatalf("%s: the verdict line is missing:\n%q", action, stderr)
		}
	}
}

// idlePrompt is the notification_type of claude's Notification hook when it waits for input.
const idlePrompt = "idle_prompt"

// `hooksup --no-tui claude` with claude's own UI on the terminal: when claude has waited for
// input a while, on_idle = "notify" reaches the terminal.
func TestClaudeNoTUIAlertsOnTheTerminal(t *testing.T) {
	t.Parallel()
	rc := e2e.NewRealClaudeOpts(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Text("HELLO-THERE")}}, mockapi.WithNetNS())
	if err := rc.Env.UpdateClaudeJSON(func(m map[string]any) { m["messageIdleNotifThresholdMs"] = 1000 }); err != nil {
		t.Fatal(err)
	}
	inTerminal(rc, "TERM_PROGRAM=ghostty", "TERM=xterm-ghostty")
	cfg := rc.Config("mode = \"auto\"\n[notifications]\non_idle = \"notify\"\n")
	ctx, cancel := context.WithTimeout(t.Context(), e2e.ClaudeTimeout)
	defer cancel()
	cmd := rc.Env.Command(ctx, e2e.HooksupBin, "--debug", "--no-tui", "--config", cfg, "claude")
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	pty.Setsize(master, &pty.Winsize{Cols: 120, Rows: 40})
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := rc.Srv.Start(cmd); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	term := readPTY(master)
	const wait = 45 * time.Second
	// The footer's auto-mode mark: claude may draw the words after it with cursor moves
	// instead of spaces, so "auto mode on" is not always in the bytes.
	term.waitFor(t, "⏵⏵", wait)
	// Claude may drop keys typed while it starts: type until the text shows, then send it.
	for try := 0; !strings.Contains(term.String(), "hello"); try++ {
		if try == 20 {
			t.Fatalf("claude never showed the prompt typed:\n%q", term.String())
		}
		master.Write([]byte("\x15say hello"))
		time.Sleep(time.Second)
	}
	for try := 0; len(rc.Srv.Main()) == 0; try++ {
		if try == 20 {
			t.Fatal("claude never sent the prompt")
		}
		master.Write([]byte("\r"))
		time.Sleep(2 * time.Second)
	}
	term.waitFor(t, "HELLO-THERE", wait)
	// Claude says it is idle when its own timer fires (messageIdleNotifThresholdMs), which a
	// loaded machine delays: wait for its Notification hook first, as long as claude may take;
	// then what hooksup does with it must reach the terminal at once.
	deadline := time.Now().Add(e2e.ClaudeTimeout)
	for !strings.Contains(rc.Log(), "notification="+idlePrompt) {
		if time.Now().After(deadline) {
			t.Fatalf("claude never sent its idle Notification hook; hooksup's log:\n%s", rc.Log())
		}
		time.Sleep(50 * time.Millisecond)
	}
	deadline = time.Now().Add(10 * time.Second)
	for !strings.Contains(term.String(), hooksupNotify+"claude is waiting for your input\a") {
		if time.Now().After(deadline) {
			t.Fatalf("claude's idle Notification arrived and the terminal never received the notification; hooksup's log:\n%s", rc.Log())
		}
		time.Sleep(50 * time.Millisecond)
	}
	master.Write([]byte("/exit\r"))
	if err := cmd.Wait(); err != nil {
		t.Fatalf("hooksup: %v", err)
	}
}

// In a terminal that shows no notifications of its own, notify goes through the system's
// notifier (notify-send here; osascript on macOS) and nothing of it reaches the terminal: one
// notification, not two.
func TestClaudeHeadlessNotifiesThroughTheSystem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sent := filepath.Join(dir, "sent")
	fake := "#!/bin/sh\nprintf '%s|' \"$@\" >>" + e2e.ShellQuote(sent) + "\necho >>" + e2e.ShellQuote(sent) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "notify-send"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{mockapi.Bash("rm -rf ./build", "Remove the build"), mockapi.Text("ok")}})
	inTerminal(rc, "VTE_VERSION=7600", "PATH="+dir+string(os.PathListSeparator)+rc.Env.Getenv("PATH"))
	cfg := rc.Config("mode = \"auto\"\n[notifications]\non_permission = \"notify\"\n")
	ctx, cancel := context.WithTimeout(t.Context(), e2e.ClaudeTimeout)
	defer cancel()
	cmd := rc.Env.Command(ctx, e2e.HooksupBin, "--config", cfg, "claude", "-p", "clean up")
	var out bytes.Buffer
	cmd.Stdout = &out
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	cmd.Stderr = tty
	if err := rc.Srv.Start(cmd); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	term := readPTY(master)
	if err := cmd.Wait(); err != nil || out.String() != "ok\n" {
		t.Fatalf("hooksup: %v, stdout %q", err, out.String())
	}
	<-term.done
	got, _ := os.ReadFile(sent)
	if string(got) != "--|hooksup · work|claude needs your permission (PermissionRequest Bash)|\n" { // the title names the project
		t.Fatalf("notify-send ran with %q", got)
	}
	if strings.ContainsAny(term.String(), "\a") || strings.Contains(term.String(), "\x1b]") {
		t.Fatalf("the terminal got a notification or the bell as well:\n%q", term.String())
	}
}
