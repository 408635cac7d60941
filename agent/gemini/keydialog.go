package gemini

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/hooksup/hooksup/agent"
)

// Gemini CLI asks before a tool runs with a dialog that no hook can answer (its Notification
// hook's answer is ignored, BeforeTool cannot allow): in its box, the tool's call, the command
// in a box of its own, "Allow execution of [Shell]?" and the numbered options "1. Allow once"
// (selected when drawn), "2. Allow for this session" (where the folder is trusted), "3. No, suggest changes (esc)". Enter
// takes the selected option; Escape cancels the call and ends the turn.
//
// A file write or edit (its write_file and replace tools) asks with a dialog of the same
// shape: "? WriteFile  Writing to new.txt" (or "? Edit  old.txt: alpha => beta", the path
// and gemini's summary of the change), the change in a box of its own, "Apply this change?"
// and the options "1. Allow once", "2. Allow for this session" (where the folder is trusted),
// "3. Modify with external editor", "4. No, suggest changes (esc)".
//
// A URL to fetch (its web_fetch tool) is asked about in a dialog of its own: "?  WebFetch
// Processing URLs and instructions from prompt: …", the model's prompt, "URLs to fetch:" and each
// URL under it ("- http://…"), "Do you want to proceed?" and the options "1. Allow once", "2.
// Allow for this session", "3. No, suggest changes (esc)".
//
// An MCP server's tool asks with a third: "Action Required", the title "?  probe (test MCP
// Server) {"note":"hi"}" (the tool, its server, its arguments as gemini shows them), the
// server's and the tool's names on rows of their own, "Allow execution of MCP tool "probe"
// from server "test"?" and the options "1. Allow once", "2. Allow tool for this session",
// "3. Allow all server tools for this session", "4. No, suggest changes (esc)".

// sessionOption allows the call and its like until gemini exits: gemini allows the command's
// root commands ("rm" for "rm -rf …") for the session, and writes nothing.
const sessionOption = "Allow for this session"

// lastOption begins every dialog's last option, "No, suggest changes (esc)".
const lastOption = "No, suggest changes"

// editSessionSays is what "Allow for this session" allows at a file's dialog: gemini switches
// itself to accepting every edit (its auto-edit mode) for the rest of the session.
const editSessionSays = "allow every file write and edit for the rest of this gemini session (gemini's own \"" + sessionOption + "\" at a file's dialog switches it to accepting edits by itself; nothing written)"

// mcpSessionOption allows the MCP tool, whatever its arguments, until gemini exits; gemini's
// next option allows every tool of the server so.
const mcpSessionOption = "Allow tool for this session"

// The dialog's patterns are compiled on first use: every hooksup process links this agent,
// and most never read its dialog.
var (
	allowQuestion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Allow execution of \[(.+)\]\?$`) })
	// mcpQuestion is an MCP tool's question: the tool and its server.
	mcpQuestion = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Allow execution of MCP tool "(.+)" from server "(.+)"\?$`)
	})
	geminiOption = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(●\s*)?(\d)\. (.+)$`) })
	// editTitle is the first row of a file dialog: the tool as gemini shows it, and what it
	// changes.
	editTitle = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\? (\S+)  (.+)$`) })
)

// editQuestion is the question of gemini's dialog for a file write or edit.
const editQuestion = "Apply this change?"

// The dialog about URLs to fetch: its question, the heading of the URLs above it, and the tool as
// its title names it.
const (
	urlQuestion = "Do you want to proceed?"
	urlsHeading = "URLs to fetch:"
	urlTool     = "WebFetch"
)

// urlTitle is the title row of the dialog about URLs to fetch.
var urlTitle = regexp.MustCompile(`^\?\s+` + urlTool + `\b`)

// urlSessionSays is what "Allow for this session" allows at a URL's dialog: gemini allows its
// web_fetch tool, whatever the URL, until it exits.
const urlSessionSays = "allow every URL fetched (" + urlTool + ", any address) for the rest of this gemini session (gemini's own \"" + sessionOption + "\"; nothing written)"

// KeyDialog reads gemini's permission dialog on screen (agent.KeyPermissions).
func (Agent) KeyDialog(screen []string) (agent.KeyDialog, bool) {
	rows := make([]string, len(screen))
	for i, r := range screen {
		rows[i] = unbox(r)
	}
	q, edit, url := -1, false, false
	var tool, mcpTool, mcpServer string
	for i := len(rows) - 1; i >= 0; i-- {
		if m := mcpQuestion().FindStringSubmatch(rows[i]); m != nil {
			q, mcpTool, mcpServer = i, m[1], m[2]
			break
		}
		if m := allowQuestion().FindStringSubmatch(rows[i]); m != nil {
			q, tool = i, m[1]
			break
		}
		if rows[i] == editQuestion || rows[i] == urlQuestion {
			q, edit, url = i, rows[i] == editQuestion, rows[i] == urlQuestion
			break
		}
	}
	if q < 0 {
		return agent.KeyDialog{}, false
	}
	// The options, "1. Allow once" among them, one selected; "Allow for this session" among
	// them where the folder is trusted.
	selected, session, once, last := 0, 0, false, false
	for _, r := range rows[q+1:] {
		if r == "" {
			continue
		}
		m := geminiOption().FindStringSubmatch(r)
		if m == nil {
			break
		}
		if m[2] == "1" && m[3] == "Allow once" {
			once = true
		}
		if m[1] != "" {
			selected = int(m[2][0] - '0')
		}
		if (mcpTool == "" && m[3] == sessionOption) || (mcpTool != "" && m[3] == mcpSessionOption) {
			session = int(m[2][0] - '0')
		}
		last = strings.HasPrefix(m[3], lastOption)
	}
	// A dialog still being drawn (its last option not yet on screen) is not read: its
	// question would lack what the options not yet drawn offer.
	if !once || selected == 0 || !last {
		return agent.KeyDialog{}, false
	}
	if url {
		return urlKeyDialog(rows[:q], selected, session)
	}
	if mcpTool != "" {
		return mcpDialog(rows, q, mcpTool, mcpServer, selected, session)
	}
	// The command: the rows of the box above the question; for a file, the title above that box.
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
	var cmd []string
	if edit {
		tool, cmd = editTitleAbove(rows, top)
		if tool == "" {
			return agent.KeyDialog{}, false
		}
	} else {
		cmd = make([]string, 0, bottom-top-1)
		for _, r := range rows[top+1 : bottom] {
			cmd = append(cmd, unbox(r))
		}
	}
	d := agent.KeyDialog{Tool: tool, Command: strings.Join(cmd, "\n"), Deny: []string{"Escape"}}
	d.Allow = agent.SelectKeys(selected, 1)
	if session > 0 {
		d.Always = agent.SelectKeys(selected, session)
		d.AlwaysSays = "allow " + tool + " for the rest of this gemini session, for commands that start as this one does (gemini's own \"" + sessionOption + "\"; nothing written)"
		if edit {
			d.AlwaysSays = editSessionSays
		}
	}
	return d, true
}

// urlKeyDialog reads the dialog about URLs to fetch whose rows above its question are rows, with
// option selected and the session's option session (0: none). The question's command is the
// URLs as listed under "URLs to fetch:", one a row as drawn, without their "- ".
func urlKeyDialog(rows []string, selected, session int) (agent.KeyDialog, bool) {
	h := -1
	for i := len(rows) - 1; i >= max(0, len(rows)-40); i-- {
		if rows[i] == urlsHeading {
			h = i
			break
		}
	}
	if h < 0 || h+1 >= len(rows) || !strings.HasPrefix(rows[h+1], "- ") {
		return agent.KeyDialog{}, false
	}
	var urls []string
	for _, r := range rows[h+1:] {
		if r != "" {
			urls = append(urls, strings.TrimPrefix(r, "- "))
		}
	}
	// The dialog's title above, past the model's prompt.
	title := false
	for i := h - 1; i >= 0 && !title && !strings.HasPrefix(rows[i], "╭"); i-- {
		title = urlTitle.MatchString(rows[i])
	}
	if !title {
		return agent.KeyDialog{}, false
	}
	d := agent.KeyDialog{Tool: urlTool, Command: strings.Join(urls, "\n"), Deny: []string{"Escape"}}
	d.Allow = agent.SelectKeys(selected, 1)
	if session > 0 {
		d.Always = agent.SelectKeys(selected, session)
		d.AlwaysSays = urlSessionSays
	}
	return d, true
}

// mcpDialog reads the MCP tool's dialog whose question is at row q: the tool as its title names
// it ("probe (test MCP Server)"), the arguments shown after it the command (wrapped onto the rows
// below, up to a blank row: its rows as drawn). A dialog whose title is not the question's tool's is not read.
func mcpDialog(rows []string, q int, tool, server string, selected, session int) (agent.KeyDialog, bool) {
	name := tool + " (" + server + " MCP Server)"
	for i := q - 1; i >= max(0, q-30); i-- {
		if strings.HasPrefix(rows[i], "╭") {
			break
		}
		rest, ok := strings.CutPrefix(rows[i], "?")
		if !ok {
			continue
		}
		args, ok := strings.CutPrefix(strings.TrimSpace(rest), name)
		if !ok {
			return agent.KeyDialog{}, false
		}
		cmd := []string{strings.TrimSpace(args)}
		for _, r := range rows[i+1 : q] {
			if r == "" {
				break
			}
			cmd = append(cmd, r)
		}
		d := agent.KeyDialog{Tool: name, Command: strings.TrimSpace(strings.Join(cmd, "\n")), Deny: []string{"Escape"}}
		d.Allow = agent.SelectKeys(selected, 1)
		if session > 0 {
			d.Always = agent.SelectKeys(selected, session)
			d.AlwaysSays = "allow the MCP tool " + strconv.Quote(tool) + " of server " + strconv.Quote(server) + " for the rest of this gemini session, whatever its arguments (gemini's own \"" + mcpSessionOption + "\"; nothing written)"
		}
		return d, true
	}
	return agent.KeyDialog{}, false
}

// editTitleAbove reads the title of a file dialog whose change box starts at row top: the
// tool, and what it changes ("Writing to " left out of a write's), its rows as drawn; no tool
// when there is no title.
func editTitleAbove(rows []string, top int) (string, []string) {
	for i := top - 1; i >= max(0, top-4); i-- {
		m := editTitle().FindStringSubmatch(rows[i])
		if m == nil {
			continue
		}
		what := append([]string{strings.TrimPrefix(m[2], "Writing to ")}, rows[i+1:top]...)
		return m[1], what
	}
	return "", nil
}

// unbox is a row without the sides of the box it is drawn in, and the blanks beside them.
func unbox(row string) string {
	r := strings.TrimSpace(row)
	if rest, ok := strings.CutPrefix(r, "│"); ok {
		r = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "│"))
	}
	return r
}
