package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/engine"
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
// The main agent's Stop verdicts go to stops (nil: nowhere), for --strict.
func printEvents(w, term io.Writer, n notify.Notifier, events <-chan session.Event, stops *lastStop) {
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
			if stops != nil {
				stops.add(e.Verdict)
			}
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

// verdictSummary is the one line for a verdict: the decision the log records and what it did
// to the agent, e.g. "Stop → block: continued (check tests failed) 1/3", "Stop → allow: let
// stop by you (hooksup deny) 1/3"; what the agent and the checks named in it shown visibly.
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
	fmt.Fprintf(&b, " → %s: %s", present.Decision(v.Decision), present.Outcome(v))
	switch {
	case v.Event == hooks.SubagentStop:
		fmt.Fprintf(&b, " %d/%d", v.Steers, v.MaxSteers)
	case v.Goal != nil:
		fmt.Fprintf(&b, " goal turn %d/%d", v.Goal.Turn, v.Goal.MaxTurns)
	default:
		fmt.Fprintf(&b, " %d/%d", v.Continuations, v.MaxContinuations)
	}
	switch {
	case v.Warning != "":
		fmt.Fprintf(&b, " — %s", present.FirstLine(v.Warning))
	case v.Goal != nil && v.Goal.End != "":
		// the goal's end without a warning: reached, or halted
		fmt.Fprintf(&b, " — the goal is %s", engine.GoalWhy(v.Goal, v.Goal.End))
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

// strictExit is a headless run's exit status under --strict ([stop] strict) when the agent
// stopped for the last time with a check failing and exited 0.
const strictExit = 3

// lastStop is what the headless front end keeps of the main agent's stops: the checks that
// still failed when it stopped last.
type lastStop struct {
	turn    int
	failing []string
}

// add takes a verdict in: a Stop's makes its failing checks the session's. When the limit or
// Escape let the agent stop, its checks did not run (or not to their end): those that failed at
// the turn's stop before still fail.
func (l *lastStop) add(v verdictlog.Verdict) {
	if v.Event != hooks.Stop {
		return // a subagent's stop, Escape's entry, the other hooks'
	}
	failing := failingChecks(v)
	if len(failing) == 0 && (v.Source == verdictlog.SourceLimit || v.Source == verdictlog.SourceEscape) && v.Turn == l.turn {
		failing = l.failing
	}
	l.turn, l.failing = v.Turn, failing
}

// failingChecks are the checks that failed at a stop: the one that made the agent continue,
// the one whose block a person (or the timeout, Escape, a vanished hook) turned into a stop,
// and every other that failed, which only warns (retry_on_failure = false, its retries used up).
// A check an interrupt stopped neither passed nor failed.
func failingChecks(v verdictlog.Verdict) []string {
	var names []string
	add := func(n string) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if n, ok := v.Source.Check(); ok {
		add(n)
	}
	if p := v.Proposal; p != nil && p.Decision == hooks.Block {
		if n, ok := p.Source.Check(); ok {
			add(n)
		}
	}
	for _, r := range v.Checks {
		if r.Error != checks.Interrupted && (r.ExitCode != 0 || r.TimedOut || r.Error != "") {
			add(r.Name)
		}
	}
	return names
}

// strictNote says why a strict run exits 3: "the agent stopped with the check lint still
// failing (strict: exit 3)"; "" when its last stop had no check failing.
func (l *lastStop) strictNote() string {
	if len(l.failing) == 0 {
		return ""
	}
	names := make([]string, len(l.failing))
	for i, n := range l.failing {
		names[i] = termsafe.String(n)
	}
	what := "the check " + names[0]
	if len(names) > 1 {
		what = "the checks " + andList(names)
	}
	return fmt.Sprintf("the agent stopped with %s still failing (strict: exit %d)", what, strictExit)
}
