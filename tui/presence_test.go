package tui

import (
	"testing"
	"time"

	tea "github.com/hooksup/hooksup/third_party/bubbletea"
)

// Every key pressed or text pasted at the terminal tells the session when: a front end away
// from it (hooksup web) sends no push while the person types here.
func TestKeysAtTheTerminalAreTold(t *testing.T) {
	m, f, _ := newTestModel(t, "dark")
	before := time.Now()
	var tm tea.Model = m
	tm, _ = tm.Update(press('x', 0, "x"))
	tm.Update(tea.PasteMsg{Content: "hello"})
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.typed) != 2 || f.typed[0].Before(before) {
		t.Fatalf("told %v, want the key's and the paste's times", f.typed)
	}
}
