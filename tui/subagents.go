package tui

import (
	"fmt"

	"github.com/hooksup/hooksup/supervisor"
)

// subagent is one entry of the ledger.
type subagent struct {
	id, typ string
	state   string
	steers  int
}

// subagentsPane is the ledger of subagents: id, type, state, steers.
type subagentsPane struct {
	order []string
	byID  map[string]*subagent
}

func newSubagentsPane() subagentsPane { return subagentsPane{byID: map[string]*subagent{}} }

func (p *subagentsPane) get(id, typ string) *subagent {
	a := p.byID[id]
	if a == nil {
		a = &subagent{id: id, typ: typ, state: "running"}
		p.byID[id] = a
		p.order = append(p.order, id)
		if len(p.order) > 200 {
			delete(p.byID, p.order[0])
			p.order = p.order[1:]
		}
	}
	if typ != "" {
		a.typ = typ
	}
	return a
}

func (p *subagentsPane) event(ev supervisor.Event) {
	switch e := ev.(type) {
	case supervisor.HookReceived:
		switch e.Input.HookEventName {
		case "SubagentStart":
			p.get(e.Input.AgentID, e.Input.AgentType).state = "running"
		case "SubagentStop":
			p.get(e.Input.AgentID, e.Input.AgentType).state = "stopping"
		}
	case supervisor.VerdictDecided:
		v := e.Verdict
		if v.Event != "SubagentStop" {
			return
		}
		a := p.get(v.AgentID, v.AgentType)
		a.steers = v.Steers
		if v.Decision == "block" {
			a.state = "steered"
		} else {
			a.state = "done"
		}
	}
}

func (p *subagentsPane) view(st Styles, w, h int) []string {
	if len(p.order) == 0 {
		return []string{st.Muted.Render("no subagents yet")}
	}
	var lines []string
	for i := max(0, len(p.order)-h); i < len(p.order); i++ {
		a := p.byID[p.order[i]]
		stStyle := st.Working
		switch a.state {
		case "done":
			stStyle = st.Allow
		case "steered":
			stStyle = st.Warn
		}
		lines = append(lines, fit(fmt.Sprintf("%s %-16s %s steers %d", st.Muted.Render(shortID(a.id)), a.typ, stStyle.Render(fmt.Sprintf("%-8s", a.state)), a.steers), w))
	}
	return lines
}
