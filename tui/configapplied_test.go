package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/themes"
)

// newScreenModel is a model at w×h, whose events the test hands to Update itself.
func newScreenModel(t *testing.T, w, h int) model {
	t.Helper()
	th, err := themes.Get("mono")
	if err != nil {
		t.Fatal(err)
	}
	a := newAgentIOAlone(80, 24, "test", nil, nil)
	t.Cleanup(a.close)
	var m tea.Model = newModel(newFakeSession(), a, NewStyles(th), defaultKeyMap(), "auto", true, claude.DefaultBlockCap)
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m.(model)
}

// feedEvents hands evs to m as the event bridge would, and returns the screen as text.
func feedEvents(m model, evs ...session.Event) (model, string) {
	var tm tea.Model = m
	for _, ev := range evs {
		tm, _ = tm.Update(eventMsg{ev: ev})
	}
	m = tm.(model)
	return m, ansi.Strip(m.render())
}

// A trusted edit of the configuration is shown once it took effect at a stop: until then the
// checks pane lists the checks that still run and the header their mode; after it, the new
// checks and the new mode, and the notice that announced the edit gives the header back.
func TestConfigAppliedShowsTheNewChecks(t *testing.T) {
	m := newScreenModel(t, 160, 44)
	m.checks.configured = []config.Check{{Name: "ok", Command: "true"}}
	m.checks.from = []string{".hooksup.toml"}
	at := session.At{Time: time.Now()}
	m, scr := feedEvents(m, session.Notice{At: at, Level: session.NoticeWarn,
		Text: ".hooksup.toml changed, and this content is trusted: from the next stop, hooksup runs the checks ok, lint"})
	if !strings.Contains(scr, "○ ok  $ true") || strings.Contains(scr, "○ lint") {
		t.Fatalf("before the switch, the pane does not list only the checks that run:\n%s", scr)
	}
	_, scr = feedEvents(m, session.ConfigApplied{At: at, Mode: "observe",
		Checks:         []session.ConfiguredCheck{{Name: "ok", Command: "true"}, {Name: "lint", Command: "go vet ./..."}},
		SubagentChecks: []session.ConfiguredCheck{{Name: "review", Command: "true"}},
		Files:          []string{".hooksup.toml"}})
	for _, want := range []string{"○ ok  $ true", "○ lint  $ go vet ./...", "when a subagent stops:", "○ review  $ true", "mode observe"} {
		if !strings.Contains(scr, want) {
			t.Errorf("after the switch, the screen lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "mode auto") {
		t.Errorf("after the switch, the header still shows the old mode:\n%s", scr)
	}
}

// A check that ran before the switch was the old configuration's: the pane lists the new
// checks until one of them runs. A project file that was not trusted and now is no longer
// says its checks are ignored.
func TestConfigAppliedAfterARun(t *testing.T) {
	m := newScreenModel(t, 160, 44)
	m.checks.configured = []config.Check{{Name: "ok", Command: "true"}}
	m.checks.ignored = []string{".hooksup.local.toml"}
	m.header.ignored = true
	at := session.At{Time: time.Now()}
	m, scr := feedEvents(m, session.CheckStarted{At: at, Run: 1, Name: "ok", Command: "true"},
		session.CheckFinished{At: at, Run: 1, Result: session.CheckResult{Name: "ok", Command: "true"}})
	if !strings.Contains(scr, "✓ ok") || !strings.Contains(scr, "project checks ignored") {
		t.Fatalf("the run is not shown, or the ignored file:\n%s", scr)
	}
	_, scr = feedEvents(m, session.ConfigApplied{At: at, Mode: "auto",
		Checks: []session.ConfiguredCheck{{Name: "ok", Command: "true"}, {Name: "lint", Command: "golint"}},
		Files:  []string{".hooksup.toml", ".hooksup.local.toml"}})
	for _, want := range []string{"○ lint  $ golint", "from .hooksup.toml, .hooksup.local.toml"} {
		if !strings.Contains(scr, want) {
			t.Errorf("after the switch, the screen lacks %q:\n%s", want, scr)
		}
	}
	for _, not := range []string{"✓ ok", "is not trusted", "project checks ignored"} {
		if strings.Contains(scr, not) {
			t.Errorf("after the switch, the screen still says %q:\n%s", not, scr)
		}
	}
}
