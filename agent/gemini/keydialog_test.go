package gemini

import (
	"slices"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/agent/agenttest"
)

// The screens are gemini 0.61.0's, captured offline.
func TestKeyDialog(t *testing.T) {
	scr := agenttest.Screen(t, "gemini-approval-dialog.txt")
	d, ok := Agent{}.KeyDialog(scr)
	if !ok || d.Tool != "Shell" || d.Command != "rm -rf SCRATCH/runs/gemini/g-allow-enter/victim" ||
		!slices.Equal(d.Allow, []string{"Enter"}) || !slices.Equal(d.Deny, []string{"Escape"}) ||
		!slices.Equal(d.Always, []string{"Down", "Enter"}) ||
		d.AlwaysSays != `allow Shell for the rest of this gemini session, for commands that start as this one does (gemini's own "Allow for this session"; nothing written)` {
		t.Fatalf("the dialog: %v %+v", ok, d)
	}
	// The selection moved to "Allow for this session": Up first.
	for i, r := range scr {
		scr[i] = strings.NewReplacer("● 1. Allow once", "  1. Allow once", "  2. Allow for", "● 2. Allow for").Replace(r)
	}
	if d, ok := (Agent{}).KeyDialog(scr); !ok || !slices.Equal(d.Allow, []string{"Up", "Enter"}) || !slices.Equal(d.Always, []string{"Enter"}) {
		t.Fatalf("the selection moved: %v %+v", ok, d)
	}
	// An untrusted folder's dialog offers no session option: no always.
	scr = agenttest.Screen(t, "gemini-approval-dialog.txt")
	for i, r := range scr {
		scr[i] = strings.NewReplacer("2. Allow for this session", "2. No, suggest changes (esc)", "3. No, suggest changes (esc)", "                            ").Replace(r)
	}
	if d, ok := (Agent{}).KeyDialog(scr); !ok || d.Always != nil || d.AlwaysSays != "" {
		t.Fatalf("a dialog without a session option: %v %+v", ok, d)
	}
	if d, ok := (Agent{}).KeyDialog(agenttest.Screen(t, "gemini-after-esc.txt")); ok {
		t.Fatalf("a dialog after it was cancelled: %+v", d)
	}
}

// A file write's and a file edit's dialogs, gemini 0.61.0's, captured offline: the tool as
// gemini shows it, the path (and, for an edit, gemini's summary of the change).
func TestKeyDialogFile(t *testing.T) {
	const says = `allow every file write and edit for the rest of this gemini session (gemini's own "Allow for this session" at a file's dialog switches it to accepting edits by itself; nothing written)`
	for _, c := range []struct{ file, tool, command string }{
		{"gemini-write-dialog.txt", "WriteFile", "new.txt"},
		{"gemini-edit-dialog.txt", "Edit", "old.txt: alpha => beta"},
	} {
		scr := agenttest.Screen(t, c.file)
		d, ok := Agent{}.KeyDialog(scr)
		if !ok || d.Tool != c.tool || d.Command != c.command ||
			!slices.Equal(d.Allow, []string{"Enter"}) || !slices.Equal(d.Deny, []string{"Escape"}) ||
			!slices.Equal(d.Always, []string{"Down", "Enter"}) || d.AlwaysSays != says {
			t.Fatalf("%s: %v %+v", c.file, ok, d)
		}
		// The selection moved to "Modify with external editor": Up twice first.
		for i, r := range scr {
			scr[i] = strings.NewReplacer("● 1. Allow once", "  1. Allow once", "  3. Modify", "● 3. Modify").Replace(r)
		}
		if d, ok := (Agent{}).KeyDialog(scr); !ok || !slices.Equal(d.Allow, []string{"Up", "Up", "Enter"}) || !slices.Equal(d.Always, []string{"Up", "Enter"}) {
			t.Fatalf("%s, the selection moved: %v %+v", c.file, ok, d)
		}
	}
	// The edit's dialog answered: its change stays on screen, the dialog is gone.
	if d, ok := (Agent{}).KeyDialog(agenttest.Screen(t, "gemini-edit-after-esc.txt")); ok {
		t.Fatalf("a file dialog after it was cancelled: %+v", d)
	}
}

// A dialog still being drawn, its last option not yet on screen, is not read: its question would
// lack the options still to come (gemini's and qwen's always among them).
func TestKeyDialogNotYetDrawn(t *testing.T) {
	agenttest.NotReadUntilDrawn(t, Agent{}, "No, suggest changes", "gemini-approval-dialog.txt", "gemini-write-dialog.txt", "gemini-edit-dialog.txt", "gemini-url-dialog.txt")
}

// The dialog about a URL to fetch, gemini 0.61.0's, captured offline: the tool as its title names
// it, the URL as listed; always is gemini's "Allow for this session", every URL until it exits.
func TestKeyDialogURL(t *testing.T) {
	scr := agenttest.Screen(t, "gemini-url-dialog.txt")
	d, ok := Agent{}.KeyDialog(scr)
	if !ok || d.Tool != "WebFetch" || d.Command != "http://127.0.0.1:44865/page.txt" ||
		!slices.Equal(d.Allow, []string{"Enter"}) || !slices.Equal(d.Deny, []string{"Escape"}) ||
		!slices.Equal(d.Always, []string{"Down", "Enter"}) || !strings.HasPrefix(d.AlwaysSays, "allow every URL fetched (WebFetch, any address) for the rest of this gemini session") {
		t.Fatalf("the dialog: %v %+v", ok, d)
	}
	// Claude's question is gemini's too only with URLs listed above it, under the fetch's title.
	for _, cut := range []string{"URLs to fetch:", "WebFetch"} {
		other := slices.Clone(scr)
		for i, r := range other {
			other[i] = strings.Replace(r, cut, "Something else", 1)
		}
		if d, ok := (Agent{}).KeyDialog(other); ok {
			t.Errorf("without %q: read as %+v", cut, d)
		}
	}
}

// An MCP server's tool asks with a dialog of its own, gemini 0.61.0's, captured offline (the
// test server mcpprobe as "test" in settings.json's mcpServers): the tool as its title names it,
// its arguments as shown; always is gemini's "Allow tool for this session", this tool alone.
func TestKeyDialogMCP(t *testing.T) {
	scr := agenttest.Screen(t, "gemini-mcp-dialog.txt")
	d, ok := Agent{}.KeyDialog(scr)
	if !ok || d.Tool != "probe (test MCP Server)" || d.Command != `{"note":"hello-probe"}` ||
		!slices.Equal(d.Allow, []string{"Enter"}) || !slices.Equal(d.Deny, []string{"Escape"}) ||
		!slices.Equal(d.Always, []string{"Down", "Enter"}) ||
		d.AlwaysSays != `allow the MCP tool "probe" of server "test" for the rest of this gemini session, whatever its arguments (gemini's own "Allow tool for this session"; nothing written)` {
		t.Fatalf("the dialog: %v %+v", ok, d)
	}
	// The selection moved to "Allow all server tools for this session": Up first.
	moved := slices.Clone(scr)
	for i, r := range moved {
		moved[i] = strings.NewReplacer("● 1. Allow once", "  1. Allow once", "  3. Allow all", "● 3. Allow all").Replace(r)
	}
	if d, ok := (Agent{}).KeyDialog(moved); !ok || !slices.Equal(d.Allow, []string{"Up", "Up", "Enter"}) || !slices.Equal(d.Always, []string{"Up", "Enter"}) {
		t.Fatalf("the selection moved: %v %+v", ok, d)
	}
	// Arguments wrapped onto the row below: the rows as drawn.
	var wrapped []string
	for _, r := range scr {
		if strings.Contains(r, `{"note":"hello-probe"}`) {
			wrapped = append(wrapped, strings.Replace(r, `{"note":"hello-probe"}`, `{"note":"hello-        `, 1), "│ probe\"}                                                                                              │")
			continue
		}
		wrapped = append(wrapped, r)
	}
	if d, ok := (Agent{}).KeyDialog(wrapped); !ok || d.Command != "{\"note\":\"hello-\nprobe\"}" {
		t.Fatalf("wrapped arguments: %v %q", ok, d.Command)
	}
	// A title that is not the question's tool's is not read.
	other := slices.Clone(scr)
	for i, r := range other {
		other[i] = strings.Replace(r, "?  probe (test MCP Server)", "?  other (test MCP Server)", 1)
	}
	if d, ok := (Agent{}).KeyDialog(other); ok {
		t.Fatalf("a title naming another tool read: %+v", d)
	}
	agenttest.NotReadUntilDrawn(t, Agent{}, "4. No, suggest changes", "gemini-mcp-dialog.txt")
}
