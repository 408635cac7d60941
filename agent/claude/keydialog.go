package claude

import (
	"slices"
	"strings"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/session"
)

// Claude Code on its auto mode asks with a dialog of its own that no hook fires for or can
// answer (offline, "Auto mode can't check actions in this session, so this one needs your
// approval"; the server's check, when it flags a call, asks the same way): the call's frame, the
// command between two dashed rules, "Do you want to proceed?" and two unnumbered options, No
// (selected when drawn) and Yes. Digits do nothing there and Enter denies: Yes is selected
// before Enter. Tab on No opens a field for the model's feedback in No's place ("No, " and what
// is typed, "and tell Claude what to do differently" while empty): Enter then refuses the call
// with it, and the turn goes on. Its numbered dialogs ("❯ 1. Yes") are the ones its
// PermissionRequest hook answers, and are not read here.

const (
	proceedQuestion = "Do you want to proceed?"
	dashedRule      = '╌'
	boxRule         = '─'
	selectedMark    = "❯"
	// noField begins No's label while the feedback is typed in its place; noPlaceholder is
	// what it shows while empty.
	noField       = "No, "
	noPlaceholder = "and tell Claude what to do differently"
)

// KeyDialog reads claude's No/Yes permission dialog on screen (agent.KeyPermissions).
func (Agent) KeyDialog(screen []string) (agent.KeyDialog, bool) {
	q := -1
	for i := len(screen) - 1; i >= 0; i-- {
		if strings.TrimSpace(screen[i]) == proceedQuestion {
			q = i
			break
		}
	}
	if q < 0 {
		return agent.KeyDialog{}, false
	}
	// The options: No and Yes, unnumbered, one of them selected (No perhaps with feedback
	// typed in its place, wrapped onto the rows below it); then the hint.
	var labels []string
	selected, no := -1, -1
	var field string
	for _, row := range screen[q+1:] {
		l := strings.TrimSpace(row)
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "Esc to cancel") {
			break
		}
		mark := false
		if rest, ok := strings.CutPrefix(l, selectedMark); ok {
			mark, l = true, strings.TrimSpace(rest)
		}
		switch {
		case !mark && no >= 0 && no == len(labels)-1 && strings.HasPrefix(labels[no], noField) && l != "Yes":
			labels[no] += " " + l
			field += " " + l
			continue
		case l == "No" || strings.HasPrefix(l, noField):
			no = len(labels)
			field, _ = strings.CutPrefix(l, noField)
		}
		if mark {
			selected = len(labels)
		}
		labels = append(labels, l)
	}
	yes := slices.Index(labels, "Yes")
	if len(labels) != 2 || yes < 0 || no < 0 || selected < 0 {
		return agent.KeyDialog{}, false
	}
	// The command: between the two dashed rules above the question.
	r2 := -1
	for i := q - 1; i >= max(0, q-8); i-- {
		if isRule(screen[i], dashedRule) {
			r2 = i
			break
		}
	}
	if r2 < 1 {
		return agent.KeyDialog{}, false
	}
	r1 := -1
	for i := r2 - 1; i >= 0; i-- {
		if isRule(screen[i], dashedRule) {
			r1 = i
			break
		}
	}
	if r1 < 0 || r1 == r2-1 {
		return agent.KeyDialog{}, false
	}
	rows := make([]string, 0, r2-r1-1)
	for _, row := range screen[r1+1 : r2] {
		rows = append(rows, strings.TrimSpace(row))
	}
	// The tool: the frame's title, the first row under its solid rule ("Bash command").
	tool := ""
	for i := r1 - 1; i >= max(0, r1-8); i-- {
		if isRule(screen[i], boxRule) {
			if i+1 < r1 {
				tool = strings.TrimSpace(screen[i+1])
			}
			break
		}
	}
	if t, ok := strings.CutSuffix(tool, " command"); ok {
		tool = t
	}
	if tool == "" {
		return agent.KeyDialog{}, false
	}
	d := agent.KeyDialog{Tool: tool, Command: strings.Join(rows, "\n"), Deny: []string{"Escape"}}
	d.Allow = agent.SelectKeys(selected+1, yes+1)
	d.Typing = labels[no] != "No"
	d.DenyWith = feedbackKeys(selected, no, d.Typing, field)
	return d, true
}

// feedbackKeys are the keys that refuse the call with reason (agent.KeyDialog.DenyWith), from
// the dialog drawn with option selected, No at no, its feedback field open or not and holding
// field: No selected, Tab, the reason typed, then Enter once the field shows it.
func feedbackKeys(selected, no int, open bool, field string) func(reason string) []string {
	return func(reason string) []string {
		if !open {
			keys := agent.SelectKeys(selected+1, no+1)
			return append(keys[:len(keys)-1], "Tab", session.Typed(reason), "Enter")
		}
		// Compared without blanks: a long field wraps onto the rows below.
		typed, want := squash(field), squash(reason)
		switch {
		case field == noPlaceholder || typed != want && strings.HasPrefix(want, typed):
			return []string{session.Typed(reason), "Enter"}
		case typed == want:
			return []string{"Enter"}
		}
		return nil // the field holds other words: the person's
	}
}

// squash is s without its blanks.
func squash(s string) string { return strings.Join(strings.Fields(s), "") }

// isRule reports a row drawn of r alone (and blanks), at least a few of them.
func isRule(row string, r rune) bool {
	l := strings.TrimSpace(row)
	return strings.Count(l, string(r)) >= 3 && strings.Trim(l, string(r)) == ""
}
