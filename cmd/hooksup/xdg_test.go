package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// withEnv is env with each of set's variables (NAME=value) in place of its earlier value.
func withEnv(env []string, set ...string) []string {
	out := append([]string{}, env...)
	for _, kv := range set {
		name, _, _ := strings.Cut(kv, "=")
		out = append(slices.DeleteFunc(out, func(e string) bool { return strings.HasPrefix(e, name+"=") }), kv)
	}
	return out
}

// A relative XDG variable is ignored, as the XDG spec says, and the person is told once, on
// stderr, which and what hooksup uses instead, however many times the command looks for its
// directories.
func TestXDGRelativeVariableIsSaidOnce(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	env := withEnv(s.Env, "XDG_STATE_HOME=state", "XDG_CONFIG_HOME=cfg\x1b[2J", "XDG_RUNTIME_DIR=run")
	for _, args := range [][]string{{"log"}, {"ls"}, {"check"}} {
		cmd := e2e.ExecHooksup(s, args...)
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Run()
		for _, want := range []string{
			"hooksup: XDG_STATE_HOME=state is relative: ignored, using ~/.local/state\n",
			"hooksup: XDG_CONFIG_HOME=cfg\\e[2J is relative: ignored, using ~/.config\n",
			"hooksup: XDG_RUNTIME_DIR=run is relative: ignored, using hooksup-UID in $TMPDIR, else /tmp\n",
		} {
			if n := strings.Count(stderr.String(), want); n != 1 {
				t.Errorf("hooksup %s: %d× %q on stderr, want 1:\n%s", strings.Join(args, " "), n, want, &stderr)
			}
		}
		if strings.Contains(stdout.String(), "relative") {
			t.Errorf("hooksup %s: the notice is on stdout:\n%s", strings.Join(args, " "), &stdout)
		}
	}

	// The hook client's stdout and stderr are the agent's: it only logs it.
	for _, bin := range []string{e2e.HookClientBin, e2e.HooksupBin} {
		args := []string{"--agent", "claude", "Stop", "--installed"}
		if bin == e2e.HooksupBin {
			args = append([]string{"hook"}, args...)
		}
		hook := exec.Command(bin, args...)
		hook.Dir, hook.Env = s.Project, env
		hook.Stdin = strings.NewReader(`{"session_id":"s1","cwd":"` + s.Project + `","hook_event_name":"Stop","stop_hook_active":false}`)
		var stdout, stderr bytes.Buffer
		hook.Stdout, hook.Stderr = &stdout, &stderr
		if err := hook.Run(); err != nil {
			t.Fatalf("%s: %v", filepath.Base(bin), err)
		}
		if strings.Contains(stdout.String()+stderr.String(), "relative") {
			t.Errorf("%s: the notice reached the agent:\nstdout %q\nstderr %q", filepath.Base(bin), &stdout, &stderr)
		}
	}
	b, _ := os.ReadFile(filepath.Join(s.Home, ".local", "state", "hooksup", "hooksup.log"))
	if n := strings.Count(string(b), "XDG_STATE_HOME=state is relative: ignored"); n != 2 {
		t.Errorf("hooksup.log holds the notice %d times, want once per hook:\n%s", n, b)
	}
}
