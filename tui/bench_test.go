package tui

import (
	"testing"

	tea "github.com/hooksup/hooksup/third_party/bubbletea"
)

// BenchmarkFrame is a full redraw of the whole screen at 200×50 (claude's pane with a real
// screen, every side pane filled, a question pending): what View costs per frame.
func BenchmarkFrame(b *testing.B) {
	m := benchModel(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.View()
	}
}

// BenchmarkFrameHelp is the same frame with the help drawn over it.
func BenchmarkFrameHelp(b *testing.B) {
	m := benchModel(b)
	m.help = true
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.View()
	}
}

func benchModel(b testing.TB) model {
	m, f, _ := newTestModel(b, "dark")
	mm, _ := m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	m = mm.(model)
	scene(f)
	close(f.events)
	for ev := range f.events {
		m.event(eventMsg{ev: ev, counts: f.Counts()})
	}
	m.relayout()
	m.io.applySize(m.lay.agentInner()) // resize claude's terminal to its pane now
	return m
}
