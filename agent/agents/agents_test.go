package agents

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agents/dialects"
	"github.com/hooksup/hooksup/hooks"
)

// The hook client's list of dialects names the same agents as All, in its order.
func TestDialectsListTheAgents(t *testing.T) {
	var names, dnames []string
	for _, a := range All() {
		names = append(names, a.Name())
	}
	for _, d := range dialects.All() {
		dnames = append(dnames, d.Name())
	}
	if !slices.Equal(names, dnames) {
		t.Fatalf("agents.All names %v, dialects.All %v: add the agent's wire.Dialect to dialects.All", names, dnames)
	}
}

// An installed hook that names no agent is known by its environment, as before it named one:
// gemini also sets claude's CLAUDE_PROJECT_DIR.
func TestDialectFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"GEMINI_PROJECT_DIR": "/p", "CLAUDE_PROJECT_DIR": "/p"}, "gemini"},
		{map[string]string{"GEMINI_CLI": "1"}, "gemini"},
		{map[string]string{"CLAUDECODE": "1", "CODEX_HOME": "/c"}, "claude"},
		{map[string]string{"CLAUDE_PROJECT_DIR": "/p"}, "claude"},
		{map[string]string{"CODEX_SANDBOX": "seatbelt"}, "codex"},
		{map[string]string{}, ""},
	} {
		d, ok := dialects.FromEnv(func(k string) string { return tc.env[k] })
		got := ""
		if ok {
			got = d.Name()
		}
		if got != tc.want {
			t.Errorf("%v: %q, want %q", tc.env, got, tc.want)
		}
	}
}

// What each agent's injection writes in the runtime directory is named by the session's id and
// one of the agent's Leftovers, so the sweep of a killed session's files finds all of it.
func TestInjectionsLeaveOnlyTheirLeftovers(t *testing.T) {
	for _, a := range All() {
		t.Run(a.Name(), func(t *testing.T) {
			home, dir := t.TempDir(), t.TempDir()
			env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
			l, err := a.Inject(agent.Hooks{Events: []string{hooks.Stop}, Command: func(ev string) string { return "/bin/hook " + ev },
				StopTimeout: time.Minute, OtherTimeout: time.Minute, Getenv: func(k string) string { return env[k] }}, nil, dir, "sess1")
			if err != nil {
				t.Fatal(err)
			}
			if l.Cleanup != nil {
				defer l.Cleanup()
			}
			var suffixes []string
			if lo, ok := a.(agent.Leftovers); ok {
				suffixes = lo.Leftovers()
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != len(suffixes) {
				t.Errorf("Inject wrote %d entries in the runtime directory; its Leftovers are %q", len(entries), suffixes)
			}
			for _, e := range entries {
				if !slices.ContainsFunc(suffixes, func(s string) bool { return e.Name() == "sess1"+s }) {
					t.Errorf("Inject wrote %s in the runtime directory; its Leftovers are %q", e.Name(), suffixes)
				}
			}
		})
	}
}
