package tui

import (
	"charm.land/bubbles/v2/key"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"
)

// agentPane is hooksup's part of claude's pane: every key goes to claude, so hooksup reads
// only its scrollback keys (after the prefix) and the mouse wheel.
type agentPane struct {
	keys   navKeys
	scroll int // lines scrolled back; 0 follows claude's screen
	rows   int // the pane's inner height: a page
}

// navigate scrolls claude's scrollback (of scrollback lines) by one of the pane's keys.
func (p *agentPane) navigate(msg tea.KeyPressMsg, scrollback int) {
	switch {
	case key.Matches(msg, p.keys.Up):
		p.scrollBy(1, scrollback)
	case key.Matches(msg, p.keys.Down):
		p.scrollBy(-1, scrollback)
	case key.Matches(msg, p.keys.PageUp):
		p.scrollBy(p.rows, scrollback)
	case key.Matches(msg, p.keys.PageDown):
		p.scrollBy(-p.rows, scrollback)
	}
}

// scrollBy scrolls back n lines (forward when negative), within the scrollback.
func (p *agentPane) scrollBy(n, scrollback int) {
	p.scroll = min(max(p.scroll+n, 0), scrollback)
}

// follow returns to claude's live screen (a key or a paste went to claude).
func (p *agentPane) follow() { p.scroll = 0 }
