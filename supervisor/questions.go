package supervisor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hooksup/hooksup/hooks"
)

// Question is a stop decision put to a person (modes ask and manual).
type Question struct {
	ID          int
	Event       string // Stop or SubagentStop
	AgentID     string
	AgentType   string
	Proposal    hooks.Decision // what the checks said
	Source      Source         // the proposal's source, e.g. check:tests
	Reason      string         // the checks' reason for a proposed block (the default reason)
	Warning     string
	LastMessage string // what the agent said last
	Asked       time.Time
	Deadline    time.Time // when on_timeout applies
}

// QuestionAsked: a person is asked to decide a stop. Answer with Supervisor.Resolve.
type QuestionAsked struct {
	At
	Question Question
}

// QuestionResolved: a question was answered (by the person, the timeout or Escape).
type QuestionResolved struct {
	At
	ID       int
	Decision hooks.Decision
	By       Source // manual, timeout, escape or failopen
}

// ErrNoSuchQuestion is returned when resolving a question that is not pending (already
// answered, timed out, or never asked).
var ErrNoSuchQuestion = errors.New("no such pending question")

type resolution struct {
	decision hooks.Decision
	reason   string
	by       Source
}

type pendingQuestion struct {
	q  Question
	ch chan resolution // buffered 1: the first answer wins
}

func (p *pendingQuestion) resolve(r resolution) {
	select {
	case p.ch <- r:
	default:
	}
}

// askPerson publishes q and waits for the person, the decision timeout, Escape or ctx.
func (e *Engine) askPerson(ctx context.Context, q Question) resolution {
	e.mu.Lock()
	e.questionSeq++
	q.ID = e.questionSeq
	q.Asked = e.now()
	q.Deadline = q.Asked.Add(e.cfg.DecisionTimeout.D)
	p := &pendingQuestion{q: q, ch: make(chan resolution, 1)}
	e.pending[q.ID] = p
	e.mu.Unlock()
	e.emit(QuestionAsked{At: At{q.Asked}, Question: q})

	timer := time.NewTimer(e.cfg.DecisionTimeout.D)
	defer timer.Stop()
	var r resolution
	select {
	case r = <-p.ch:
	case <-timer.C:
		r = resolution{by: SourceTimeout}
	case <-ctx.Done():
		// Interrupt resolves the question before it cancels; otherwise the hook went away.
		select {
		case r = <-p.ch:
		default:
			r = resolution{by: SourceFailOpen}
		}
	}
	e.mu.Lock()
	delete(e.pending, q.ID)
	e.mu.Unlock()
	e.emit(QuestionResolved{At: At{e.now()}, ID: q.ID, Decision: r.decision, By: r.by})
	return r
}

// Resolve answers a pending question: Allow lets the agent stop, Block makes it continue with
// reason (the checks' reason when empty), Halt ends the turn.
func (e *Engine) Resolve(id int, d hooks.Decision, reason string) error {
	switch d {
	case hooks.Allow, hooks.Block, hooks.Halt:
	default:
		return fmt.Errorf("resolve question %d: unknown decision %q", id, d)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	p, ok := e.pending[id]
	if !ok {
		return fmt.Errorf("resolve question %d: %w", id, ErrNoSuchQuestion)
	}
	p.resolve(resolution{decision: d, reason: reason, by: SourceManual})
	return nil
}

// Pending returns the questions waiting for the person, oldest first.
func (e *Engine) Pending() []Question {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]Question, 0, len(e.pending))
	for _, p := range e.pending {
		out = append(out, p.q)
	}
	slices.SortFunc(out, func(a, b Question) int { return a.ID - b.ID })
	return out
}
