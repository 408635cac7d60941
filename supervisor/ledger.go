package supervisor

import (
	"sync"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// Subagent states in the ledger.
const (
	SubRunning  = "running"
	SubStopping = "stopping"
	SubSteered  = "steered" // a SubagentStop was blocked: it continues
	SubDone     = "done"
	SubOrphan   = "orphan" // a SubagentStop for an agent hooksup never saw start
)

// Subagent is one line of the ledger.
type Subagent struct {
	ID        string        `json:"id"`
	Type      string        `json:"type"`
	State     string        `json:"state"`
	Steers    int           `json:"steers"`
	Started   time.Time     `json:"started"`
	Ended     time.Time     `json:"ended"`
	Usage     session.Usage `json:"usage"` // from its transcript, when known
	ToolCalls int64         `json:"tool_calls"`
}

// SubagentsChanged: the subagent ledger changed; Agents is a copy, in order of appearance.
type SubagentsChanged struct {
	session.At
	Agents []Subagent `json:"agents"`
}

// maxLedger bounds the ledger.
const maxLedger = 500

// ledger tracks subagents from SubagentStart/SubagentStop hooks and their verdicts, and takes
// their usage from the transcript. A stop with no start is marked orphan, not guessed.
type ledger struct {
	mu    sync.Mutex
	order []string
	byID  map[string]*Subagent
	emit  func(session.Event)
	now   func() time.Time
}

func newLedger(emit func(session.Event)) *ledger {
	return &ledger{byID: map[string]*Subagent{}, emit: emit, now: time.Now}
}

func (l *ledger) get(id, typ, state string) *Subagent {
	a := l.byID[id]
	if a == nil {
		a = &Subagent{ID: id, Type: typ, State: state, Started: l.now()}
		l.byID[id] = a
		l.order = append(l.order, id)
		if len(l.order) > maxLedger {
			delete(l.byID, l.order[0])
			l.order = l.order[1:]
		}
	}
	if typ != "" {
		a.Type = typ
	}
	return a
}

func (l *ledger) publish() {
	out := make([]Subagent, 0, len(l.order))
	for _, id := range l.order {
		out = append(out, *l.byID[id])
	}
	l.emit(SubagentsChanged{At: session.At{Time: l.now()}, Agents: out})
}

func (l *ledger) hook(in *hooks.Input) {
	if in.AgentID == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch in.HookEventName {
	case hooks.SubagentStart:
		l.get(in.AgentID, in.AgentType, SubRunning).State = SubRunning
	case hooks.SubagentStop:
		if _, ok := l.byID[in.AgentID]; !ok {
			l.get(in.AgentID, in.AgentType, SubOrphan)
		} else if a := l.byID[in.AgentID]; a.State != SubOrphan {
			a.State = SubStopping
		}
	default:
		return
	}
	l.publish()
}

func (l *ledger) verdict(v verdictlog.Verdict) {
	if v.Event != hooks.SubagentStop || v.AgentID == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.get(v.AgentID, v.AgentType, SubOrphan)
	a.Steers = v.Steers
	if a.State != SubOrphan {
		if v.Decision == hooks.Block {
			a.State = SubSteered
		} else {
			a.State, a.Ended = SubDone, l.now()
		}
	}
	l.publish()
}

// usage takes the subagents' usage from a transcript snapshot.
func (l *ledger) usage(s session.Transcript) {
	l.mu.Lock()
	defer l.mu.Unlock()
	changed := false
	for _, ag := range s.Agents {
		a, ok := l.byID[ag.ID]
		if !ok {
			continue
		}
		if a.Usage != ag.Stats.Usage || a.ToolCalls != ag.Stats.ToolCallCount {
			a.Usage, a.ToolCalls = ag.Stats.Usage, ag.Stats.ToolCallCount
			changed = true
		}
	}
	if changed {
		l.publish()
	}
}
