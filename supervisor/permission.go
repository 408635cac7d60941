package supervisor

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/clip"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// An agent's permission dialog is a question of the session (session.Question with Event
// PermissionRequest) while the agent's PermissionRequest hook waits beside the dialog
// (agent.Permissions): the first answer wins, a person's from anywhere through Resolve, or the
// person's at the dialog itself, which withdraws the question (the agent's state leaves
// "needs permission", Escape, the hook gone) and the hook answers nothing.

// permAnswer is how a permission question ended: a decision and who gave it, or withdrawn
// (decision "").
type permAnswer struct {
	decision hooks.Decision
	reason   string
	by       verdictlog.Source
}

type permQuestion struct {
	q    session.Question
	rule json.RawMessage // what "always" writes, as the answer carries it
	ch   chan permAnswer // buffered 1: the first answer wins
	// keys: a dialog no hook answers, read on the agent's screen and answered with keys
	// (keyperm.go); it is withdrawn when it leaves the screen, not by the agent's state.
	keys bool
}

// permissions are the permission questions pending in a session.
type permissions struct {
	mu      sync.Mutex
	pending map[int]*permQuestion
}

// take removes id's question and reports it, nil when it is not pending.
func (p *permissions) take(id int) *permQuestion {
	p.mu.Lock()
	defer p.mu.Unlock()
	q := p.pending[id]
	delete(p.pending, id)
	return q
}

func (p *permissions) list() []session.Question {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]session.Question, 0, len(p.pending))
	for _, q := range p.pending {
		out = append(out, q.q)
	}
	return out
}

// permissionRequest is the PermissionRequest hook: observed like any hook, and, where the
// agent's hook can answer its dialog and a person may answer from elsewhere, held as a question
// until someone answers. Whatever fails, the hook answers nothing: the agent's own dialog decides.
func (s *Supervisor) permissionRequest(ctx context.Context, in *hooks.Input) ([]byte, int) {
	s.observe(ctx, in)
	pa, ok := s.agent.(agent.Permissions)
	if !ok || !s.o.Interactive || in.ToolName == "" || !pa.AnswersPermission(in) {
		return nil, 0
	}
	// The hook's deny carries a message the agent gives the model as the call's result.
	perm := &session.Permission{Tool: termsafe.String(in.ToolName), Command: termsafe.String(clip.Head(toolSubject(in.ToolInput), activityCommandMax)),
		DenyReason: true}
	words, rule, ok := pa.AlwaysRule(in)
	if ok {
		perm.Always = words
	}
	now := time.Now()
	p := &permQuestion{q: session.Question{ID: s.engine.NextQuestionID(), Event: hooks.PermissionRequest, AgentID: in.AgentID,
		AgentType: in.AgentType, Asked: now, Permission: perm}, rule: rule, ch: make(chan permAnswer, 1)}
	s.perms.mu.Lock()
	if s.perms.pending == nil {
		s.perms.pending = map[int]*permQuestion{}
	}
	s.perms.pending[p.q.ID] = p
	s.perms.mu.Unlock()
	s.publish(session.QuestionAsked{At: session.At{Time: now}, Question: p.q})

	var a permAnswer
	select {
	case a = <-p.ch:
	case <-ctx.Done():
		if s.perms.take(p.q.ID) != nil {
			a = permAnswer{by: verdictlog.SourceFailOpen}
		} else {
			a = <-p.ch
		}
	}
	s.publish(session.QuestionResolved{At: session.At{Time: time.Now()}, ID: p.q.ID, Decision: a.decision, By: a.by})
	if a.decision == "" {
		return nil, 0
	}
	v := verdictlog.Verdict{Time: time.Now(), Asked: now, SessionID: in.SessionID, Event: verdictlog.EventPermission,
		AgentID: in.AgentID, AgentType: in.AgentType, Decision: a.decision, Source: a.by, Reason: a.reason,
		Permission: &verdictlog.Permission{Tool: perm.Tool, Command: perm.Command}}
	if a.decision == session.PermissionAlways {
		v.Permission.Rule = perm.Always
	}
	s.out.Do(func() {
		if err := s.record(v); err != nil {
			s.logger.Error("verdict log", "err", err)
		}
	})
	return pa.PermissionAnswer(string(a.decision), a.reason, p.rule), 0
}

// resolvePermission answers permission question id; false when id is no permission question
// pending (a stop's, or none).
func (s *Supervisor) resolvePermission(id int, d hooks.Decision, reason string, by verdictlog.Source) (bool, error) {
	s.perms.mu.Lock()
	p, ok := s.perms.pending[id]
	if !ok {
		s.perms.mu.Unlock()
		return false, nil
	}
	switch {
	case d != session.PermissionAllow && d != session.PermissionDeny && d != session.PermissionAlways:
		s.perms.mu.Unlock()
		return true, fmt.Errorf("resolve question %d: %w: a permission is answered allow, deny or always, not %q", id, session.ErrNotPermission, d)
	case d != session.PermissionDeny && reason != "":
		s.perms.mu.Unlock()
		return true, fmt.Errorf("resolve question %d: %w: a permission allowed takes no reason: the agent is told nothing when its tool runs", id, session.ErrNotPermission)
	case reason != "" && !p.q.Permission.DenyReason:
		s.perms.mu.Unlock()
		return true, fmt.Errorf("resolve question %d: %w: %s's dialog takes no reason (it is answered with keys: deny presses Escape, which cancels the call)", id, session.ErrNotPermission, s.agent.Product())
	case d == session.PermissionAlways && p.q.Permission.Always == "":
		s.perms.mu.Unlock()
		return true, fmt.Errorf("resolve question %d: %w: %s offers no rule to allow it always here", id, session.ErrNotPermission, s.agent.Product())
	}
	delete(s.perms.pending, id)
	s.perms.mu.Unlock()
	if p.keys {
		// Typed into the dialog's field: one line of printable text.
		reason = termsafe.String(strings.Join(strings.Fields(reason), " "))
	}
	p.ch <- permAnswer{decision: d, reason: reason, by: by}
	return true, nil
}

// withdrawPermissions ends every pending permission question without an answer: the person
// answered at the agent's own dialog (or it went away), so the hook answers nothing.
func (s *Supervisor) withdrawPermissions(why string) {
	s.perms.mu.Lock()
	ps := make([]*permQuestion, 0, len(s.perms.pending))
	for id, p := range s.perms.pending {
		if p.keys {
			continue
		}
		ps = append(ps, p)
		delete(s.perms.pending, id)
	}
	s.perms.mu.Unlock()
	for _, p := range ps {
		s.logger.Debug("permission question withdrawn", "id", p.q.ID, "why", why)
		p.ch <- permAnswer{by: verdictlog.SourceTerminal}
	}
}

// Pending returns the questions waiting for the person: the stops' and the permissions',
// oldest first.
func (s *Supervisor) Pending() []session.Question {
	qs := append(s.engine.Pending(), s.perms.list()...)
	slices.SortFunc(qs, func(a, b session.Question) int { return a.ID - b.ID })
	return qs
}
