package main

import (
	"strings"
	"testing"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agents"
)

// fifth is an agent that is in no list but the test's: everything but its names is the default
// agent's.
type fifth struct{ agent.Agent }

func (fifth) Name() string    { return "zed" }
func (fifth) Product() string { return "Zed Agent CLI" }
func (fifth) BinEnv() string  { return "HOOKSUP_ZED" }
func (fifth) Help() string    { return "run zed under hooksup" }

// An agent added to the list alone appears in --help, the man page and every shell's
// completions: its command, its --NAME-bin flag, its product and its variable.
func TestAFifthAgentAppearsThroughTheListAlone(t *testing.T) {
	t.Parallel()
	p := programOf(append(agents.All(), fifth{agents.Default()}))
	help := p.Help()
	for _, want := range []string{"zed", "run Zed Agent CLI under supervision", "--zed-bin", "Zed Agent CLI"} {
		if !strings.Contains(help, want) {
			t.Errorf("--help lacks %q:\n%s", want, help)
		}
	}
	if c, ok := p.Lookup("zed"); !ok || !strings.Contains(p.CommandHelp(c), "run zed under hooksup") {
		t.Errorf("help zed lacks the agent's help")
	}
	man := p.Man()
	for _, want := range []string{"run zed under hooksup", "zed\\-bin", "HOOKSUP_ZED", "Zed Agent CLI"} {
		if !strings.Contains(man, want) {
			t.Errorf("the man page lacks %q", want)
		}
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		script, err := p.Completion(shell)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(script, "zed") || !strings.Contains(script, "zed-bin") {
			t.Errorf("the %s completion names no zed or --zed-bin", shell)
		}
	}
	if strings.Contains(program().Help(), "zed") {
		t.Fatal("the fake agent leaked into hooksup's own list")
	}
}
