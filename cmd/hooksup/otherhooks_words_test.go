package main

import (
	"strings"
	"testing"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/verdictlog"
)

// What another hook made the agent do is said of the session's agent, in the headless printer
// and hooksup log alike.
func TestOtherHooksLinesNameTheAgent(t *testing.T) {
	t.Parallel()
	e := verdictlog.Verdict{Event: verdictlog.EventOtherHooks, Agent: "codex", OtherHooks: []verdictlog.OtherHook{
		{Command: "/home/u/check.sh", Outcome: hooks.OutcomeBlocked, Blocked: true, Reason: "update the changelog"}}}
	for _, short := range []bool{true, false} {
		lines := otherHooksLines(e, short)
		if len(lines) != 1 || !strings.HasSuffix(lines[0], "(codex continued)") || strings.Contains(lines[0], "claude") {
			t.Errorf("short %v: %q", short, lines)
		}
	}
}
