package agents

import (
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// A subagent's rollout is followed beside the main agent's: the Stop verdict's observation
// counts the tokens of both, the subagent's (served with a usage of their own) included.
func TestCodexSubagentTokens(t *testing.T) {
	t.Parallel()
	const subOutput = 7003
	sub := mockapi.OutputText("sub done")
	sub.Usage = mockapi.ResponsesUsage{InputTokens: 900, CachedTokens: 100, OutputTokens: subOutput}
	rc := e2e.NewRealCodex(t, mockapi.SpawnAndWait(t, "say hi", sub, mockapi.OutputText("main done")))
	res := rc.Hooksup("--config", rc.Config(`mode = "auto"`), "codex", "exec", "spawn one")
	if res.ExitCode != 0 || res.Stdout != "main done\n" {
		t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	var want int64
	subs := 0
	for _, r := range rc.Srv.Model() {
		if r.IsSubagent() {
			subs++
			want += subOutput
		} else {
			want += int64(mockapi.DefaultResponsesUsage.OutputTokens)
		}
	}
	if subs == 0 {
		t.Fatalf("the subagent made no request")
	}
	vs := rc.Verdicts()
	if len(vs) == 0 || vs[len(vs)-1].Event != "Stop" {
		t.Fatalf("verdicts: %s\nstderr: %s", e2e.Decisions(vs), res.Stderr)
	}
	o := vs[len(vs)-1].Observation
	if o == nil || o.OutputTokens != want {
		t.Fatalf("the Stop verdict's observation %+v: want %d output tokens (the main agent's and the subagent's)\nverdicts: %s\nlog: %s",
			o, want, e2e.Decisions(vs), rc.Log())
	}
}
