package agents

import (
	"slices"
	"testing"

	"github.com/hooksup/hooksup/agent/agents/dialects"
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
