package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// tmuxSession drives a program in a real tmux, as a person would: send-keys to type,
// capture-pane to read the screen.
type tmuxSession struct {
	t      testing.TB
	socket string
	name   string
}

func requireTmux(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed (CI must install it)")
		}
		t.Skip("tmux is not installed")
	}
}

// startTmux runs argv in a detached tmux session of w×h cells with env.
func startTmux(t testing.TB, w, h int, env []string, dir string, argv ...string) *tmuxSession {
	t.Helper()
	requireTmux(t)
	s := &tmuxSession{t: t, socket: fmt.Sprintf("hs%d", time.Now().UnixNano()), name: "main"}
	script := "cd " + shellQuote(dir) + " && env -i"
	for _, kv := range env {
		script += " " + shellQuote(kv)
	}
	for _, a := range argv {
		script += " " + shellQuote(a)
	}
	// Keep the pane after the program exits, so its last screen and status can be read.
	s.tmux("-f", "/dev/null", "new-session", "-d", "-s", s.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "sh", "-c", script+"; echo \"[exited $?]\"; sleep 600")
	t.Cleanup(func() { exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (s *tmuxSession) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys types tmux key names (e.g. "Escape", "C-]", "Enter") or literal text.
func (s *tmuxSession) keys(keys ...string) {
	s.t.Helper()
	s.tmux(append([]string{"send-keys", "-t", s.name}, keys...)...)
}

// text types literal text.
func (s *tmuxSession) text(text string) {
	s.t.Helper()
	s.tmux("send-keys", "-t", s.name, "-l", text)
}

// screen is the pane's text; no-break spaces (claude draws one after its ❯) read as spaces.
func (s *tmuxSession) screen() string {
	s.t.Helper()
	return strings.ReplaceAll(s.tmux("capture-pane", "-p", "-t", s.name), "\u00a0", " ")
}

// waitFor waits until the screen satisfies ok, failing with the screen after timeout.
func (s *tmuxSession) waitFor(what string, timeout time.Duration, ok func(screen string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		scr := s.screen()
		if ok(scr) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for %s; screen:\n%s", what, scr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitText waits until the screen contains every text.
func (s *tmuxSession) waitText(timeout time.Duration, texts ...string) string {
	s.t.Helper()
	return s.waitFor(fmt.Sprintf("%q", texts), timeout, func(scr string) bool {
		for _, t := range texts {
			if !strings.Contains(scr, t) {
				return false
			}
		}
		return true
	})
}

func (s *tmuxSession) resize(w, h int) {
	s.t.Helper()
	s.tmux("resize-window", "-t", s.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h))
}

// waitCount waits until text appears at least n times on the screen.
func (s *tmuxSession) waitCount(timeout time.Duration, text string, n int) string {
	s.t.Helper()
	return s.waitFor(fmt.Sprintf("%d× %q", n, text), timeout, func(scr string) bool { return strings.Count(scr, text) >= n })
}

// typeAfter types text into an agent's input line, which shows what is typed after prompt,
// until the screen shows it there: keys typed while the agent is still starting can be lost, so
// it clears the line and types again, up to ten times.
func typeAfter(t testing.TB, tm *tmuxSession, prompt, text string) {
	t.Helper()
	for try := 0; try < 10; try++ {
		tm.text(text)
		deadline := time.Now().Add(3 * time.Second)
		for time.Now().Before(deadline) {
			if strings.Contains(tm.screen(), prompt+text) {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		tm.keys("C-u") // clear whatever arrived, and type again
	}
	t.Fatalf("the screen never showed %q:\n%s", prompt+text, tm.screen())
}
