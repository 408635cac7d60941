package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/themes"
)

// newAgentTestModel is a session of the agent named agent, as Run makes it, with an empty
// screen in the agent's pane.
func newAgentTestModel(t *testing.T, agent string) (model, *fakeSession) {
	t.Helper()
	th, err := themes.Get("mono")
	if err != nil {
		t.Fatal(err)
	}
	km, err := keymap.Resolve("", nil)
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeSession()
	a := newAgentIO(80, 24, "test", programStatusTo(f), titleTo(f))
	t.Cleanup(a.close)
	a.sendTo(&syncBuffer{})
	m := newModel(f, a, NewStyles(th), newAgentKeyMap(km, agent), "ask", true, 0)
	m.setAgent(agent)
	return m, f
}

// A codex session's TUI names codex wherever it speaks of the agent: the pane, the banner of a
// question, the help with every key's words; never claude.
func TestCodexSessionNamesCodex(t *testing.T) {
	m, f := newAgentTestModel(t, "codex")
	fm := run(t, m, f, 160, 44)
	screens := map[string]string{"screen": fm.render()}
	fm.help = true
	screens["help"] = fm.render()
	claude := regexp.MustCompile(`(?i)claude`)
	for name, scr := range screens {
		scr = ansi.Strip(strings.ReplaceAll(scr, "claude-opus-5-5", "the scene's model")) // the scene's hook input names its model
		if claude.MatchString(scr) || !strings.Contains(scr, "codex wants to stop") {
			t.Errorf("the %s of a codex session:\n%s", name, scr)
		}
	}
	help := ansi.Strip(screens["help"])
	for _, want := range []string{"every key goes to codex", "approve the forced continuation: codex continues", "zoom codex's pane", "quit: ends codex", "send the reason: codex continues with it"} {
		if !strings.Contains(help, want) {
			t.Errorf("the help does not say %q:\n%s", want, help)
		}
	}
}
