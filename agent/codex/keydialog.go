package codex

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hooksup/hooksup/agent"
)

// Codex asks before a command runs outside its sandbox (on its defaults: the model asks for
// it, with its reason) with a dialog of its own: "Would you like to run the following
// command?", "Environment: …", "Reason: …", the command after "$ ", and the numbered options
// "1. Yes, proceed (y)" (selected when drawn, marked "›"), "2. Yes, and don't ask again for
// commands that start with `…` (p)" and "3. No, and tell Codex what to do differently (esc)",
// then "Press enter to confirm or esc to cancel". Enter takes the selected option; Escape
// cancels the call and ends the turn. Its PermissionRequest hook could answer the dialog, but
// codex runs the hook before it draws the dialog and hides it while the hook waits, so hooksup
// answers that hook at once and this dialog with keys.
//
// A patch that writes outside the folders codex may write to on its own (the project and the
// temporary folders, on its defaults) is asked about with "Would you like to make the following
// edits?", "Description: …", "Destination: /path", and the options "1. Yes, proceed (y)", "2.
// Yes, and don't ask again for these files (a)" and the third, "No, …". Codex's hooks name its
// tool apply_patch.
//
// A call to an MCP server's tool is asked about with a form: "Field 1/1", "Allow the test MCP
// server to run tool "probe"?", the arguments ("note: hi", a row each), and the options, each
// with its description beside it: "1. Allow", "2. Allow for this session", "3. Always allow"
// (remembered for future calls) and "4. Cancel", then "enter to submit | esc to cancel".

const (
	runQuestion = "Would you like to run the following command?"
	confirmHint = "Press enter to confirm"
	// runTool is the tool codex's hooks name for a command.
	runTool = "Bash"
	// editQuestion asks about a patch; editTool is the tool codex's hooks name for it, and
	// destination heads the path it writes.
	editQuestion = "Would you like to make the following edits?"
	editTool     = "apply_patch"
	destination  = "Destination: "
	// editAlways is a patch dialog's second option: these files, for the rest of the session.
	editAlways = "Yes, and don't ask again for these files"
)

// The MCP tool's form: its hint, its last option and the one that allows the tool for the rest
// of the session ("3. Always allow" remembers it for future sessions, and is not pressed).
const (
	mcpHint    = "enter to submit"
	mcpCancel  = "Cancel"
	mcpSession = "Allow for this session"
)

// The dialog's patterns are compiled on first use: every hooksup process links this agent,
// and most never read its dialog.
var (
	codexOption = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(›\s*)?(\d)\. (.+)$`) })
	// mcpQuestion is an MCP tool's question: its server and the tool.
	mcpQuestion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Allow the (.+) MCP server to run tool "(.+)"\?$`) })
	// mcpLabel is an option's label before the description beside it.
	mcpLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+?)(?:\s{2,}.*)?$`) })
	// alwaysOption is the second option: what it allows from now on.
	alwaysOption = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("^Yes, and don't ask again for (commands that start with `.+`)(?: \\(p\\))?$")
	})
)

// KeyDialog reads codex's dialog for a command, a patch or an MCP server's tool on screen
// (agent.KeyPermissions).
func (Agent) KeyDialog(screen []string) (agent.KeyDialog, bool) {
	rows := make([]string, len(screen))
	for i, r := range screen {
		rows[i] = strings.TrimSpace(r)
	}
	q, edit := -1, false
	for i := len(rows) - 1; i >= 0; i-- {
		if m := mcpQuestion().FindStringSubmatch(rows[i]); m != nil {
			return mcpKeyDialog(rows[i+1:], m[1], m[2])
		}
		if rows[i] == runQuestion || rows[i] == editQuestion {
			q, edit = i, rows[i] == editQuestion
			break
		}
	}
	if q < 0 {
		return agent.KeyDialog{}, false
	}
	// The command: the rows from "$ " to the next blank row; a patch's path, from
	// "Destination: ".
	var cmd []string
	i := q + 1
	head := "$ "
	if edit {
		head = destination
	}
	for ; i < len(rows); i++ {
		if c, ok := strings.CutPrefix(rows[i], head); ok {
			cmd = append(cmd, c)
			break
		}
	}
	for i++; i < len(rows) && rows[i] != "" && len(cmd) > 0; i++ {
		if codexOption().MatchString(rows[i]) {
			break
		}
		cmd = append(cmd, rows[i])
	}
	if len(cmd) == 0 {
		return agent.KeyDialog{}, false
	}
	// The options, one selected, each perhaps wrapped onto the rows below it; then the hint.
	var labels []string
	selected, hint := 0, false
	for ; i < len(rows); i++ {
		r := rows[i]
		if r == "" {
			continue
		}
		if strings.HasPrefix(r, confirmHint) {
			hint = true
			break
		}
		m := codexOption().FindStringSubmatch(r)
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
	if !hint || selected == 0 || len(labels) < 2 || !strings.HasPrefix(labels[0], "Yes, proceed") {
		return agent.KeyDialog{}, false
	}
	d := agent.KeyDialog{Tool: runTool, Command: strings.Join(cmd, "\n"), Deny: []string{"Escape"}}
	d.Allow = agent.SelectKeys(selected, 1)
	if edit {
		d.Tool = editTool
		if strings.HasPrefix(labels[1], editAlways) {
			d.Always = agent.SelectKeys(selected, 2)
			d.AlwaysSays = "allow edits of these files for the rest of this codex session (codex's own \"" + editAlways + "\"; nothing written)"
		}
		return d, true
	}
	if m := alwaysOption().FindStringSubmatch(labels[1]); m != nil {
		d.Always = agent.SelectKeys(selected, 2)
		d.AlwaysSays = "allow " + m[1] + " from now on, in codex's rules ($CODEX_HOME/rules/default.rules)"
	}
	return d, true
}

// mcpKeyDialog reads the form about a call of server's MCP tool from the rows under its
// question: the arguments up to the first option, the command; then the options, from "1.
// Allow" to "4. Cancel", one selected, and the hint under them. A form still being drawn is
// not read.
func mcpKeyDialog(rows []string, server, tool string) (agent.KeyDialog, bool) {
	var args, labels []string
	selected, hint := 0, false
	for _, r := range rows {
		if r == "" {
			continue
		}
		if strings.HasPrefix(r, mcpHint) {
			hint = true
			break
		}
		m := codexOption().FindStringSubmatch(r)
		switch {
		case m != nil && m[2] == string(rune('1'+len(labels))):
			if m[1] != "" {
				selected = len(labels) + 1
			}
			labels = append(labels, mcpLabel().FindStringSubmatch(m[3])[1])
		case len(labels) == 0:
			args = append(args, r)
		}
		// Else a description wrapped onto the row below its option.
	}
	if !hint || selected == 0 || len(labels) < 2 || labels[0] != "Allow" || labels[len(labels)-1] != mcpCancel {
		return agent.KeyDialog{}, false
	}
	d := agent.KeyDialog{Tool: tool + " (" + server + " MCP server)", Command: strings.Join(args, "\n"), Deny: []string{"Escape"}}
	d.Allow = agent.SelectKeys(selected, 1)
	if i := slices.Index(labels, mcpSession); i >= 0 {
		d.Always = agent.SelectKeys(selected, i+1)
		d.AlwaysSays = "allow the " + server + " MCP server's tool " + strconv.Quote(tool) + " for the rest of this codex session, whatever its arguments (codex's own \"" + mcpSession + "\"; nothing written)"
	}
	return d, true
}
