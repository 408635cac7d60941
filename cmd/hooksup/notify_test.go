package main

import (
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// hooksup doctor says how notify reaches the person at this terminal, and why.
func TestDoctorSaysHowNotifyReachesYou(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	config := s.Config("[notifications]\nnotifier = \"system\"\n")
	for _, tc := range []struct {
		args []string
		env  []string
		want string
	}{
		{nil, []string{"TERM_PROGRAM=iTerm.app"}, "notify reaches you here as osc9: iTerm2"},
		{nil, []string{"TERM_PROGRAM=Apple_Terminal", "SSH_TTY=/dev/pts/1"}, "notify reaches you here as bell: Apple_Terminal over ssh shows no notification"},
		{[]string{"--config", config}, []string{"TERM_PROGRAM=iTerm.app"}, "notify reaches you here as system: set by [notifications] notifier"},
	} {
		cmd := e2e.ExecHooksup(s, append(tc.args, "doctor")...)
		cmd.Env = append(clearTerminal(cmd.Env), tc.env...)
		out, _ := cmd.Output() // doctor exits 1 here: there is no claude
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("%v %v: doctor says\n%s\nwant %q", tc.args, tc.env, out, tc.want)
		}
	}
}

// clearTerminal removes from env what tells which terminal, multiplexer or ssh hooksup runs in.
func clearTerminal(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "TERM_PROGRAM", "LC_TERMINAL", "KITTY_WINDOW_ID", "TMUX", "STY", "SSH_CONNECTION", "SSH_TTY", "DISPLAY", "WAYLAND_DISPLAY":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "TERM=xterm-256color")
}
