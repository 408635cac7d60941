package qwen

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hooksup/hooksup/agent"
)

// Qwen Code asks before a shell command runs with a dialog that no hook can answer beside it:
// its PermissionRequest hook runs, and is waited for, before the dialog is drawn (holding it
// would hide the dialog), and its Notification hook only tells. The dialog, under the call's
// line ("? Shell touch created.txt (create a file) ←"): the command (on its default auto mode,
// under the warning "⚠ Auto Mode couldn't classify this action …", since the dialog comes only
// when its classifier cannot judge the call), "Allow execution of: 'touch'?" and the numbered
// options, the selected one marked "›": "1. Yes, allow once" first, then "Switch to Default Mode
// and allow once (recommended)" on auto mode or the two "Always allow …" elsewhere, and "No,
// suggest changes (esc)". Enter takes the selected option; Escape cancels the call and ends
// the turn. Qwen takes a key pressed as soon as the dialog is drawn, but on a loaded machine
// draws the answer late: a single Enter took the dialog off the screen 2.3–7.5 s later (at a
// load of 20 to 25 on 2 cores, each of 3 tries, pressed at once, 0.3 s and 3 s after the
// dialog), where a move of the selection was drawn in 0.5–1 s. So the answer's key is pressed
// again only after qwenConfirm: hooksup does not give up on an answer qwen is still drawing.
//
// A file write or edit (its write_file and edit tools) is asked about with a dialog of the
// same shape: the call's line ("? WriteFile Writing to new.txt ←", "? Edit old.txt ←"), the
// change, "Apply this change?" and "1. Yes, allow once", "2. Yes, allow always" (where the
// folder is trusted), "3. No, suggest changes (esc)". On auto mode qwen asks so only about a
// write outside the project ("⚠ Writes outside the workspace require manual approval in AUTO
// mode."), and offers no always; on --approval-mode default about every one.
//
// A URL to fetch (its web_fetch tool) is asked about so too: the call's line ("? WebFetch
// Fetching content from http://… (format: auto) and processing with prompt: …"), the model's
// prompt ("Fetch content from http://… and process with: …"), "URLs to fetch:" and the URL
// under it ("- http://…"), "Do you want to proceed?" and "1. Yes, allow once", then on auto mode
// (its classifier unable to judge the call) "2. Switch to Default Mode and allow once
// (recommended)", on --approval-mode default "2. Always allow fetch from HOST in this project"
// and "3. … for this user", and last "No, suggest changes (esc)".
//
// A call to an MCP server's tool is asked about so too: the call's line ("? probe (test MCP
// Server) {"note":"hi"} ←", the tool, its server and its arguments), "MCP Server: test" and
// "Tool: probe", "Allow execution of MCP tool "probe" from server "test"?" and, on auto mode,
// "1. Yes, allow once", "2. Switch to Default Mode and allow once (recommended)", "3. No,
// suggest changes (esc)". Its always options on other modes are not read: allow once and deny
// alone.

// qwenConfirm is how long qwen may take to take its dialog off the screen after the answer's key.
const qwenConfirm = 5 * time.Second

const (
	// editQuestion asks about a file write or edit; editAlways is its option that switches
	// qwen to accepting every edit (its auto-edit mode) for the rest of the session.
	editQuestion = "Apply this change?"
	editAlways   = "Yes, allow always"
	// lastOption begins every dialog's last option, "No, suggest changes (esc)".
	lastOption = "No, suggest changes"
	// urlQuestion asks about the URLs listed under urlsHeading; the call's tool is urlTool.
	urlQuestion = "Do you want to proceed?"
	urlsHeading = "URLs to fetch:"
	urlTool     = "WebFetch"
)

// The dialog's patterns are compiled on first use: every hooksup process links this agent,
// and most never read its dialog.
var (
	execQuestion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Allow execution of: '.*'\?$`) })
	// mcpQuestion is an MCP tool's question: the tool and its server.
	mcpQuestion = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Allow execution of MCP tool "(.+)" from server "(.+)"\?$`)
	})
	qwenOption = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(›\s*)?(\d+)\. (.+)$`) })
	callLine   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[?] (\S+) `) })
	// projectOption allows the call and its like from now on, in the project's settings
	// (.qwen/settings.json, permissions.allow); its sibling "… for this user" writes the
	// person's, and is not pressed.
	projectOption = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Always allow (.+) in this project$`) })
)

// KeyDialog reads qwen's permission dialog for a shell command, a file, a URL or an MCP server's
// tool on screen (agent.KeyPermissions).
func (Agent) KeyDialog(screen []string) (agent.KeyDialog, bool) {
	rows := make([]string, len(screen))
	for i, r := range screen {
		rows[i] = strings.TrimSpace(r)
	}
	q, edit, url := -1, false, false
	var mcp []string
	for i := len(rows) - 1; i >= 0; i-- {
		if m := mcpQuestion().FindStringSubmatch(rows[i]); m != nil {
			q, mcp = i, m[1:]
			break
		}
		if execQuestion().MatchString(rows[i]) || rows[i] == editQuestion || rows[i] == urlQuestion {
			q, edit, url = i, rows[i] == editQuestion, rows[i] == urlQuestion
			break
		}
	}
	if q < 0 {
		return agent.KeyDialog{}, false
	}
	// The options, "1. Yes, allow once" among them, one selected; "Always allow … in this
	// project" among them on the default approval mode.
	selected, project, once, last := 0, 0, false, false
	var projectSays string
	for _, r := range rows[q+1:] {
		if r == "" {
			continue
		}
		m := qwenOption().FindStringSubmatch(r)
		if m == nil {
			break
		}
		if m[2] == "1" && m[3] == "Yes, allow once" {
			once = true
		}
		n, _ := strconv.Atoi(m[2])
		if m[1] != "" {
			selected = n
		}
		if p := projectOption().FindStringSubmatch(m[3]); p != nil && !edit && mcp == nil {
			project, projectSays = n, p[1]
		}
		if edit && m[3] == editAlways {
			project = n
		}
		last = strings.HasPrefix(m[3], lastOption)
	}
	// A dialog still being drawn (its last option not yet on screen) is not read: its
	// question would lack what the options not yet drawn offer.
	if !once || selected == 0 || !last {
		return agent.KeyDialog{}, false
	}
	if url {
		return urlKeyDialog(rows[:q], selected, project, projectSays)
	}
	// Above the question, blocks of rows between blank ones: the warnings ("⚠ …", before or
	// after the command), the command, and the call's line with the tool's name.
	var cmd, call []string
	tool := ""
	for i := q - 1; i >= 0; i-- {
		if rows[i] == "" {
			continue
		}
		end := i
		for i > 0 && rows[i-1] != "" {
			i--
		}
		block := rows[i : end+1]
		if strings.HasPrefix(block[0], "⚠") {
			continue
		}
		if cmd == nil {
			cmd = block
			continue
		}
		// The call's line, maybe wrapped, maybe right under the prompt it answers.
		for j, r := range slices.Backward(block) {
			if m := callLine().FindStringSubmatch(r); m != nil {
				tool, call = m[1], block[j:]
				break
			}
		}
		break
	}
	if tool == "" || cmd == nil {
		return agent.KeyDialog{}, false
	}
	if mcp != nil {
		return mcpKeyDialog(mcp[0], mcp[1], cmd, call, selected)
	}
	if edit {
		// The file: the call's line after the tool's name, "Writing to " and the "←" that
		// marks the call left out, its rows as drawn.
		what := slices.Clone(call)
		what[0] = strings.TrimPrefix(strings.TrimPrefix(what[0], "? "+tool+" "), "Writing to ")
		what[len(what)-1] = strings.TrimSpace(strings.TrimSuffix(what[len(what)-1], "←"))
		d := agent.KeyDialog{Tool: tool, Command: strings.Join(what, "\n"), Deny: []string{"Escape"}, Confirm: qwenConfirm}
		d.Allow = agent.SelectKeys(selected, 1)
		if project > 0 {
			d.Always = agent.SelectKeys(selected, project)
			d.AlwaysSays = "allow every file write and edit for the rest of this qwen session (qwen's own \"" + editAlways + "\" at a file's dialog switches it to accepting edits by itself; nothing written)"
		}
		return d, true
	}
	return projectDialog(tool, cmd, selected, project, projectSays), true
}

// projectDialog is the dialog about tool's call of command (its rows), with option selected and
// the option project that allows its like in the project, saying projectSays (0: none).
func projectDialog(tool string, command []string, selected, project int, projectSays string) agent.KeyDialog {
	d := agent.KeyDialog{Tool: tool, Command: strings.Join(command, "\n"), Deny: []string{"Escape"}, Confirm: qwenConfirm}
	d.Allow = agent.SelectKeys(selected, 1)
	if project > 0 {
		d.Always = agent.SelectKeys(selected, project)
		d.AlwaysSays = "always allow " + projectSays + " in this project, in its .qwen/settings.json (qwen's own option)"
	}
	return d
}

// urlKeyDialog reads the dialog about a URL to fetch, whose rows above its question are rows,
// with option selected and the option project that allows its like in the project (0: none).
// The question's command is the URL as listed under "URLs to fetch:", its rows as drawn.
func urlKeyDialog(rows []string, selected, project int, projectSays string) (agent.KeyDialog, bool) {
	end := len(rows) - 1
	for end >= 0 && rows[end] == "" {
		end--
	}
	start := end
	for start > 0 && rows[start-1] != "" {
		start--
	}
	if end < 0 || end == start || rows[start] != urlsHeading || !strings.HasPrefix(rows[start+1], "- ") {
		return agent.KeyDialog{}, false
	}
	urls := slices.Clone(rows[start+1 : end+1])
	urls[0] = strings.TrimPrefix(urls[0], "- ")
	// The call's line above, past the model's prompt and qwen's warnings.
	call := false
	for i := start - 1; i >= 0 && !call; i-- {
		m := callLine().FindStringSubmatch(rows[i])
		call = m != nil && m[1] == urlTool
	}
	if !call {
		return agent.KeyDialog{}, false
	}
	return projectDialog(urlTool, urls, selected, project, projectSays), true
}

// mcpKeyDialog is the dialog about a call of tool of an MCP server: the tool as the call's line
// names it ("probe (test MCP Server)"), the arguments after it on that line (its rows as drawn,
// the "←" that marks the call left out) the command. details is the block above the question,
// which names the server and the tool; a dialog whose details or call's line are another
// tool's is not read.
func mcpKeyDialog(tool, server string, details, call []string, selected int) (agent.KeyDialog, bool) {
	name := tool + " (" + server + " MCP Server)"
	args, ok := strings.CutPrefix(call[0], "? "+name)
	if !ok || !slices.Equal(details, []string{"MCP Server: " + server, "Tool: " + tool}) {
		return agent.KeyDialog{}, false
	}
	what := append([]string{strings.TrimSpace(args)}, call[1:]...)
	what[len(what)-1] = strings.TrimSpace(strings.TrimSuffix(what[len(what)-1], "←"))
	return agent.KeyDialog{Tool: name, Command: strings.Join(what, "\n"), Deny: []string{"Escape"},
		Allow: agent.SelectKeys(selected, 1), Confirm: qwenConfirm}, true
}
