package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// Keys as macOS terminals send them, typed into hooksup's TUI in tmux, reach the agent's pty as
// claude reads them in its legacy mode: iTerm2's Option+Left (xterm's Meta modifier) as Alt+Left,
// Option-as-Meta letters and Option+Enter with their ESC prefix, kitty's Shift+Enter as claude's
// newline (ESC CR).
func TestMacOSKeysReachTheAgentInTmux(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	got := filepath.Join(s.Project, "typed")
	agent := filepath.Join(s.Project, "agent")
	// The agent records every byte typed to it, unechoed and unbuffered, after saying it is ready.
	script := fmt.Sprintf("#!/bin/sh\nstty raw -echo\nprintf 'agent ready\\r\\n'\nexec cat > %s\n", e2e.ShellQuote(got))
	if err := os.WriteFile(agent, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	env := append(append([]string{}, s.Env...), "TERM=xterm-256color")
	tm := e2e.StartTmux(t, 150, 40, env, s.Project, e2e.HooksupBin, "--claude-bin", agent, "claude")
	tm.WaitText(20*time.Second, "agent ready")
	typed := []struct{ key, in, want string }{
		{"iTerm2 Option+Left", "\x1b[1;9D", "\x1b[1;3D"},
		{"Option-as-Meta b", "\x1bb", "\x1bb"},
		{"Option+Enter", "\x1b\r", "\x1b\r"},
		{"kitty Shift+Enter", "\x1b[13;2u", "\x1b\r"},
	}
	var want string
	for _, k := range typed {
		tm.SendBytes(k.in)
		want += k.want
		var b []byte
		for deadline := time.Now().Add(20 * time.Second); string(b) != want; time.Sleep(20 * time.Millisecond) {
			b, _ = os.ReadFile(got)
			if time.Now().After(deadline) {
				t.Fatalf("after %s (%q) the agent read %q, want %q\n%s", k.key, k.in, b, want, tm.Screen())
			}
		}
	}
}
