package web

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// GoalWords is a session's goal in the words of the TUI's header and hooksup watch's card, for
// the page's card (Session.GoalWords). Each is text, never markup; the goal's text is the
// person's, the failure the checks'.
type GoalWords struct {
	Text string `json:"text"`           // the goal's text (its first 500 characters)
	Turn string `json:"turn,omitempty"` // "goal turn 2/20", while it goes on
	// Time and Tokens are the goal's against their budgets, where it has one: "4m/3h",
	// "12.3k/200.0k tokens".
	Time   string `json:"time,omitempty"`
	Tokens string `json:"tokens,omitempty"`
	// Failed is the first line of what failed last: "done exit 1: FAIL TestLogin".
	Failed string `json:"failed,omitempty"`
	// End is how it ended, once it did: "reached after 2 turns", "ended: its budget of turns
	// (20) ran out", "ended: no progress: …", "ended: paused: …", "ended: halted".
	End string `json:"end,omitempty"`
	// Resumable: it ended out of budget, paused or for no progress, and POST
	// /api/sessions/{id}/goal/resume gives it a larger budget.
	Resumable bool `json:"resumable,omitempty"`
}

// goalWords is g in the page's words (nil outside goal mode).
func goalWords(g *verdictlog.Goal) *GoalWords {
	if g == nil {
		return nil
	}
	w := &GoalWords{Text: g.Text, Failed: present.GoalRecordFailure(g)}
	w.Time, w.Tokens = present.GoalBudgets(g)
	if g.End == "" {
		w.Turn = fmt.Sprintf("goal turn %d/%d", g.Turn, g.MaxTurns)
		return w
	}
	w.End = "goal " + present.GoalEnd(g)
	w.Resumable = present.GoalResumable(g)
	if g.End.Reached() {
		w.Failed = ""
	}
	return w
}

// goalResumeBody is POST /api/sessions/{id}/goal/resume's body: the goal's new budget, each left
// out (or 0) keeping its own; max_time a duration ("5h", "90m").
type goalResumeBody struct {
	MaxTurns  int    `json:"max_turns"`
	MaxTime   string `json:"max_time"`
	MaxTokens int    `json:"max_tokens"`
}

// goalResumer is a hub.Sessions that resumes a session's goal (hub.MultiHost does).
type goalResumer interface {
	ResumeGoal(l hub.Live, b session.GoalBudget) error
}

// resumeGoal is POST /api/sessions/{id}/goal/resume[?host=HOST]: the session's goal, ended out
// of budget, paused or for no progress, goes on with the larger budget given, as `hooksup goal
// resume` does it; the session types the goal's next turn into the agent's prompt. 409 when the
// session has no goal to resume, or says why it does not resume it.
func (s *Server) resumeGoal(w http.ResponseWriter, r *http.Request) {
	id, host := r.PathValue("id"), r.URL.Query().Get("host")
	var body goalResumeBody
	const want = `{"max_turns": N, "max_time": "5h", "max_tokens": N} (one or more)`
	if !decodeSmall(w, r, &body, want) {
		return
	}
	var b session.GoalBudget
	b.MaxTurns, b.MaxTokens = body.MaxTurns, body.MaxTokens
	if t := strings.TrimSpace(body.MaxTime); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil {
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("max_time %q is not a duration (5h, 90m)", t))
			return
		}
		b.MaxTime = d
	}
	switch {
	case b.MaxTurns < 0 || b.MaxTokens < 0 || b.MaxTime < 0:
		writeError(w, http.StatusBadRequest, "bad_request", "a budget must be more than 0")
		return
	case b.MaxTurns == 0 && b.MaxTokens == 0 && b.MaxTime == 0:
		writeError(w, http.StatusBadRequest, "bad_request", "give the goal a larger budget: "+want)
		return
	}
	target, name, ok := s.find(w, id, host)
	if !ok {
		return
	}
	g := target.Snapshot.Goal
	switch {
	case g == nil:
		writeError(w, http.StatusConflict, "no_goal", name+" has no goal")
		return
	case !present.GoalResumable(g):
		state := "is under way"
		if g.End != "" {
			state = present.GoalEnd(g)
		}
		writeError(w, http.StatusConflict, "goal", fmt.Sprintf("the goal of %s %s: only a goal out of budget, paused or without progress resumes", name, state))
		return
	}
	gr, ok := s.hub.(goalResumer)
	if !ok {
		writeError(w, http.StatusNotImplemented, "goal", "this server resumes no goal")
		return
	}
	if err := gr.ResumeGoal(target, b); err != nil {
		writeError(w, http.StatusConflict, "goal", fmt.Sprintf("%s: %v", name, err))
		return
	}
	writeJSON(w, http.StatusOK, actionResult{Message: "resumed the goal of " + name + ": its next turn is typed into the agent's prompt"})
}

// goalEnded pushes a goal's end that a person may want to hear of — reached, out of budget,
// without progress, paused (KindDone, PushPayload.Goal naming the end) — once per session and
// turn. A goal halted was ended by a person; one capped in the TUI goes on.
func (s *Server) goalEnded(host, id string, ev hub.Event) {
	e, err := hub.DecodeEvent(ev)
	if err != nil {
		return
	}
	v, ok := e.(session.VerdictDecided)
	if !ok || v.Verdict.Goal == nil {
		return
	}
	g := v.Verdict.Goal
	switch g.End {
	case verdictlog.GoalReached, verdictlog.GoalBudget, verdictlog.GoalNoProgress, verdictlog.GoalPaused:
	default:
		return
	}
	if !s.push.once(fmt.Sprintf("%s\x00%s\x00goal %d %s", host, id, g.Turn, g.End)) {
		return
	}
	if s.store == nil {
		return
	}
	s.push.wg.Go(func() { s.pushAll(host, id, PushPayload{ID: id, Host: host, Kind: KindDone, Goal: string(g.End)}) })
}
