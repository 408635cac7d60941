package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/session"
)

// The goal's next turn is typed only into an empty prompt box: claude's "❯" alone, in its box or
// not; never over what the person typed.
func TestPromptBoxEmpty(t *testing.T) {
	for screen, want := range map[string]bool{
		"some output\n╭────╮\n│ ❯  │\n╰────╯": true,
		"output\n❯ \n  ? for shortcuts":       true,
		"> ":                                  true,
		"output\n› ":                          true,
		"output\n❯ fix the build":             false,
		"│ > half typed │":                    false,
		"no prompt here":                      false,
	} {
		if got := promptMarkAlone(strings.Split(screen, "\n")); got != want {
			t.Errorf("promptMarkAlone(%q) = %v, want %v", screen, got, want)
		}
	}
}

// The goal's turn is pasted into the agent's empty prompt box, Enter pressed after it, and again
// only while the agent still waits with the box holding the turn: never on an empty box (Qwen
// Code's Enter there sends its own suggestion), never once the person pressed a key.
func TestGoalTurnEnter(t *testing.T) {
	const turn = "Goal turn 3 of 4 (typed by hooksup: your own limit on stop hooks ended the last turn)."
	enters := func(pty *syncBuffer, want int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for strings.Count(pty.String(), "\r") != want || !strings.Contains(pty.String(), turn) {
			if time.Now().After(deadline) {
				t.Fatalf("%d Enters typed, want %d; typed %q", strings.Count(pty.String(), "\r"), want, pty.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	start := func(t *testing.T) (*model, *syncBuffer, *bool) {
		m, _, pty := newTestModel(t, "dark")
		empty := true
		m.promptEmpty = func([]string) bool { return empty }
		m.event(eventMsg{ev: session.StateChanged{State: session.StateWaiting}})
		m.event(eventMsg{ev: session.GoalTurnTyped{Text: turn}})
		return &m, pty, &empty
	}
	due := func(m *model) {
		m.goalEnter = time.Now().Add(-time.Millisecond)
		m.typeGoalTurn()
	}

	m, pty, empty := start(t)
	enters(pty, 0) // the paste alone: Enter follows goalEnterDelay later
	*empty = false // the box holds the turn
	m.typeGoalTurn()
	enters(pty, 0)
	due(m)
	enters(pty, 1)
	due(m) // not sent: the box still holds it, the agent still waits
	enters(pty, 2)
	*empty = true // sent
	due(m)
	time.Sleep(100 * time.Millisecond) // an Enter typed now would have reached the pty
	enters(pty, 2)
	if !m.goalEnter.IsZero() {
		t.Fatalf("an Enter still due after the turn was sent")
	}

	m, pty, empty = start(t)
	*empty = false
	tm, _ := m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	m2 := tm.(model)
	due(&m2)
	due(&m2)
	time.Sleep(100 * time.Millisecond)
	if n := strings.Count(pty.String(), "\r"); n != 0 {
		t.Fatalf("%d Enters after the person's key", n)
	}
}
