package claude

import (
	"slices"
	"testing"

	"github.com/hooksup/hooksup/agent"
)

// hooksup raises claude's cap on blocked stops to its own budget when that is larger than
// claude's default, and leaves a cap the person set alone.
func TestClaudeCapEnv(t *testing.T) {
	for _, c := range []struct {
		name   string
		blocks int
		theirs string
		want   []string
	}{
		{"goal of 12 turns", 12, "", []string{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=12"}},
		{"budget within claude's cap", 3, "", nil},
		{"budget equal to claude's cap", 8, "", nil},
		{"not asked", 0, "", nil},
		{"the person's own cap", 12, "3", nil},
		{"the person's own cap, off", 12, "0", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP" {
					return c.theirs
				}
				return ""
			}
			l, err := Agent{}.Inject(agent.Hooks{Command: func(string) string { return "h" }, Getenv: getenv, Blocks: c.blocks}, []string{"-p", "x"}, t.TempDir(), "id")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(l.Env, c.want) {
				t.Fatalf("env %q, want %q", l.Env, c.want)
			}
		})
	}
}
