package copilot

import (
	"regexp"
	"strings"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/session"
)

// Copilot CLI asks before a shell command runs (on its default settings; `touch created.txt`,
// say) with a dialog that no hook can answer beside it: its permissionRequest hook (and
// preToolUse) runs before the dialog, which is drawn only once the hook has returned, and its
// notification hook's answer is ignored. The dialog is a box: the call's description, the
// command in a box of its own, "Do you want to run this command?" and the numbered options
// "1. Yes" (selected when drawn), "2. Yes, and don't ask again for …", "3. No, and tell Copilot
// what to do differently (Esc to stop)", then "↑/↓ to navigate · enter to select · esc to
// cancel". Enter takes the selected option; a digit takes its option at once, except while the
// third is selected: what is typed then is the feedback for the model, shown in its place.
// Escape cancels the call and ends the turn (the model is told the call was interrupted).

const (
	// runQuestion asks about a shell command; copilot shows the call as "$ Shell …".
	runQuestion = "Do you want to run this command?"
	runTool     = "Shell"
	dialogKeys  = "↑/↓ to navigate"
)

var (
	copilotOption = regexp.MustCompile(`^(❯\s*)?(\d)\. (.+)$`)
	// alwaysOption is the second option: what it allows from now on.
	alwaysOption = regexp.MustCompile(`^Yes, and don't ask again for (.+ in this directory) \((.+)\)$`)
)

// KeyDialog reads copilot's permission dialog for a shell command on screen
// (agent.KeyPermissions).
func (Agent) KeyDialog(screen []string) (agent.KeyDialog, bool) {
	rows := make([]string, len(screen))
	for i, r := range screen {
		rows[i] = strings.TrimSpace(unbox(r))
	}
	q := -1
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i] == runQuestion {
			q = i
			break
		}
	}
	if q < 0 {
		return agent.KeyDialog{}, false
	}
	// The options, "1. Yes" among them and one selected, each perhaps wrapped onto the rows
	// below it; then the line of keys.
	var labels []string
	selected, yes, keys := 0, false, false
	for _, r := range rows[q+1:] {
		if r == "" {
			continue
		}
		if strings.HasPrefix(r, dialogKeys) {
			keys = true
			break
		}
		m := copilotOption.FindStringSubmatch(r)
		switch {
		case m != nil && m[2] == string(rune('1'+len(labels))):
			if m[1] != "" {
				selected = len(labels) + 1
			}
			labels = append(labels, m[3])
		case len(labels) > 0:
			labels[len(labels)-1] += " " + r
		default:
			return agent.KeyDialog{}, false
		}
	}
	yes = len(labels) > 0 && labels[0] == "Yes"
	if !yes || !keys || selected == 0 {
		return agent.KeyDialog{}, false
	}
	// The command: the rows of the box above the question.
	bottom := -1
	for i := q - 1; i >= max(0, q-3); i-- {
		if strings.HasPrefix(rows[i], "╰") {
			bottom = i
			break
		}
	}
	if bottom < 0 {
		return agent.KeyDialog{}, false
	}
	top := -1
	for i := bottom - 1; i >= 0; i-- {
		if strings.HasPrefix(rows[i], "╭") {
			top = i
			break
		}
	}
	if top < 0 || top == bottom-1 {
		return agent.KeyDialog{}, false
	}
	cmd := make([]string, 0, bottom-top-1)
	for _, r := range screen[top+1 : bottom] {
		cmd = append(cmd, unbox(unbox(r)))
	}
	d := agent.KeyDialog{Tool: runTool, Command: strings.Join(cmd, "\n"), Deny: []string{"Escape"}}
	// The selection moves to "1. Yes" (or the second option, for always), then Enter: a digit
	// would be typed into the feedback while the third option is selected.
	d.Allow = agent.SelectKeys(selected, 1)
	if len(labels) > 1 {
		if m := alwaysOption.FindStringSubmatch(labels[1]); m != nil {
			d.Always = agent.SelectKeys(selected, 2)
			d.AlwaysSays = "allow " + m[1] + " (" + m[2] + ") from now on, in copilot's ~/.copilot/permissions-config.json (copilot's own option)"
		}
	}
	if len(labels) > 2 {
		if field, ok := strings.CutSuffix(labels[2], feedbackEnd); ok {
			d.DenyWith = feedbackKeys(selected, field)
		}
	}
	return d, true
}

// The third option takes the person's feedback for the model: selected, what is typed shows in
// its place (before feedbackEnd), and Enter refuses the call with it ("The user rejected this
// tool call. User feedback: …"); the turn goes on.
const (
	feedbackPrompt = "No, and tell Copilot what to do differently"
	feedbackEnd    = " (Esc to stop)"
)

// feedbackKeys are the keys that refuse the call with reason from the dialog drawn with
// option selected and field in the third option's place (agent.KeyDialog.DenyWith).
func feedbackKeys(selected int, field string) func(reason string) []string {
	return func(reason string) []string {
		if selected != 3 {
			keys := agent.SelectKeys(selected, 3)
			return append(keys[:len(keys)-1], session.Typed(reason), "Enter")
		}
		// Compared without blanks: a long field wraps onto the rows below.
		typed, want := squash(field), squash(reason)
		switch {
		case field == feedbackPrompt || typed != want && strings.HasPrefix(want, typed):
			return []string{session.Typed(reason), "Enter"}
		case typed == want:
			return []string{"Enter"}
		}
		return nil // the field holds other words: the person's
	}
}

// squash is s without its blanks.
func squash(s string) string { return strings.Join(strings.Fields(s), "") }

// unbox is a row without the sides of the box it is drawn in and the blank beside each, its
// indentation inside the box kept; a row of no box is returned without trailing blanks.
func unbox(row string) string {
	r := strings.TrimSpace(row)
	rest, ok := strings.CutPrefix(r, "│")
	if !ok {
		return strings.TrimRight(row, " ")
	}
	rest = strings.TrimSuffix(strings.TrimRight(rest, " "), "│")
	return strings.TrimRight(strings.TrimPrefix(rest, " "), " ")
}
