package tui

import (
	"fmt"

	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
)

// subagentsPane shows the supervisor's subagent ledger: id, type, state, steers, tokens.
type subagentsPane struct {
	agents []session.Subagent
}

func (p *subagentsPane) event(ev session.Event) {
	if e, ok := ev.(session.SubagentsChanged); ok {
		p.agents = e.Agents
	}
}

func (p *subagentsPane) view(st Styles, w, h int) []string {
	if len(p.agents) == 0 {
		return []string{st.Muted.Render("no subagents yet")}
	}
	var lines []string
	for i := max(0, len(p.agents)-h); i < len(p.agents); i++ {
		a := p.agents[i]
		stStyle := st.Working
		switch a.State {
		case session.SubDone:
			stStyle = st.Stopped
		case session.SubSteered:
			stStyle = st.Warn
		case session.SubOrphan:
			stStyle = st.Muted
		}
		tokens := ""
		if t := a.Usage.Total(); t > 0 {
			tokens = " " + st.Muted.Render(present.Count(t)+" tok")
		}
		lines = append(lines, fit(fmt.Sprintf("%s %-14s %s steers %d%s", st.Muted.Render(termsafe.String(shortID(a.ID))), termsafe.String(a.Type),
			stStyle.Render(fmt.Sprintf("%-8s", a.State)), a.Steers, tokens), w))
	}
	return lines
}
