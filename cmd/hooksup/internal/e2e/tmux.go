package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Tmux drives a program in a real tmux, as a person would: send-keys to type, capture-pane to
// read the screen.
type Tmux struct {
	t      testing.TB
	socket string
	name   string
}

// RequireTmux skips the test without tmux, and fails it in CI (which must install it).
func RequireTmux(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed (CI must install it)")
		}
		t.Skip("tmux is not installed")
	}
}

// StartTmux runs argv in dir in a detached tmux session of w×h cells with exactly env. The pane
// is kept after the program exits, its last line "[exited STATUS]", so its last screen can be
// read; the tmux server ends with the test.
func StartTmux(t testing.TB, w, h int, env []string, dir string, argv ...string) *Tmux {
	t.Helper()
	script := "env -i"
	for _, kv := range env {
		script += " " + ShellQuote(kv)
	}
	for _, a := range argv {
		script += " " + ShellQuote(a)
	}
	return StartTmuxScript(t, w, h, dir, script+"; echo \"[exited $?]\"; sleep 600")
}

// tmuxServers numbers the tmux servers this process starts: tests running side by side, and
// other test packages at the same time, each have a server of their own.
var tmuxServers atomic.Int64

// StartTmuxScript runs the shell script in dir in a detached tmux session of w×h cells, with the
// environment tmux gives it; the pane ends with the script. The tmux server ends with the test.
func StartTmuxScript(t testing.TB, w, h int, dir, script string) *Tmux {
	t.Helper()
	RequireTmux(t)
	s := &Tmux{t: t, socket: fmt.Sprintf("hs%d-%d", os.Getpid(), tmuxServers.Add(1)), name: "main"}
	s.Run("-f", "/dev/null", "new-session", "-d", "-s", s.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-c", dir, "sh", "-c", script)
	t.Cleanup(func() { exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

// ShellQuote quotes s for sh.
func ShellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Run runs the tmux command args on the session's own server and returns what it printed.
func (s *Tmux) Run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Display is tmux's format (e.g. "#{pane_pid}", "#{pane_title}") for the session's pane, without
// the line's end.
func (s *Tmux) Display(format string) string {
	s.t.Helper()
	return strings.TrimSuffix(s.Run("display-message", "-p", "-t", s.name, format), "\n")
}

// SendBytes types raw bytes, as a terminal sends them for a key (an escape sequence, say).
func (s *Tmux) SendBytes(b string) {
	s.t.Helper()
	args := []string{"send-keys", "-t", s.name, "-H"}
	for i := 0; i < len(b); i++ {
		args = append(args, fmt.Sprintf("%02x", b[i]))
	}
	s.Run(args...)
}

// Keys types tmux key names (e.g. "Escape", "C-]", "Enter") or literal text.
func (s *Tmux) Keys(keys ...string) {
	s.t.Helper()
	s.Run(append([]string{"send-keys", "-t", s.name}, keys...)...)
}

// Text types literal text.
func (s *Tmux) Text(text string) {
	s.t.Helper()
	s.Run("send-keys", "-t", s.name, "-l", text)
}

// Screen is the pane's text; no-break spaces (claude draws one after its ❯) read as spaces.
func (s *Tmux) Screen() string {
	s.t.Helper()
	return strings.ReplaceAll(s.Run("capture-pane", "-p", "-t", s.name), "\u00a0", " ")
}

// ScreenEscapes is the pane's text with the escape sequences of its colours and attributes.
func (s *Tmux) ScreenEscapes() string {
	s.t.Helper()
	return s.Run("capture-pane", "-p", "-e", "-t", s.name)
}

// WaitFor waits until the screen satisfies ok, failing with the screen after timeout.
func (s *Tmux) WaitFor(what string, timeout time.Duration, ok func(screen string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		scr := s.Screen()
		if ok(scr) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for %s; screen:\n%s", what, scr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// WaitText waits until the screen contains every text.
func (s *Tmux) WaitText(timeout time.Duration, texts ...string) string {
	s.t.Helper()
	return s.WaitFor(fmt.Sprintf("%q", texts), timeout, func(scr string) bool {
		for _, t := range texts {
			if !strings.Contains(scr, t) {
				return false
			}
		}
		return true
	})
}

// WaitCount waits until text appears at least n times on the screen.
func (s *Tmux) WaitCount(timeout time.Duration, text string, n int) string {
	s.t.Helper()
	return s.WaitFor(fmt.Sprintf("%d× %q", n, text), timeout, func(scr string) bool { return strings.Count(scr, text) >= n })
}

// Resize makes the window w×h cells, as a person resizing their terminal.
func (s *Tmux) Resize(w, h int) {
	s.t.Helper()
	s.Run("resize-window", "-t", s.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h))
}

// PressUntil presses key until the screen satisfies shown, and returns that screen: it presses
// once, and again whenever three seconds pass without it, since an agent drops a key that comes
// while it starts or redraws. It fails with the screen after timeout.
func (s *Tmux) PressUntil(key, what string, timeout time.Duration, shown func(screen string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s.Keys(key)
		for again := time.Now().Add(3 * time.Second); time.Now().Before(again); time.Sleep(100 * time.Millisecond) {
			if scr := s.Screen(); shown(scr) {
				return scr
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("pressing %s never showed %s; screen:\n%s", key, what, s.Screen())
		}
	}
}

// TypeAfter types text into an agent's input line, which shows what is typed after prompt,
// until the screen shows it there: keys typed while the agent is still starting can be lost, so
// it clears the line and types again, up to ten times. prompt may be one of several, separated
// by PromptOr, for an agent that draws its input line another way in another terminal.
func (s *Tmux) TypeAfter(prompt, text string) {
	s.t.Helper()
	prompts := strings.Split(prompt, PromptOr)
	shown := func(scr string) bool {
		for _, p := range prompts {
			if strings.Contains(scr, p+text) {
				return true
			}
		}
		return false
	}
	for try := 0; try < 10; try++ {
		s.Text(text)
		deadline := time.Now().Add(3 * time.Second)
		for time.Now().Before(deadline) {
			if shown(s.Screen()) {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		s.Keys("C-u") // clear whatever arrived, and type again
	}
	s.t.Fatalf("the screen never showed %q after %q:\n%s", text, prompts, s.Screen())
}

// PromptOr separates the input prompts TypeAfter takes.
const PromptOr = "\x00"
