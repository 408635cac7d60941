package gemini

import (
	"regexp"
	"strings"

	"github.com/hooksup/hooksup/agent"
)

// Gemini CLI asks before a tool runs with a dialog that no hook can answer (its Notification
// hook's answer is ignored, BeforeTool cannot allow): in its box, the tool's call, the command
// in a box of its own, "Allow execution of [Shell]?" and the numbered options "1. Allow once"
// (selected when drawn), "2. Allow for this session" (where the folder is trusted), "3. No, suggest changes (esc)". Enter
// takes the selected option; Escape cancels the call and ends the turn.

// sessionOption allows the call and its like until gemini exits: gemini allows the command's
// root commands ("rm" for "rm -rf …") for the session, and writes nothing.
const sessionOption = "Allow for this session"

var (
	allowQuestion = regexp.MustCompile(`^Allow execution of \[(.+)\]\?$`)
	geminiOption  = regexp.MustCompile(`^(●\s*)?(\d)\. (.+)$`)
)

// KeyDialog reads gemini's permission dialog on screen (agent.KeyPermissions).
func (Agent) KeyDialog(screen []string) (agent.KeyDialog, bool) {
	rows := make([]string, len(screen))
	for i, r := range screen {
		rows[i] = unbox(r)
	}
	q := -1
	var tool string
	for i := len(rows) - 1; i >= 0; i-- {
		if m := allowQuestion.FindStringSubmatch(rows[i]); m != nil {
			q, tool = i, m[1]
			break
		}
	}
	if q < 0 {
		return agent.KeyDialog{}, false
	}
	// The options, "1. Allow once" among them, one selected; "Allow for this session" among
	// them where the folder is trusted.
	selected, session, once := 0, 0, false
	for _, r := range rows[q+1:] {
		if r == "" {
			continue
		}
		m := geminiOption.FindStringSubmatch(r)
		if m == nil {
			break
		}
		if m[2] == "1" && m[3] == "Allow once" {
			once = true
		}
		if m[1] != "" {
			selected = int(m[2][0] - '0')
		}
		if m[3] == sessionOption {
			session = int(m[2][0] - '0')
		}
	}
	if !once || selected == 0 {
		return agent.KeyDialog{}, false
	}
	// The command: the rows of the box above the question.
	bottom := -1
	for i := q - 1; i >= max(0, q-4); i-- {
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
	for _, r := range rows[top+1 : bottom] {
		cmd = append(cmd, unbox(r))
	}
	d := agent.KeyDialog{Tool: tool, Command: strings.Join(cmd, "\n"), Deny: []string{"Escape"}}
	d.Allow = agent.SelectKeys(selected, 1)
	if session > 0 {
		d.Always = agent.SelectKeys(selected, session)
		d.AlwaysSays = "allow " + tool + " for the rest of this gemini session, for commands that start as this one does (gemini's own \"" + sessionOption + "\"; nothing written)"
	}
	return d, true
}

// unbox is a row without the sides of the box it is drawn in, and the blanks beside them.
func unbox(row string) string {
	r := strings.TrimSpace(row)
	if rest, ok := strings.CutPrefix(r, "│"); ok {
		r = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "│"))
	}
	return r
}
