package main

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/notify"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// printEvents is the headless front end: one line per verdict and notice on w, until the
// events end. When hooksup has a terminal, term (nil otherwise) gets what [notifications] asks
// for: the bell or a desktop notification, which n carries through the terminal or the
// system's notifier (the bell if that fails); a nudge, which only the TUI can type into claude,
// rings the bell.
func printEvents(w, term io.Writer, n notify.Notifier, events <-chan session.Event) {
	// A notification the system's notifier is still showing when the events end is waited for
	// (a few seconds at most), so the last one before claude exits is not lost.
	var sending sync.WaitGroup
	defer sending.Wait()
	for ev := range events {
		switch e := ev.(type) {
		case session.Alert:
			if term == nil {
				continue
			}
			if e.Action == session.ActionNudge {
				e.Action = session.ActionBell
			}
			seq, send := present.Alert(e, n)
			if seq != "" {
				io.WriteString(term, seq)
			}
			if send != nil {
				sending.Go(func() {
					if send() != nil {
						io.WriteString(term, "\a")
					}
				})
			}
		case session.VerdictDecided:
			fmt.Fprintf(w, "hooksup: %s\n", verdictSummary(e.Verdict))
		case session.OtherHooksReported:
			for _, l := range otherHooksLines(e.Entry, true) {
				fmt.Fprintf(w, "hooksup: %s\n", l)
			}
		case session.Notice:
			if e.Level != session.NoticeInfo {
				fmt.Fprintf(w, "hooksup: %s\n", termsafe.Text(e.Text))
			}
		case session.Interrupted:
			fmt.Fprintf(w, "hooksup: interrupted (turn %d): further stops this turn are allowed\n", e.Turn)
		case session.SessionSummary:
			fmt.Fprintf(w, "hooksup: %s\n", present.SessionLine(e.Summary))
		}
	}
}

// verdictSummary is the one line for a verdict, e.g. "Stop → block (check tests) 1/3", what
// the agent and the checks named in it shown visibly.
func verdictSummary(v verdictlog.Verdict) string {
	var b strings.Builder
	b.WriteString(termsafe.String(v.Event))
	if v.AgentID != "" {
		fmt.Fprintf(&b, " [%s", termsafe.String(v.AgentID))
		if v.AgentType != "" {
			fmt.Fprintf(&b, " %s", termsafe.String(v.AgentType))
		}
		b.WriteString("]")
	}
	fmt.Fprintf(&b, " → %s (%s)", present.Decision(v.Decision), present.Source(v.Source))
	if v.Event == hooks.SubagentStop {
		fmt.Fprintf(&b, " %d/%d", v.Steers, v.MaxSteers)
	} else {
		fmt.Fprintf(&b, " %d/%d", v.Continuations, v.MaxContinuations)
	}
	if v.Warning != "" {
		fmt.Fprintf(&b, " — %s", present.FirstLine(v.Warning))
	}
	return b.String()
}

// otherHooksLines words an OtherHooks entry: what the other hooks at a stop did, one line each,
// e.g. "Stop: other hook /home/u/check.sh blocked: update the changelog (claude continued)".
func otherHooksLines(e verdictlog.Verdict, short bool) []string {
	stop := hooks.Stop
	if e.AgentID != "" {
		stop = hooks.SubagentStop + " [" + termsafe.String(e.AgentID) + "]"
	}
	effect := present.OtherHooksEffect(e.OtherHooks).Words(e.Agent)
	var out []string
	for _, h := range e.OtherHooks {
		l := stop + ": other hook " + present.OtherHook(h, short)
		if effect != "" && (h.Blocked || h.Outcome == hooks.OutcomeStopped) {
			l += " (" + effect + ")"
		}
		out = append(out, l)
	}
	return out
}
