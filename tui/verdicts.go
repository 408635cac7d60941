package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// maxVerdicts bounds the list the pane keeps (the verdict log keeps them all).
const maxVerdicts = 1000

// verdictsPane lists every verdict, newest last; a selected one opens its full reason.
type verdictsPane struct {
	agent    string // the agent's name
	keys     navKeys
	items    []verdictlog.Verdict
	selected int  // index into items; -1 follows the newest
	open     bool // the detail of the selected verdict is shown
	rows     int  // the pane's inner height: a page
}

func newVerdictsPane(k navKeys) verdictsPane {
	return verdictsPane{agent: present.AgentName(""), keys: k, selected: -1}
}

// navigate moves the selection, or opens and closes the selected verdict.
func (p *verdictsPane) navigate(msg tea.KeyPressMsg) {
	switch {
	case key.Matches(msg, p.keys.Up):
		p.move(-1)
	case key.Matches(msg, p.keys.Down):
		p.move(1)
	case key.Matches(msg, p.keys.PageUp):
		p.move(-max(p.rows, 1))
	case key.Matches(msg, p.keys.PageDown):
		p.move(max(p.rows, 1))
	case key.Matches(msg, p.keys.Open):
		p.open = !p.open
		switch {
		case p.open && len(p.items) > 0:
			// The detail stays on this verdict when a newer one arrives: a person reading
			// it is not moved away.
			p.selected = p.cur()
		case !p.open && p.selected == len(p.items)-1:
			p.selected = -1 // closed on the newest: follow the newest again
		}
	}
}

func (p *verdictsPane) event(ev session.Event) {
	switch e := ev.(type) {
	case session.VerdictDecided:
		p.items = append(p.items, trimOutputs(e.Verdict))
		if len(p.items) > maxVerdicts {
			p.items = p.items[len(p.items)-maxVerdicts:]
			if p.selected > 0 {
				p.selected--
			}
		}
	case session.OtherHooksReported:
		// Claude's record of the other hooks at a stop comes after hooksup's verdict on it.
		for i := len(p.items) - 1; i >= 0; i-- {
			if v := &p.items[i]; v.Stop == e.Entry.Stop && v.SessionID == e.Entry.SessionID {
				v.OtherHooks = e.Entry.OtherHooks
				break
			}
		}
	}
}

// detailOutputLines is how much of a check's output the verdict detail keeps (the verdict log
// keeps it all).
const detailOutputLines = 50

// trimOutputs keeps the end of each check's output: the pane holds many verdicts.
func trimOutputs(v verdictlog.Verdict) verdictlog.Verdict {
	checks := make([]verdictlog.CheckRecord, len(v.Checks))
	for i, c := range v.Checks {
		lines := strings.Split(c.Output, "\n")
		if len(lines) > detailOutputLines {
			c.Output = "… (hooksup log --json has the rest)\n" + strings.Join(lines[len(lines)-detailOutputLines:], "\n")
		}
		checks[i] = c
	}
	v.Checks = checks
	return v
}

func (p *verdictsPane) cur() int {
	if p.selected < 0 || p.selected >= len(p.items) {
		return len(p.items) - 1
	}
	return p.selected
}

func (p *verdictsPane) move(d int) {
	if len(p.items) == 0 {
		return
	}
	i := min(max(p.cur()+d, 0), len(p.items)-1)
	p.selected = i
	if i == len(p.items)-1 {
		p.selected = -1
	}
}

func verdictLine(st Styles, v verdictlog.Verdict, w int) string {
	ev := termsafe.String(v.Event)
	if v.AgentID != "" {
		ev = "Sub " + termsafe.String(shortID(v.AgentID))
	}
	// What the verdict did, in the words of the keys that answer a stop ("continued (check
	// tests failed)", "let stop by you (hooksup deny)"): the detail adds what the log records.
	did, why := present.OutcomeParts(v)
	reason := present.FirstLine(v.Reason)
	if reason == "" {
		reason = present.FirstLine(v.Warning)
	}
	line := fmt.Sprintf("%s %-4s %s%s", st.Muted.Render(v.Time.Local().Format("15:04:05")), ev,
		st.decisionStyle(v.Decision).Render(did), st.Accent.Render(why))
	if reason != "" {
		line += " " + st.Muted.Render(reason)
	}
	return fit(line, w)
}

// otherHooksLines are the lines under a verdict's row for the other hooks at its stop: one for
// each that did more than allow (blocked, ended the turn, failed), one for those that allowed.
func otherHooksLines(st Styles, v verdictlog.Verdict, w int) []string {
	var lines, allowed []string
	for _, h := range v.OtherHooks {
		if h.Outcome == hooks.OutcomeSuccess {
			allowed = append(allowed, present.ShortCommand(h.Command))
			continue
		}
		style := st.Warn
		if h.Blocked {
			style = st.Block
		} else if h.Outcome == hooks.OutcomeStopped {
			style = st.Halt
		}
		lines = append(lines, fit(st.Muted.Render("  ↳ ")+style.Render(present.OtherHook(h, true)), w))
	}
	if len(allowed) > 0 {
		lines = append(lines, fit(st.Muted.Render("  ↳ "+strings.Join(allowed, ", ")+" allowed"), w))
	}
	return lines
}

// otherHooksHeight is how many lines otherHooksLines takes.
func otherHooksHeight(v verdictlog.Verdict) int {
	n, allowed := 0, 0
	for _, h := range v.OtherHooks {
		if h.Outcome == hooks.OutcomeSuccess {
			allowed = 1
		} else {
			n++
		}
	}
	return n + allowed
}

// view renders the list (or the open detail) into w×h cells, without the border. Each verdict
// is a row, with the other hooks at its stop under it.
func (p *verdictsPane) view(st Styles, w, h int, focused bool) []string {
	if len(p.items) == 0 {
		return []string{st.Muted.Render("no verdicts yet: each stop of " + p.agent + " is decided here")}
	}
	if p.open {
		return p.detail(st, w, h)
	}
	cur := p.cur()
	// The newest verdicts that fit, or from the selection on when it is above them.
	start, used := len(p.items), 0
	for start > 0 {
		n := 1 + otherHooksHeight(p.items[start-1])
		if used+n > h && used > 0 {
			break
		}
		start--
		used += n
	}
	if cur < start {
		start = cur
	}
	var lines []string
	for i := start; i < len(p.items) && len(lines) < h; i++ {
		l := verdictLine(st, p.items[i], w)
		more := otherHooksLines(st, p.items[i], w)
		if focused && i == cur {
			// The selection's colours over the whole row: the parts' own colours would end it
			// at their first reset.
			l = st.Selected.Render(ansi.Strip(l))
			for j := range more {
				more[j] = st.Selected.Render(ansi.Strip(more[j]))
			}
		}
		lines = append(lines, l)
		lines = append(lines, more...)
	}
	return lines[:min(len(lines), h)]
}

// detail is the selected verdict in full. A figure and its unit ("12 ms", "exit 1") are joined
// by a no-break space while the rows are wrapped, so they stay on one row, then drawn as a space.
func (p *verdictsPane) detail(st Styles, w, h int) []string {
	v := p.items[p.cur()]
	var lines []string
	add := func(s string) {
		for _, l := range wrapText(s, w) {
			lines = append(lines, strings.ReplaceAll(l, "\u00a0", " "))
		}
	}
	// Text from outside hooksup (the agent's ids, a check's name and output, a reason, a hook's
	// command) is drawn a line at a time as plain text, its controls shown.
	addLines := func(prefix, text string) {
		for _, l := range strings.Split(text, "\n") {
			if l != "" {
				add(prefix + plainLine(l))
			}
		}
	}
	safe := termsafe.String
	add(fmt.Sprintf("%s  %s  turn\u00a0%d", v.Time.Local().Format("15:04:05"), safe(v.Event), v.Turn))
	if v.AgentID != "" {
		add(fmt.Sprintf("agent %s (%s) · steers\u00a0%d/%d", safe(v.AgentID), safe(v.AgentType), v.Steers, v.MaxSteers))
	}
	did, why := present.OutcomeParts(v)
	add(st.decisionStyle(v.Decision).Render(did) + st.Accent.Render(why) + st.Muted.Render(" · "+present.Logged(v.Decision)) +
		fmt.Sprintf(" · continuations\u00a0%d/%d · session\u00a0%d · %.0f\u00a0ms", v.Continuations, v.MaxContinuations, v.SessionContinuations, v.LatencyMS))
	switch present.OtherHooksEffect(v.OtherHooks) {
	case present.EffectContinued:
		add(st.Block.Render(p.agent + " continued: another hook blocked (see below)"))
	case present.EffectEnded:
		add(st.Halt.Render("the turn ended: another hook ended it (see below)"))
	}
	for _, c := range v.Checks {
		status := st.CheckPass.Render("✓")
		if c.ExitCode != 0 || c.TimedOut || c.Error != "" {
			status = st.CheckFail.Render("✗")
		}
		add(fmt.Sprintf("%s %s exit\u00a0%d in\u00a0%.0f\u00a0ms%s %s", status, safe(c.Name), c.ExitCode, c.DurationMS, present.CheckLeftRunning(c.LeftRunning), safe(c.Error)))
		addLines(st.Muted.Render("  │ "), c.Output)
	}
	if v.Warning != "" {
		for _, l := range strings.Split(v.Warning, "\n") {
			add(st.Warn.Render(safe(l)))
		}
	}
	if v.Reason != "" {
		add(st.Muted.Render("reason " + p.agent + " read:"))
		for i, l := range strings.Split(v.Reason, "\n") {
			if i == 0 || strings.HasPrefix(l, "$ ") {
				// hooksup's heading and the command line quote the check's command as it is:
				// shown visibly (a carriage return in it hides nothing), as the banner shows it.
				add(safe(l))
				continue
			}
			add(plainLine(l))
		}
	}
	if len(v.OtherHooks) > 0 {
		add(st.Muted.Render("other hooks at this stop:"))
		for _, o := range v.OtherHooks {
			style := st.Allow
			switch {
			case o.Blocked:
				style = st.Block
			case o.Outcome == hooks.OutcomeStopped:
				style = st.Halt
			case o.Outcome != hooks.OutcomeSuccess:
				style = st.Warn
			}
			var facts []string
			if o.ExitCode != nil {
				facts = append(facts, fmt.Sprintf("exit\u00a0%d", *o.ExitCode))
			}
			if o.DurationMS > 0 {
				facts = append(facts, fmt.Sprintf("%.0f\u00a0ms", o.DurationMS))
			}
			line := style.Render(present.OtherHookOutcome(o)) + " " + safe(o.Command)
			if len(facts) > 0 {
				line += st.Muted.Render(" (" + strings.Join(facts, " · ") + ")")
			}
			add(line)
			if o.Outcome != hooks.OutcomeSuccess {
				addLines(st.Muted.Render("  │ "), o.Reason)
			}
		}
	}
	if len(lines) > h {
		lines = append(lines[:h-1], st.Muted.Render("… (hooksup log shows it all)"))
	}
	return lines
}
