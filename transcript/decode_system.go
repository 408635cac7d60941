package transcript

import (
	"strings"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
)

func (d *decoder) system(f *top, r *Record) bool {
	switch {
	case rawEquals(f.subtype, "turn_duration"):
		r.Kind = KindTurnDuration
		ms, _ := intValue(f.durationMs)
		r.Duration = time.Duration(ms) * time.Millisecond
		n, _ := intValue(f.messageCount)
		r.MessageCount = int(n)
	case rawEquals(f.subtype, "stop_hook_summary"):
		r.Kind = KindHook
		return d.stopHookSummary(f, r)
	case rawEquals(f.subtype, "compact_boundary"):
		r.Kind = KindCompaction
		c := &session.Compaction{Time: r.Time}
		if m, ok := object(f.compactMeta); ok {
			for {
				k, v, ok := m.next()
				if !ok {
					break
				}
				switch string(k) {
				case "trigger":
					c.Trigger = d.name(v)
				case "preTokens":
					c.PreTokens, _ = intValue(v)
				case "postTokens":
					c.PostTokens, _ = intValue(v)
				case "durationMs":
					ms, _ := intValue(v)
					c.Duration = time.Duration(ms) * time.Millisecond
				}
			}
			if m.err {
				return false
			}
		}
		r.Compaction = c
	case rawEquals(f.subtype, "informational"):
		r.Kind = KindInformational
		r.Text = d.text(f.content, d.maxText)
		r.Level = d.name(f.level)
	case rawEquals(f.subtype, "api_error"):
		r.Kind = KindAPIError
		e := &session.APIError{}
		if isString(f.errorField) {
			e.Code = d.name(f.errorField)
		} else {
			d.errorObject(f.errorField, e, 0)
		}
		if n, ok := intValue(f.retryAttempt); ok {
			e.Retry = int(n)
		}
		if e.Message == "" {
			e.Message = d.text(f.content, d.maxText)
		}
		r.APIError = e
	default:
		r.Kind = KindOther
	}
	return true
}

// stopHookSummary turns a stop_hook_summary line into one outcome per hook that ran.
func (d *decoder) stopHookSummary(f *top, r *Record) bool {
	inv := d.name(f.toolUseID)
	event := "Stop" // the summary does not name its event; subagent lines carry agentId
	if f.agentID != nil {
		event = "SubagentStop"
	}
	if a, ok := array(f.hookInfos); ok {
		for {
			_, el, ok := a.next()
			if !ok {
				break
			}
			h := session.HookOutcome{Time: r.Time, Event: event, Outcome: hooks.OutcomeSuccess, InvocationID: inv, ExitCode: -1}
			if m, ok := object(el); ok {
				for {
					k, v, ok := m.next()
					if !ok {
						break
					}
					switch string(k) {
					case "command":
						h.Command = d.text(v, d.maxText)
					case "durationMs":
						ms, _ := intValue(v)
						h.Duration = time.Duration(ms) * time.Millisecond
					}
				}
				if m.err {
					return false
				}
			}
			r.Hooks = append(r.Hooks, h)
		}
		if a.err {
			return false
		}
	}
	failed := map[int]bool{}
	if a, ok := array(f.failedIdx); ok {
		for {
			_, el, ok := a.next()
			if !ok {
				break
			}
			if n, ok := intValue(el); ok {
				failed[int(n)] = true
			}
		}
	}
	if a, ok := array(f.hookErrors); ok {
		for i := 0; ; i++ {
			_, el, ok := a.next()
			if !ok {
				break
			}
			msg := d.text(el, d.maxText)
			outcome := hooks.OutcomeBlocked
			if failed[i] {
				outcome = hooks.OutcomeError
			}
			j := -1
			for k := range r.Hooks {
				if c := r.Hooks[k].Command; c != "" && strings.HasPrefix(msg, "["+c+"]: ") {
					j = k
					msg = msg[len(c)+4:]
					break
				}
			}
			if j < 0 && len(r.Hooks) == 1 {
				j = 0
			}
			if j < 0 {
				r.Hooks = append(r.Hooks, session.HookOutcome{Time: r.Time, Event: event, InvocationID: inv, ExitCode: -1})
				j = len(r.Hooks) - 1
			}
			r.Hooks[j].Outcome = outcome
			r.Hooks[j].Message = strings.TrimSpace(msg)
		}
		if a.err {
			return false
		}
	}
	if boolValue(f.prevented) {
		reason := strings.TrimSpace(d.text(f.stopReason, d.maxText))
		if len(r.Hooks) == 1 {
			r.Hooks[0].Outcome = hooks.OutcomeStopped
			if reason != "" {
				r.Hooks[0].Message = reason
			}
		} else {
			r.Hooks = append(r.Hooks, session.HookOutcome{Time: r.Time, Event: event, Outcome: hooks.OutcomeStopped, Message: reason, InvocationID: inv, ExitCode: -1})
		}
	}
	return true
}
