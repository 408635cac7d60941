package supervisor

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/session"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/transcript"
	"github.com/hooksup/hooksup/verdictlog"
)

// stopHooks ties what claude recorded of the other hooks at a stop (its stop_hook_summary,
// written once every hook of the stop has run, so after hooksup's verdict) to the verdict on
// that stop.
type stopHooks struct {
	mu     sync.Mutex
	recent map[string][]verdictlog.Verdict // by agent id ("" for the main agent): the latest verdicts, oldest first
	agents []string                        // the keys of recent, least recently decided first
	told   map[int]bool                    // the stops whose other hooks are recorded
}

// maxRecentStops bounds how many verdicts per agent wait for their summary, and
// maxRecentAgents how many agents (a session may run thousands of subagents one after another):
// the agent whose last stop is the oldest is forgotten first.
const (
	maxRecentStops  = 16
	maxRecentAgents = 64
)

func newStopHooks() *stopHooks {
	return &stopHooks{recent: map[string][]verdictlog.Verdict{}, told: map[int]bool{}}
}

// verdict remembers a decided stop.
func (h *stopHooks) verdict(v verdictlog.Verdict) {
	if v.Stop == 0 || (v.Event != hooks.Stop && v.Event != hooks.SubagentStop) {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	key := v.AgentID
	if v.Event == hooks.Stop {
		key = ""
	}
	list := append(h.recent[key], v)
	if len(list) > maxRecentStops {
		delete(h.told, list[0].Stop)
		list = list[1:]
	}
	h.recent[key] = list
	if i := slices.Index(h.agents, key); i >= 0 {
		h.agents = slices.Delete(h.agents, i, i+1)
	}
	h.agents = append(h.agents, key)
	if len(h.agents) > maxRecentAgents {
		old := h.agents[0]
		h.agents = slices.Delete(h.agents, 0, 1)
		for _, v := range h.recent[old] {
			delete(h.told, v.Stop)
		}
		delete(h.recent, old)
	}
}

// summary turns the hooks of a stop_hook_summary line from the transcript of agentID ("" the
// main agent) into the OtherHooks entry for the verdict it belongs to: the latest verdict of
// that agent decided before the line was written. latest says no later stop of that agent has
// been decided since. ok is false when the line names no other hook, or no verdict is waiting
// for it.
func (h *stopHooks) summary(agentID string, r transcript.Record, now time.Time) (entry verdictlog.Verdict, latest, ok bool) {
	event := hooks.Stop
	if agentID != "" {
		event = hooks.SubagentStop
	}
	var others []verdictlog.OtherHook
	for _, o := range r.Hooks {
		if o.Event == event {
			others = append(others, otherHook(o))
		}
	}
	if len(others) == 0 {
		return verdictlog.Verdict{}, false, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	list := h.recent[agentID]
	i := len(list) - 1
	if !r.Time.IsZero() {
		// The line is written after the verdict; its time has milliseconds only.
		for i >= 0 && list[i].Time.After(r.Time.Add(time.Millisecond)) {
			i--
		}
	}
	if i < 0 || h.told[list[i].Stop] {
		return verdictlog.Verdict{}, false, false
	}
	v := list[i]
	h.told[v.Stop] = true
	return otherHooksEntry(v, others, now), i == len(list)-1, true
}

// joined turns the prompt an agent continues the main agent's turn with after a stop, the
// reasons of the Stop hooks that blocked joined into one (agent.JoinedStopReasons), into the
// OtherHooks entry for the latest stop decided: what said finds in it besides hooksup's own
// reason as the agent received it (sent, "" when hooksup let it stop). ok is false when the
// other hooks said nothing, or that stop has its entry already.
func (h *stopHooks) joined(said func(sent string) string, now time.Time) (entry verdictlog.Verdict, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	list := h.recent[""]
	if len(list) == 0 || h.told[list[len(list)-1].Stop] {
		return verdictlog.Verdict{}, false
	}
	v := list[len(list)-1]
	sent := ""
	if v.Decision == hooks.Block {
		sent = hooks.Answer{Decision: hooks.Block, Reason: v.Reason}.SentReason()
	}
	reason := oneText(said(sent))
	if reason == "" {
		return verdictlog.Verdict{}, false
	}
	h.told[v.Stop] = true
	// The agent names no hook in the prompt: the entry has one, unnamed, that blocked.
	others := []verdictlog.OtherHook{{Outcome: hooks.OutcomeBlocked, Blocked: true, Reason: reason}}
	return otherHooksEntry(v, others, now), true
}

// otherHooksEntry is the OtherHooks entry of the verdict v for what others did at its stop.
func otherHooksEntry(v verdictlog.Verdict, others []verdictlog.OtherHook, now time.Time) verdictlog.Verdict {
	entry := verdictlog.Verdict{
		Time: now, SessionID: v.SessionID, Event: verdictlog.EventOtherHooks, AgentID: v.AgentID, AgentType: v.AgentType,
		Turn: v.Turn, Stop: v.Stop, Decision: hooks.Allow, Source: verdictlog.SourceOtherHooks, StopHookActive: v.StopHookActive,
		Continuations: v.Continuations, MaxContinuations: v.MaxContinuations, SessionContinuations: v.SessionContinuations,
		Steers: v.Steers, MaxSteers: v.MaxSteers, OtherHooks: others,
	}
	for _, o := range others {
		switch {
		case o.Outcome == hooks.OutcomeStopped:
			entry.Decision = hooks.Halt
		case o.Blocked && entry.Decision == hooks.Allow:
			entry.Decision = hooks.Block
		}
	}
	return entry
}

func otherHook(o session.HookOutcome) verdictlog.OtherHook {
	h := verdictlog.OtherHook{Command: oneText(o.Command), Outcome: o.Outcome, Blocked: o.Outcome == hooks.OutcomeBlocked,
		Reason: oneText(o.Message), DurationMS: checks.Millis(o.Duration), TimedOut: o.TimedOut}
	if o.ExitCode >= 0 {
		code := o.ExitCode
		h.ExitCode = &code
	}
	return h
}

// isStopHookSummary says whether a transcript record is a stop_hook_summary line, the last
// record claude writes of a stop's hooks (attachments of the same run come before it and are
// merged into it).
func isStopHookSummary(r transcript.Record) bool {
	return r.Kind == transcript.KindHook && r.Type == "system"
}

// oneText is what another hook said, as plain text (a hook may print colours), trimmed.
func oneText(s string) string { return strings.TrimSpace(checks.PlainText([]byte(s))) }
