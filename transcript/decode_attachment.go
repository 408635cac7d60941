package transcript

import (
	"strings"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/session"
)

func (d *decoder) attachment(f *top, r *Record) bool {
	m, ok := object(f.attachment)
	if !ok {
		r.Kind = KindOther
		return true
	}
	var a struct {
		typ, hookName, hookEvent, toolUseID, command, durationMs, exitCode, stdout, stderr,
		content, blocking, message, timedOut, identity []byte
	}
	for {
		k, v, ok := m.next()
		if !ok {
			break
		}
		switch string(k) {
		case "type":
			a.typ = v
		case "hookName":
			a.hookName = v
		case "hookEvent":
			a.hookEvent = v
		case "toolUseID":
			a.toolUseID = v
		case "command":
			a.command = v
		case "durationMs":
			a.durationMs = v
		case "exitCode":
			a.exitCode = v
		case "stdout":
			a.stdout = v
		case "stderr":
			a.stderr = v
		case "content":
			a.content = v
		case "blockingError":
			a.blocking = v
		case "message":
			a.message = v
		case "timedOut":
			a.timedOut = v
		case "identity":
			a.identity = v
		}
	}
	if m.err {
		return false
	}
	if rawEquals(a.typ, "model") {
		r.Kind = KindModel
		if id, ok := object(a.identity); ok {
			for {
				k, v, ok := id.next()
				if !ok {
					break
				}
				if string(k) == "modelId" {
					r.Model = d.name(v)
				}
			}
		}
		return true
	}
	var h session.HookOutcome
	switch {
	case rawEquals(a.typ, "hook_success"):
		h.Outcome = hooks.OutcomeSuccess
		h.Message = d.hookText(a.content, a.stdout)
	case rawEquals(a.typ, "hook_blocking_error"):
		h.Outcome = hooks.OutcomeBlocked
		if b, ok := object(a.blocking); ok {
			for {
				k, v, ok := b.next()
				if !ok {
					break
				}
				switch string(k) {
				case "blockingError":
					h.Message = d.text(v, d.maxText)
				case "command":
					a.command = v
				}
			}
		} else if isString(a.blocking) {
			h.Message = d.text(a.blocking, d.maxText)
		}
	case rawEquals(a.typ, "hook_non_blocking_error"), rawEquals(a.typ, "hook_error_during_execution"):
		h.Outcome = hooks.OutcomeError
		h.Message = d.hookText(a.stderr, a.content)
	case rawEquals(a.typ, "hook_cancelled"):
		h.Outcome = hooks.OutcomeCancelled
		h.TimedOut = boolValue(a.timedOut)
	case rawEquals(a.typ, "hook_stopped_continuation"):
		h.Outcome = hooks.OutcomeStopped
		h.Message = d.text(a.message, d.maxText)
	default:
		r.Kind = KindOther
		return true
	}
	r.Kind = KindHook
	h.Time = r.Time
	h.Event = d.name(a.hookEvent)
	if h.Event == "" {
		h.Event = d.name(a.hookName)
	}
	h.Command = d.text(a.command, d.maxText)
	h.InvocationID = d.name(a.toolUseID)
	ms, _ := intValue(a.durationMs)
	h.Duration = time.Duration(ms) * time.Millisecond
	h.ExitCode = -1
	if n, ok := intValue(a.exitCode); ok {
		h.ExitCode = int(n)
	}
	r.Hooks = []session.HookOutcome{h}
	return true
}

// hookText returns the first non-blank of the given JSON strings, trimmed.
func (d *decoder) hookText(raws ...[]byte) string {
	for _, raw := range raws {
		if t := strings.TrimSpace(d.text(raw, d.maxText)); t != "" {
			return t
		}
	}
	return ""
}
