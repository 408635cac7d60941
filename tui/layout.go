package tui

// rect is a region of the screen in cells.
type rect struct{ x, y, w, h int }

func (r rect) empty() bool { return r.w <= 0 || r.h <= 0 }

func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// layoutKind is how the screen is divided.
type layoutKind int

const (
	layoutWide  layoutKind = iota // claude's pane left, the others stacked on the right
	layoutStack                   // claude's pane on top, the others in a row below
	layoutSolo                    // claude's pane only, with a one-line status (tiny or zoomed)
)

// layout places the panes. Borders are inside each rect.
type layout struct {
	kind                          layoutKind
	status, banner                rect // one-line status, and the decision banner when a question is pending
	agent, verdicts, checks, subs rect
}

// Size thresholds.
const (
	wideMinWidth  = 110
	stackMinRows  = 28
	soloMaxWidth  = 60
	soloMaxHeight = 16
)

// computeLayout divides w×h cells, with bannerRows rows for the decision banner (0: none).
func computeLayout(w, h int, zoom bool, bannerRows int) layout {
	var l layout
	l.status = rect{0, 0, w, 1}
	y := 1
	if bannerRows > 0 {
		l.banner = rect{0, y, w, bannerRows}
		y += bannerRows
	}
	body := rect{0, y, w, h - y}
	switch {
	case zoom || w < soloMaxWidth || h < soloMaxHeight:
		l.kind = layoutSolo
		l.agent = body
	case w >= wideMinWidth:
		l.kind = layoutWide
		side := min(max(w*34/100, 40), 64)
		l.agent = rect{0, y, w - side, body.h}
		vh := max(body.h*45/100, 5)
		sh := max(body.h*20/100, 4)
		ch := body.h - vh - sh
		l.verdicts = rect{w - side, y, side, vh}
		l.checks = rect{w - side, y + vh, side, ch}
		l.subs = rect{w - side, y + vh + ch, side, sh}
	case h >= stackMinRows:
		l.kind = layoutStack
		bottom := max(body.h*38/100, 8)
		l.agent = rect{0, y, w, body.h - bottom}
		third := w / 3
		l.verdicts = rect{0, y + body.h - bottom, w - 2*third, bottom}
		l.checks = rect{w - 2*third, y + body.h - bottom, third, bottom}
		l.subs = rect{w - third, y + body.h - bottom, third, bottom}
	default:
		l.kind = layoutSolo
		l.agent = body
	}
	return l
}

// agentInner is the size of the terminal inside the agent pane's border.
func (l layout) agentInner() (cols, rows int) {
	return max(l.agent.w-2, 1), max(l.agent.h-2, 1)
}
