package tui

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/internal/agentsim"
)

// Goal mode in the TUI: the header shows the goal from the start, each goal turn against the
// budget with what failed, and how the goal ended; the turn after it is the person's.
func TestTUIGoalHeader(t *testing.T) {
	t.Parallel()
	e2e.RequireTmux(t)
	s := e2e.NewSandbox(t)
	gate, trace := filepath.Join(s.Project, "gate"), filepath.Join(s.Project, "trace.jsonl")
	self := e2e.SimAgentBin
	sc, _ := json.Marshal(agentsim.Scenario{Prompts: []string{"one", "two"}, TurnGate: gate,
		WorkDelay: agentsim.Duration{Duration: 1500 * time.Millisecond}})
	env := append(append([]string{}, s.Env...), "TERM=xterm-256color", e2e.EnvSimAgent+"=1",
		agentsim.EnvScenario+"="+string(sc), agentsim.EnvTrace+"="+trace)
	tm := e2e.StartTmux(t, 200, 44, env, s.Project, e2e.HooksupBin, "--claude-bin", self,
		"--goal", "ship the release", "--done", "echo 'release: 2 blockers left'; exit 1", "--max-turns", "2", "--mode", "auto", "claude")
	tm.WaitText(20*time.Second, `goal turn 0/2 "ship the release"`)
	tm.WaitText(20*time.Second, `goal turn 1/2 "ship the release"`, "✗ done exit 1: release: 2 blockers left")
	tm.WaitText(20*time.Second, `goal ended: its budget of turns (2) ran out "ship the release"`, "✗ done exit 1: release: 2 blockers left")
	if st := e2e.WaitTraceStops(t, trace, 3); st[2].Block {
		t.Fatalf("the stop that ended the goal blocked: %+v", st[2])
	}
}
