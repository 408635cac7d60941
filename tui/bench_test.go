package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/hub"
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

// BenchmarkWatchFrame is a redraw of hooksup watch at 150×40: two sessions, each with a
// question whose check printed 40 lines (the reason's default), the rows left filled with them.
func BenchmarkWatchFrame(b *testing.B) {
	f := fakeSessions()
	var out strings.Builder
	out.WriteString("The check \"tests\" failed (exit 1). Fix what it reports, then finish. Its output:")
	for i := range 40 {
		fmt.Fprintf(&out, "\n\tpkg/thing_test.go:%d: want %d, got %d", i, i, i+1)
	}
	asked := watchNow.Add(-time.Minute)
	for i := range f.lives {
		f.lives[i].Snapshot.Pending = []hub.Question{{ID: 1, Event: "Stop", Proposal: "block", Source: "check:tests",
			Reason: out.String(), Asked: asked, Deadline: asked.Add(5 * time.Minute)}}
	}
	m := newTestWatch(b, f)
	m.Update(tea.WindowSizeMsg{Width: 150, Height: 40})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.View()
	}
}
