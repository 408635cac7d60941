package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/checks/failure"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// The decision banner: what is asked and what the checks say (wrapped, at most
// bannerHeadRows rows), what failed when the checks pane is hidden (at most bannerDetailRows),
// then the keys and the time left, wrapped between hints so that none is ever cut.
const (
	bannerHeadRows   = 3
	bannerDetailRows = 3
)

// bannerLines lays out the banner for the oldest question in w cells, as text. left is the
// time left as shown; detail asks for what failed (the checks pane is hidden). The rows are
// bounded by maxRows, taken from the headline and the detail first: the hints always show.
// While the reason is edited, the editor's row is inputRow.
func (m model) bannerLines(w, maxRows int, left string, detail bool) (lines []string, inputRow int) {
	q := m.questions[0]
	what := m.name + " wants to stop"
	if q.Event == hooks.SubagentStop {
		what = fmt.Sprintf("subagent %s (%s) wants to stop", termsafe.String(shortID(q.AgentID)), termsafe.String(q.AgentType))
	}
	proposal := present.Proposal(q.Proposal, q.Source)
	switch {
	case q.Source == verdictlog.SourceNoChecks:
	case q.Proposal == hooks.Block:
		proposal += ": " + present.FirstLine(q.Reason)
	case q.Warning != "":
		proposal += ": " + present.FirstLine(q.Warning)
	}
	if n := len(m.questions) - 1; n > 0 {
		proposal += fmt.Sprintf(" (+%d more)", n)
	}

	var tail []string
	if m.editor.open {
		e := m.keys.Editor
		tail = wrapItems([]string{hintText(e.Send), hintText(e.Newline), hintText(e.Clear), hintText(e.Cancel), "esc interrupts " + m.name, left + " left"}, " · ", w)
	} else {
		c := m.keys.Command
		items := []string{m.keys.Prefix.Help().Key + " then " + hintText(c.Approve)}
		for _, b := range []key.Binding{c.Deny, c.Edit, c.Halt} {
			items = append(items, hintText(b))
		}
		tail = wrapItems(append(items, "esc interrupts", left+" left"), " · ", w)
	}

	if m.editor.open {
		if n := m.editor.notice(); n != "" {
			tail = append(wrapIndented("⚠ "+n, w, 2), tail...)
		}
		tail = append(m.editor.rows(), tail...)
	}
	room := max(maxRows-len(tail), 1)
	head := wrapIndented("⚑ "+what+" — "+proposal, w, min(room, bannerHeadRows))
	room -= len(head)
	lines = append(lines, head...)
	if detail && !m.editor.open && q.Proposal == hooks.Block && room > 0 {
		for _, l := range m.whatFailed(q).lines(room) {
			lines = append(lines, fit("   "+l, w))
		}
	}
	return append(lines, tail...), len(head)
}

// wrapIndented wraps s to w cells as banner rows: one space before the first row, three
// before the others (under the text after the flag), at most rows rows, the last cut with an
// ellipsis when s goes on. What s quotes (a check's name: "demo-tests") is never broken, at a
// hyphen or a space, unless it is wider than a row.
func wrapIndented(s string, w, rows int) []string {
	wrapped := strings.Split(wrapQuotesWhole(s, max(w-3, 1)), "\n")
	var out []string
	for i, l := range wrapped {
		indent := "   "
		if i == 0 {
			indent = " "
		}
		if i == rows-1 && i < len(wrapped)-1 {
			out = append(out, ansi.Truncate(indent+l+" "+strings.Join(wrapped[i+1:], " "), w, "…"))
			break
		}
		out = append(out, indent+l)
	}
	return out
}

// Stand-ins that ansi.Wrap does not break at, for the spaces and hyphens of what s quotes.
const (
	noBreakSpace  = "\u00a0"
	noBreakHyphen = "\u2011"
)

// wrapQuotesWhole is ansi.Wrap at spaces and hyphens, but for what s quotes ("…"), which is
// kept on one row: its spaces and hyphens are swapped for stand-ins that do not break (as wide)
// for the wrap, and back after it. A text that holds a stand-in already wraps as ansi.Wrap does,
// so that nothing of it is changed.
func wrapQuotesWhole(s string, w int) string {
	if strings.Contains(s, noBreakSpace) || strings.Contains(s, noBreakHyphen) || strings.Count(s, `"`) < 2 {
		return ansi.Wrap(s, w, " ")
	}
	var b strings.Builder
	quoted := false
	for _, part := range strings.SplitAfter(s, `"`) {
		if quoted {
			part = strings.NewReplacer(" ", noBreakSpace, "-", noBreakHyphen).Replace(part)
		}
		b.WriteString(part)
		quoted = !quoted
	}
	if !quoted { // an odd quote: its text goes on to the end, which is not a name
		return ansi.Wrap(s, w, " ")
	}
	return strings.NewReplacer(noBreakSpace, " ", noBreakHyphen, "-").Replace(ansi.Wrap(b.String(), w, " "))
}

// wrapItems joins items with sep into rows of at most w cells, breaking only between items.
func wrapItems(items []string, sep string, w int) []string {
	var rows []string
	row := ""
	for _, it := range items {
		switch {
		case row == "":
			row = " " + it
		case ansi.StringWidth(row+sep+it) <= w:
			row += sep + it
		default:
			rows = append(rows, row)
			row = " " + it
		}
	}
	rows = append(rows, row)
	for i, r := range rows {
		if ansi.StringWidth(r) > w { // one item wider than the screen
			rows[i] = ansi.Truncate(r, w, "…")
		}
	}
	return rows
}

// whatFailed is what the banner quotes of a block reason where the checks pane is hidden: for
// each number of rows it may have, up to bannerDetailRows, the lines to show. The reason is read
// once, as its question comes (readWhatFailed costs a millisecond on a long reason), not at
// every frame.
type whatFailed [bannerDetailRows][]string

// lines are the lines to show in n rows.
func (wf whatFailed) lines(n int) []string {
	if n <= 0 {
		return nil
	}
	return wf[min(n, bannerDetailRows)-1]
}

// readWhatFailed reads what failed out of a block reason as the reason itself does
// (failure.Read, as engine.BlockReason reads the check's output): the failing tests' names and
// first messages before anything else, the runner's summary after them. In a single row, the
// first failure's first message, which says more than its name ("main_test.go:42: -v did not
// enable verbose output", not "--- FAIL: TestVerboseFlag"). Output in which no failure is
// recognised is quoted as failureLines quotes it.
func readWhatFailed(reason string) whatFailed {
	var wf whatFailed
	r := failure.Read(strings.Join(reasonOutput(reason), "\n"))
	for n := 1; n <= bannerDetailRows; n++ {
		if !r.Found() {
			wf[n-1] = failureLines(reason, n)
			continue
		}
		lines := r.Lines(failure.Budget{Lines: n + 1, Bytes: failure.DefaultBudget.Bytes}) // n lines (one is kept for "… more")
		if n == 1 {
			for _, l := range r.Failures[0].Lines[1:] {
				if strings.TrimSpace(l) != "" {
					lines = []string{l}
					break
				}
			}
		}
		for _, l := range lines {
			if l := strings.TrimSpace(plainLine(l)); l != "" && len(wf[n-1]) < n {
				wf[n-1] = append(wf[n-1], l)
			}
		}
	}
	return wf
}

// whatFailed is what the banner quotes of q's reason: read as q came (event), else now.
func (m model) whatFailed(q session.Question) whatFailed {
	if wf, ok := m.failed[q.ID]; ok {
		return wf
	}
	return readWhatFailed(q.Reason)
}

// reasonOutput are the lines of a block reason that quote the check's output: after its
// heading, and after the command when the reason names it on a line of its own.
func reasonOutput(reason string) []string {
	lines := strings.Split(strings.TrimRight(reason, "\n"), "\n")
	if len(lines) > 0 {
		lines = lines[1:] // the heading, shown already
	}
	if len(lines) > 0 && strings.HasPrefix(lines[0], "$ ") {
		lines = lines[1:] // the command
	}
	return lines
}

// failureLines are n lines of a check's output as its block reason quotes it (the first when it
// quotes what failed, quotesFailures; else the last): what failed, for the banner when the
// checks pane is hidden and for hooksup watch. They are plain text to draw (plainLine). Only the
// lines kept are cleaned (it runs at every frame while a question waits).
func failureLines(reason string, n int) []string {
	lines := reasonOutput(reason)
	extract := quotesFailures(reason)
	var out []string
	if extract {
		// What failed, read from the output: the first failure comes first.
		for i := 0; i < len(lines) && len(out) < n; i++ {
			if l := strings.TrimSpace(plainLine(lines[i])); l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		if l := strings.TrimSpace(plainLine(lines[i])); l != "" {
			out = append([]string{l}, out...)
		}
	}
	return out
}

// quotesFailures reports whether a block reason quotes what failed, read from the check's
// output (session.WhatFailed), rather than the output's end.
func quotesFailures(reason string) bool {
	heading, _, _ := strings.Cut(reason, "\n")
	return strings.Contains(heading, session.WhatFailed)
}

// plainLine is a line of a check's output (or of a reason quoting it) as it is drawn: plain
// text (checks.PlainText: no escape sequence, its controls shown), tabs as spaces, and the bidi
// controls shown visibly too.
func plainLine(l string) string {
	return termsafe.String(strings.ReplaceAll(checks.PlainText([]byte(l)), "\t", "    "))
}

// timeLeft is the time left to answer q at now, as a clock ("4:59"): never more than the
// question's timeout (the first frame may come before the clock caught up with the question),
// never less than zero, counted up to whole seconds. Its width never grows as time passes, so
// the banner's rows are laid out once, with the full timeout.
func timeLeft(q session.Question, now time.Time) string {
	d := q.Deadline.Sub(now)
	if full := q.Deadline.Sub(q.Asked); !q.Asked.IsZero() && d > full {
		d = full
	}
	d = max(d, 0)
	s := int64((d + time.Second - 1) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// bannerRowsFor is the banner's height in the layout of kind: laid out with the time left at
// its widest, the question's whole timeout.
func (m model) bannerRowsFor(kind layoutKind) int {
	if len(m.questions) == 0 {
		return 0
	}
	q, from := m.questions[0], m.now
	if !q.Asked.IsZero() {
		from = q.Asked
	}
	limit := m.h / 3
	if m.editor.open {
		limit = m.h * 2 / 3 // the editor's rows, and the question still above them
	}
	lines, _ := m.bannerLines(m.w, limit, timeLeft(q, from), kind == layoutSolo)
	return len(lines)
}

// banner draws the banner in its rows of the layout.
func (m model) banner() string {
	r := m.lay.banner
	lines, _ := m.bannerLines(r.w, r.h, timeLeft(m.questions[0], m.now), m.lay.kind == layoutSolo)
	out := make([]string, r.h)
	for i := range out {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out[i] = m.st.Banner.Render(fit(l, r.w))
	}
	return strings.Join(out, "\n")
}

// inputRow is the row of the banner the reason editor is on.
func (m model) inputRow() int {
	r := m.lay.banner
	_, row := m.bannerLines(r.w, r.h, timeLeft(m.questions[0], m.now), m.lay.kind == layoutSolo)
	return row
}
