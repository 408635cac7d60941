package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

type resolution struct {
	decision hooks.Decision
	reason   string
	by       verdictlog.Source
}

type pendingQuestion struct {
	q        session.Question
	ch       chan resolution // buffered 1: the first answer wins
	answered bool            // under the engine's lock
}

// resolve answers p, and reports false when it had been answered already. The engine's lock is
// held.
func (p *pendingQuestion) resolve(r resolution) bool {
	if p.answered {
		return false
	}
	p.answered = true
	p.ch <- r
	return true
}

// settle ends p's wait with r (the timeout's, or the vanished hook's) unless an answer came
// first: that one wins, and is returned.
func (e *Engine) settle(p *pendingQuestion, r resolution) resolution {
	e.mu.Lock()
	defer e.mu.Unlock()
	if p.answered {
		return <-p.ch
	}
	p.answered = true
	return r
}

// askPerson publishes q and waits for the person, the decision timeout, Escape or ctx.
func (e *Engine) askPerson(ctx context.Context, q session.Question) resolution {
	e.mu.Lock()
	e.questionSeq++
	q.ID = e.questionSeq
	q.Asked = e.now()
	q.Deadline = q.Asked.Add(e.cfg.DecisionTimeout.D)
	p := &pendingQuestion{q: q, ch: make(chan resolution, 1)}
	e.pending[q.ID] = p
	e.mu.Unlock()
	e.emit(session.QuestionAsked{At: session.At{Time: q.Asked}, Question: q})

	timer := time.NewTimer(e.cfg.DecisionTimeout.D)
	defer timer.Stop()
	var r resolution
	select {
	case r = <-p.ch:
	case <-timer.C:
		r = e.settle(p, resolution{by: verdictlog.SourceTimeout})
	case <-ctx.Done():
		// Interrupt resolves the question before it cancels; otherwise the hook went away.
		r = e.settle(p, resolution{by: verdictlog.SourceFailOpen})
	}
	e.mu.Lock()
	delete(e.pending, q.ID)
	e.mu.Unlock()
	e.emit(session.QuestionResolved{At: session.At{Time: e.now()}, ID: q.ID, Decision: r.decision, By: r.by})
	return r
}

// Resolve answers a pending question: Allow lets the agent stop, Block makes it continue with
// reason (the checks' reason when empty), Halt ends the turn.
func (e *Engine) Resolve(id int, d hooks.Decision, reason string) error {
	return e.ResolveBy(id, d, reason, verdictlog.SourceManual)
}

// ResolveBy is Resolve with the verdict's source saying where the person answered, e.g.
// ManualSource("hooksup approve"). Of two answers to one question the first wins; the other
// gets ErrAnswered.
func (e *Engine) ResolveBy(id int, d hooks.Decision, reason string, by verdictlog.Source) error {
	switch d {
	case hooks.Allow, hooks.Block, hooks.Halt:
	default:
		return fmt.Errorf("resolve question %d: unknown decision %q", id, d)
	}
	if by != verdictlog.SourceManual && !strings.HasPrefix(string(by), string(verdictlog.SourceManual)+" (") {
		return fmt.Errorf("resolve question %d: %q is not a person's source", id, by)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	p, ok := e.pending[id]
	switch {
	case !ok && id > 0 && id <= e.questionSeq:
		return fmt.Errorf("resolve question %d: %w", id, session.ErrAnswered)
	case !ok:
		return fmt.Errorf("resolve question %d: %w", id, session.ErrNoSuchQuestion)
	}
	if !p.resolve(resolution{decision: d, reason: reason, by: by}) {
		return fmt.Errorf("resolve question %d: %w", id, session.ErrAnswered)
	}
	return nil
}

// Pending returns the questions waiting for the person, oldest first.
func (e *Engine) Pending() []session.Question {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]session.Question, 0, len(e.pending))
	for _, p := range e.pending {
		out = append(out, p.q)
	}
	slices.SortFunc(out, func(a, b session.Question) int { return a.ID - b.ID })
	return out
}

// NextQuestionID takes the next question id, for a question put to the person outside the
// engine (an agent's permission dialog): every question of the session has an id of its own,
// and Resolve of an id taken here and no longer pending says ErrAnswered.
func (e *Engine) NextQuestionID() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.questionSeq++
	return e.questionSeq
}
