package web

import (
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/verdictlog"
)

// Session is one session as `GET /api/sessions` and `hooksup ls --json` give it.
type Session struct {
	Host          string     `json:"host"` // the --host or [hub] hosts it runs on; "" for this machine
	SessionID     string     `json:"session_id"`
	ID            string     `json:"id"`
	Cwd           string     `json:"cwd"`
	Agent         string     `json:"agent"`
	Mode          string     `json:"mode"`
	State         string     `json:"state"`
	StateSince    time.Time  `json:"state_since"`
	PID           int        `json:"pid"`
	Started       time.Time  `json:"started"`
	Continuations int        `json:"continuations"`
	Tokens        int64      `json:"tokens"`
	Pending       []Question `json:"pending"`
	// Waiting: its checks wait for another hooksup's run of checks in the same project (left out
	// when they do not).
	Waiting *hub.Waiting `json:"waiting,omitempty"`
	// LastMessage is the start of what the agent said last (at most 4000 bytes); Permission,
	// while it needs permission, the tool it asks to run and its command. Both are left out when
	// unknown, and are the agent's text: shown as text, never markup.
	LastMessage string      `json:"last_message,omitempty"`
	Permission  *Permission `json:"permission,omitempty"`
	// Goal is the session's goal in goal mode, as its latest stop left it (left out otherwise).
	Goal *verdictlog.Goal `json:"goal,omitempty"`
	// GoalWords is the goal in the words of the TUI's header and hooksup watch's card, as the
	// page shows it (left out outside goal mode).
	GoalWords *GoalWords `json:"goal_words,omitempty"`
	// Error says why the host's sessions are not listed (hooksup web's card of a host that
	// cannot be reached or dropped: "disconnected: …; trying again in 4s"), or why a session
	// cannot be answered. It is left out when there is none.
	Error string `json:"error,omitempty"`
}

// Permission is what a session that needs permission asks to run; in a permission question,
// also what answering "always" writes (Always).
type Permission struct {
	Tool    string `json:"tool"`
	Command string `json:"command,omitempty"`
	Always  string `json:"always,omitempty"`
	// DenyReason: a deny's reason reaches the model (session.Permission.DenyReason).
	DenyReason bool `json:"deny_reason,omitempty"`
}

// Question is a pending question in a Session.
type Question struct {
	ID       int    `json:"id"`
	Event    string `json:"event"`
	AgentID  string `json:"agent_id"`
	Proposal string `json:"proposal"`
	Source   string `json:"source"`
	// Says is the proposal and its source in the words of the TUI's banner and hooksup log:
	// "the checks say continue (check tests)", "no checks: it may stop".
	Says     string    `json:"says"`
	Reason   string    `json:"reason"`
	Asked    time.Time `json:"asked"`
	Deadline time.Time `json:"deadline"`
	// Answers are the ways to answer it in the TUI's words (present.Answers): the page's
	// buttons say them, and the verdict each records as hooksup log says it.
	Answers []present.AnswerWords `json:"answers"`
	// Permission, in a PermissionRequest question, is what the agent asks to run.
	Permission *Permission `json:"permission,omitempty"`
}

// Sessions are the live sessions that answered, each with its host, as GET /api/sessions gives
// them; a host that could not be listed is one entry with the host, its id and the Error.
func Sessions(live []hub.Live) []Session {
	out := make([]Session, 0, len(live))
	for _, l := range live {
		switch {
		case l.Err == nil:
			out = append(out, SessionOf(l))
		case l.Host != "":
			out = append(out, Session{Host: l.Host, SessionID: l.Snapshot.SessionID, ID: l.Snapshot.ID,
				Cwd: l.Snapshot.Cwd, Agent: l.Snapshot.Agent, Pending: []Question{}, Error: l.Err.Error()})
		}
	}
	return out
}

// SessionOf is one live session that answered, on its host ("" for this machine).
func SessionOf(l hub.Live) Session {
	s := l.Snapshot
	j := Session{Host: l.Host, SessionID: s.SessionID, ID: s.ID, Cwd: s.Cwd, Agent: s.Agent, Mode: s.Mode, State: s.State,
		StateSince: s.StateSince, PID: s.PID, Started: s.Started, Continuations: s.Continuations,
		Tokens: s.Tokens, Pending: []Question{}, Waiting: s.Waiting, LastMessage: s.LastMessage, Goal: s.Goal, GoalWords: goalWords(s.Goal)}
	if p := s.Permission; p != nil {
		j.Permission = &Permission{Tool: p.Tool, Command: p.Command}
	}
	for _, q := range s.Pending {
		if p := q.Permission; p != nil {
			j.Pending = append(j.Pending, Question{ID: q.ID, Event: q.Event, AgentID: q.AgentID, Says: present.PermissionAsks(s.Agent, p.Tool, p.Command),
				Asked: q.Asked, Answers: present.PermissionAnswers(p.Always != "", p.DenyReason),
				Permission: &Permission{Tool: p.Tool, Command: p.Command, Always: p.Always, DenyReason: p.DenyReason}})
			continue
		}
		j.Pending = append(j.Pending, Question{ID: q.ID, Event: q.Event, AgentID: q.AgentID,
			Proposal: q.Proposal, Source: q.Source, Says: present.Says(hooks.Decision(q.Proposal), verdictlog.Source(q.Source)), Reason: q.Reason, Asked: q.Asked, Deadline: q.Deadline,
			Answers: present.Answers(s.Agent)})
	}
	return j
}
