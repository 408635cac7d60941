package copilot

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

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
//
// A file to create or edit (its create and edit tools) is asked about in a box of the same
// shape: "Create file" (or "Edit file"), the file's name and the change's size ("new.txt +3
// -0"), its folder, the change, "Do you want to create /abs/new.txt?" and the options "1. Yes",
// "2. Yes, and don't ask again for file operations when in this directory (…)", "3. No, and tell
// Copilot what to do differently (Esc to stop)". A path outside those allowed for the session
// is asked about first, in a box of its own: "Allow path access", the path in a box, "Do you
// want to allow this?" and "1. Yes", "2. Yes, and remember this path for this session"
// (selected when drawn), "3. No (Esc)".
//
// A URL to fetch (its web_fetch tool; not offered with COPILOT_OFFLINE) is asked about in a box
// of the same shape: "Fetch content from this URL.", "Copilot is attempting to access the
// following URL:", the URL in a box, "Do you want to allow this access?" and "1. Yes", "2. Yes,
// and approve all URLs from "http://host:port" for the rest of the running session", "3. Yes,
// and approve all URLs from "…" permanently", "4. No, and tell Copilot what to do differently
// (Esc to stop)". Copilot draws the answer there late: the dialog left the screen 1.0 s after
// Escape at a load of 7 on 2 cores, 3.6 s with three more agents running (where the shell
// dialog's took at most 0.9 s); so the answer's key is pressed again only after urlConfirm.
//
// A call to another tool, an MCP server's, is asked about in a box of the same shape too: the
// tool's name as its title, a rule, its arguments in a box of their own (JSON, drawn over several
// rows), "Do you want to use this tool?" and "1. Yes", "2. Yes, and don't ask again for tool
// "probe" from "test" in this directory (…)", "3. No, and tell Copilot what to do differently
// (Esc to stop)".

const (
	// runQuestion asks about a shell command; copilot shows the call as "$ Shell …".
	runQuestion = "Do you want to run this command?"
	runTool     = "Shell"
	dialogKeys  = "↑/↓ to navigate"
	// pathQuestion asks about a path outside those allowed (pathTitle), before the call's own
	// dialog; pathTool is its question's tool.
	pathQuestion = "Do you want to allow this?"
	pathTitle    = "Allow path access"
	pathTool     = "path access"
	pathSession  = "Yes, and remember this path for this session"
	// urlQuestion asks about a URL to fetch, under urlIntro and the URL's box; urlTool is its
	// question's tool, the tool's own name.
	urlQuestion = "Do you want to allow this access?"
	urlIntro    = "Copilot is attempting to access the following URL:"
	urlTool     = "web_fetch"
	urlConfirm  = 5 * time.Second
	// toolQuestion asks about a call of another tool, an MCP server's.
	toolQuestion = "Do you want to use this tool?"
)

// The dialog's patterns are compiled on first use: every hooksup process links this agent,
// and most never read its dialog.
var (
	copilotOption = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(❯\s*)?(\d)\. (.+)$`) })
	// alwaysOption is the second option: what it allows from now on.
	alwaysOption = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Yes, and don't ask again for (.+ in this directory) \((.+)\)$`)
	})
	// fileQuestion starts the question about a file: the tool, as its verb, and the path,
	// which may wrap onto the rows below, up to the "?".
	fileQuestion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Do you want to (create|edit) (.+)$`) })
	// fileSize is the row of the file's name and the change's size.
	fileSize = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+) (\+\d+ -\d+)$`) })
	// urlSession is the URL dialog's second option: every URL of the origin, until copilot
	// exits. Its third, the same "permanently" (kept in copilot's settings), is the person's.
	urlSession = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Yes, and approve all URLs from "(.+)" for the rest of the running session$`)
	})
	// mcpAlways is what the second option of a tool's dialog allows: an MCP server's tool.
	mcpAlways = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^tool "(.+)" from "(.+)" in this directory$`) })
)

// dialogKind is what a dialog asks about.
type dialogKind int

const (
	runDialog dialogKind = iota
	fileDialog
	pathDialog
	urlDialog
	toolDialog
)

// KeyDialog reads copilot's permission dialog for a shell command, a file, a path, a URL or an
// MCP server's tool on screen (agent.KeyPermissions).
func (Agent) KeyDialog(screen []string) (agent.KeyDialog, bool) {
	rows := make([]string, len(screen))
	for i, r := range screen {
		rows[i] = strings.TrimSpace(unbox(r))
	}
	q, kind := -1, runDialog
	var fileTool string
	var path []string
	for i := len(rows) - 1; i >= 0 && q < 0; i-- {
		switch m := fileQuestion().FindStringSubmatch(rows[i]); {
		case rows[i] == runQuestion:
			q = i
		case rows[i] == pathQuestion:
			q, kind = i, pathDialog
		case rows[i] == urlQuestion:
			q, kind = i, urlDialog
		case rows[i] == toolQuestion:
			q, kind = i, toolDialog
		case m != nil:
			// The path up to the "?", its rows as drawn.
			fileTool, path = m[1], []string{m[2]}
			for j := i + 1; j < min(len(rows), i+6) && !strings.HasSuffix(path[len(path)-1], "?"); j++ {
				path = append(path, rows[j])
				q = j
			}
			if !strings.HasSuffix(path[len(path)-1], "?") {
				return agent.KeyDialog{}, false
			}
			path[len(path)-1] = strings.TrimSuffix(path[len(path)-1], "?")
			q, kind = max(q, i), fileDialog
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
		m := copilotOption().FindStringSubmatch(r)
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
	if kind == fileDialog {
		return fileKeyDialog(rows[:q], fileTool, path, selected, labels), true
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
	if kind == toolDialog {
		return toolKeyDialog(rows, top, cmd, selected, labels)
	}
	if kind == pathDialog {
		// The path's box is under the dialog's title and its words.
		if !slices.Contains(rows[max(0, top-4):top], pathTitle) {
			return agent.KeyDialog{}, false
		}
		d := agent.KeyDialog{Tool: pathTool, Command: strings.Join(cmd, "\n"), Deny: []string{"Escape"}, Allow: agent.SelectKeys(selected, 1)}
		if len(labels) > 1 && labels[1] == pathSession {
			d.Always = agent.SelectKeys(selected, 2)
			d.AlwaysSays = "allow this path for the rest of this copilot session (copilot's own \"" + pathSession + "\"; nothing written)"
		}
		return d, true
	}
	if kind == urlDialog {
		// The URL's box is under the dialog's words.
		if !slices.Contains(rows[max(0, top-3):top], urlIntro) {
			return agent.KeyDialog{}, false
		}
		d := agent.KeyDialog{Tool: urlTool, Command: strings.Join(cmd, "\n"), Deny: []string{"Escape"}, Allow: agent.SelectKeys(selected, 1), Confirm: urlConfirm}
		if len(labels) > 1 {
			if m := urlSession().FindStringSubmatch(labels[1]); m != nil {
				d.Always = agent.SelectKeys(selected, 2)
				d.AlwaysSays = "allow every URL from " + m[1] + " for the rest of this copilot session (copilot's own \"Yes, and approve all URLs from … for the rest of the running session\"; nothing written)"
			}
		}
		d.DenyWith = feedback(selected, labels)
		return d, true
	}
	d := agent.KeyDialog{Tool: runTool, Command: strings.Join(cmd, "\n"), Deny: []string{"Escape"}}
	// The selection moves to "1. Yes" (or the second option, for always), then Enter: a digit
	// would be typed into the feedback while the third option is selected.
	d.Allow = agent.SelectKeys(selected, 1)
	if len(labels) > 1 {
		if m := alwaysOption().FindStringSubmatch(labels[1]); m != nil {
			d.Always = agent.SelectKeys(selected, 2)
			d.AlwaysSays = "allow " + m[1] + " (" + m[2] + ") from now on, in copilot's ~/.copilot/permissions-config.json (copilot's own option)"
		}
	}
	d.DenyWith = feedback(selected, labels)
	return d, true
}

// The last option (the third; the URL dialog's fourth; none at the path dialog) takes the
// person's feedback for the model: selected, what is typed shows in its place (before
// feedbackEnd), and Enter refuses the call with it ("The user rejected this tool call. User
// feedback: …"); the turn goes on.
const (
	feedbackPrompt = "No, and tell Copilot what to do differently"
	feedbackEnd    = " (Esc to stop)"
)

// feedback is agent.KeyDialog.DenyWith of the dialog drawn with option selected and its options'
// labels: nil where its last option takes no feedback.
func feedback(selected int, labels []string) func(reason string) []string {
	if len(labels) < 3 {
		return nil
	}
	field, ok := strings.CutSuffix(labels[len(labels)-1], feedbackEnd)
	if !ok {
		return nil
	}
	return feedbackKeys(selected, len(labels), field)
}

// feedbackKeys are the keys that refuse the call with reason from the dialog drawn with
// option selected and field in the place of option n, the one for feedback.
func feedbackKeys(selected, n int, field string) func(reason string) []string {
	return func(reason string) []string {
		if selected != n {
			keys := agent.SelectKeys(selected, n)
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

// fileKeyDialog is the dialog about a file: the tool as its question's verb, and the path as
// the question shows it, with the change's size where the dialog shows it ("+3 -0"); rows are
// the dialog's rows above its question.
func fileKeyDialog(rows []string, tool string, path []string, selected int, labels []string) agent.KeyDialog {
	command := strings.Join(path, "\n")
	// The row of the file's name and the change's size, the top of the dialog's box above it.
	for i := len(rows) - 1; i >= 0 && !strings.HasPrefix(rows[i], "╭"); i-- {
		if m := fileSize().FindStringSubmatch(rows[i]); m != nil && strings.HasSuffix(strings.Join(path, ""), "/"+m[1]) {
			command += " (" + m[2] + ")"
			break
		}
	}
	d := agent.KeyDialog{Tool: tool, Command: command, Deny: []string{"Escape"}, Allow: agent.SelectKeys(selected, 1)}
	if len(labels) > 1 {
		if m := alwaysOption().FindStringSubmatch(labels[1]); m != nil {
			d.Always = agent.SelectKeys(selected, 2)
			d.AlwaysSays = "allow " + m[1] + " (" + m[2] + ") from now on, every file created or edited there, in copilot's ~/.copilot/permissions-config.json (copilot's own option)"
		}
	}
	d.DenyWith = feedback(selected, labels)
	return d
}

// toolKeyDialog is the dialog about a call of an MCP server's tool whose arguments' box starts
// at row top and holds args: the tool as the dialog's title names it, with its server where
// the second option names both ("probe (MCP: test)"); the arguments compacted where they are
// JSON whole, else their rows as drawn. A dialog with no title under its top is not read.
func toolKeyDialog(rows []string, top int, args []string, selected int, labels []string) (agent.KeyDialog, bool) {
	title := top - 1
	for title >= 0 && strings.Trim(rows[title], "─") == "" && rows[title] != "" {
		title--
	}
	if title < 1 || rows[title] == "" || !strings.HasPrefix(rows[title-1], "╭") {
		return agent.KeyDialog{}, false
	}
	command := strings.Join(args, "\n")
	var compact bytes.Buffer
	if json.Compact(&compact, []byte(command)) == nil {
		command = compact.String()
	}
	d := agent.KeyDialog{Tool: rows[title], Command: command, Deny: []string{"Escape"}, Allow: agent.SelectKeys(selected, 1)}
	if len(labels) > 1 {
		if m := alwaysOption().FindStringSubmatch(labels[1]); m != nil {
			if t := mcpAlways().FindStringSubmatch(m[1]); t != nil && t[1] == d.Tool {
				d.Tool += " (MCP: " + t[2] + ")"
				d.Always = agent.SelectKeys(selected, 2)
				d.AlwaysSays = "allow " + m[1] + " (" + m[2] + ") from now on, whatever its arguments, in copilot's ~/.copilot/permissions-config.json (copilot's own option)"
			}
		}
	}
	d.DenyWith = feedback(selected, labels)
	return d, true
}

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
