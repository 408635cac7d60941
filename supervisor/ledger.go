package supervisor

import (
	"sync"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// maxLedger bounds the ledger.
const maxLedger = 500

// ledger tracks subagents from SubagentStart/SubagentStop hooks and their verdicts, and takes
// their usage from the transcript. A stop with no start is marked orphan, not guessed.
type ledger struct {
	mu    sync.Mutex
	order []string
	byID  map[string]*session.Subagent
	emit  func(session.Event)
	now   func() time.Time
}

func newLedger(emit func(session.Event)) *ledger {
	return &ledger{byID: map[string]*session.Subagent{}, emit: emit, now: time.Now}
}

func (l *ledger) get(id, typ, state string) *session.Subagent {
	a := l.byID[id]
	if a == nil {
		a = &session.Subagent{ID: id, Type: typ, State: state, Started: l.now()}
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
	out := make([]session.Subagent, 0, len(l.order))
	for _, id := range l.order {
		out = append(out, *l.byID[id])
	}
	l.emit(session.SubagentsChanged{At: session.At{Time: l.now()}, Agents: out})
}

func (l *ledger) hook(in *hooks.Input) {
	if in.AgentID == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch in.HookEventName {
	case hooks.SubagentStart:
		l.get(in.AgentID, in.AgentType, session.SubRunning).State = session.SubRunning
	case hooks.SubagentStop:
		if _, ok := l.byID[in.AgentID]; !ok {
			l.get(in.AgentID, in.AgentType, session.SubOrphan)
		} else if a := l.byID[in.AgentID]; a.State != session.SubOrphan {
			a.State = session.SubStopping
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
	a := l.get(v.AgentID, v.AgentType, session.SubOrphan)
	a.Steers = v.Steers
	if a.State != session.SubOrphan {
		if v.Decision == hooks.Block {
			a.State = session.SubSteered
		} else {
			a.State, a.Ended = session.SubDone, l.now()
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
