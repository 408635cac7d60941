package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/internal/agentsim"
)

// SimSession is a session of the simulated agent in a TUI: its sandbox (its project, its
// state directory: its verdict log) and its terminal.
type SimSession struct {
	Project string
	Sb      *Sandbox
	Tm      *Tmux
}

// SimTUIs is simSessions, giving each session's sandbox and terminal too.
func SimTUIs(t *testing.T, cfg []string, scs []agentsim.Scenario, ready []string) ([]SimSession, *WebServer) {
	t.Helper()
	self := SimAgentBin
	runDir := ""
	var sessions []SimSession
	for i, sc := range scs {
		s := NewSandbox(t)
		if runDir == "" {
			for _, kv := range s.Env {
				if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
					runDir = v
				}
			}
		}
		s.Env = append(s.Env, "XDG_RUNTIME_DIR="+runDir) // the later one counts
		b, _ := json.Marshal(sc)
		env := append(append([]string{}, s.Env...), "TERM=xterm-256color", EnvSimAgent+"=1", agentsim.EnvScenario+"="+string(b))
		tm := StartTmux(t, 120, 40, env, s.Project, HooksupBin, "--config", s.Config(cfg[i]), "--claude-bin", self, "claude")
		tm.WaitText(30*time.Second, ready[i])
		sessions = append(sessions, SimSession{Project: s.Project, Sb: s, Tm: tm})
	}
	home, env := OtherTerminal(t, runDir)
	return sessions, StartWebIn(t, home, env)
}

// CardJS is the page's card of the session in project.
func CardJS(project string) string {
	return fmt.Sprintf(`[...document.querySelectorAll(".card")].find(c => c.querySelector(".cwd") && c.querySelector(".cwd").textContent === %q)`, project)
}

const AskCfg = `
mode = "ask"
decision_timeout = "10m"
[[stop.checks]]
name = "tests"
command = "echo 'FAIL: TestPage'; exit 1"
`
