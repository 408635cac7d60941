package claude

import (
	"slices"
	"testing"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/transcript"
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

// claude's line when its cap overrides a blocked stop (2.1.330's words) is a capped end; other
// informational lines are not.
func TestClaudeCapEnded(t *testing.T) {
	capped := transcript.Record{Kind: transcript.KindInformational, Text: "A hook blocked the turn from ending 9 consecutive times—overriding and ending turn. For Stop/SubagentStop hooks, check stop_hook_active in the input and return success while it's true. Set CLAUDE_CODE_STOP_HOOK_BLOCK_CAP to raise this limit."}
	if !(Agent{}).CapEnded(capped) {
		t.Fatal("the cap's line is not a capped end")
	}
	for _, r := range []transcript.Record{{Kind: transcript.KindInformational, Text: "Conversation compacted"}, {Kind: transcript.KindMeta, Text: capped.Text}} {
		if (Agent{}).CapEnded(r) {
			t.Fatalf("%+v is a capped end", r)
		}
	}
}
