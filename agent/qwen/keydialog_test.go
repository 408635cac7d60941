package qwen

import (
	"slices"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/agent/agenttest"
)

// The screens are qwen 0.24.4's, captured offline in tmux: on its defaults (auto mode, whose
// classifier the mock cannot stand in for) and with --approval-mode default.
func TestKeyDialog(t *testing.T) {
	const projectSays = "always allow run 'touch *' commands in this project, in its .qwen/settings.json (qwen's own option)"
	for _, tc := range []struct {
		screen        string
		allow, always []string
		says          string
	}{
		// Auto mode offers no always option ("2. Switch to Default Mode and allow once").
		{"qwen-approval-dialog.txt", []string{"Enter"}, nil, ""},
		{"qwen-approval-dialog-default-mode.txt", []string{"Enter"}, []string{"Down", "Enter"}, projectSays},
		{"qwen-approval-dialog-moved.txt", []string{"Up", "Enter"}, []string{"Enter"}, projectSays},
	} {
		d, ok := Agent{}.KeyDialog(agenttest.Screen(t, tc.screen))
		if !ok || d.Tool != "Shell" || d.Command != "touch created.txt" ||
			!slices.Equal(d.Allow, tc.allow) || !slices.Equal(d.Deny, []string{"Escape"}) || d.Confirm != qwenConfirm ||
			!slices.Equal(d.Always, tc.always) || d.AlwaysSays != tc.says {
			t.Errorf("%s: %v %+v", tc.screen, ok, d)
		}
	}
	for _, name := range []string{"qwen-after-esc.txt", "qwen-after-allow.txt"} {
		if d, ok := (Agent{}).KeyDialog(agenttest.Screen(t, name)); ok {
			t.Errorf("%s: a dialog after it was answered: %+v", name, d)
		}
	}
	// A command of several rows, with a warning of qwen's after it, and no call line above: not
	// read as a dialog.
	scr := []string{
		"  ? Shell echo a && echo b (two) ←",
		"",
		"     echo a &&",
		"       echo b",
		"",
		"     ⚠ something qwen warns of",
		"",
		"   Allow execution of: 'echo'?",
		"",
		"   › 1. Yes, allow once",
		"     2. No, suggest changes (esc)",
	}
	if d, ok := (Agent{}).KeyDialog(scr); !ok || d.Command != "echo a &&\necho b" || d.Tool != "Shell" {
		t.Errorf("several rows: %v %+v", ok, d)
	}
	if d, ok := (Agent{}).KeyDialog(scr[2:]); ok {
		t.Errorf("no call line: %+v", d)
	}
}

// A file write's and an edit's dialogs, qwen 0.24.4's, captured offline in hooksup's pane: on
// auto mode (a write outside the project, no always) and with --approval-mode default.
func TestKeyDialogFile(t *testing.T) {
	const says = `allow every file write and edit for the rest of this qwen session (qwen's own "Yes, allow always" at a file's dialog switches it to accepting edits by itself; nothing written)`
	for _, tc := range []struct {
		screen, tool, command string
		always                []string
		says                  string
	}{
		{"qwen-write-dialog.txt", "WriteFile", "/tmp/TestQwen/001/new.txt", nil, ""},
		{"qwen-write-dialog-default-mode.txt", "WriteFile", "new.txt", []string{"Down", "Enter"}, says},
		{"qwen-edit-dialog-default-mode.txt", "Edit", "old.txt", []string{"Down", "Enter"}, says},
	} {
		d, ok := Agent{}.KeyDialog(agenttest.Screen(t, tc.screen))
		if !ok || d.Tool != tc.tool || d.Command != tc.command || !slices.Equal(d.Allow, []string{"Enter"}) ||
			!slices.Equal(d.Deny, []string{"Escape"}) || !slices.Equal(d.Always, tc.always) || d.AlwaysSays != tc.says {
			t.Errorf("%s: %v %+v", tc.screen, ok, d)
		}
	}
	// The selection moved to "No, suggest changes": Up twice (Up once to always).
	scr := agenttest.Screen(t, "qwen-edit-dialog-default-mode.txt")
	for i, r := range scr {
		scr[i] = strings.NewReplacer("› 1. Yes, allow once", "  1. Yes, allow once", "  3. No, suggest", "› 3. No, suggest").Replace(r)
	}
	if d, ok := (Agent{}).KeyDialog(scr); !ok || !slices.Equal(d.Allow, []string{"Up", "Up", "Enter"}) || !slices.Equal(d.Always, []string{"Up", "Enter"}) {
		t.Errorf("the selection moved: %v %+v", ok, d)
	}
	if d, ok := (Agent{}).KeyDialog(agenttest.Screen(t, "qwen-edit-after-esc.txt")); ok {
		t.Errorf("a dialog after it was cancelled: %+v", d)
	}
}

// A dialog still being drawn, its last option not yet on screen, is not read: its question would
// lack the options still to come (gemini's and qwen's always among them).
func TestKeyDialogNotYetDrawn(t *testing.T) {
	agenttest.NotReadUntilDrawn(t, Agent{}, "No, suggest changes", "qwen-approval-dialog.txt", "qwen-approval-dialog-default-mode.txt", "qwen-write-dialog.txt", "qwen-edit-dialog-default-mode.txt", "qwen-url-dialog.txt", "qwen-url-dialog-default-mode.txt", "qwen-mcp-dialog.txt")
}

// A URL to fetch (its web_fetch tool): qwen 0.24.4's dialogs, captured offline in hooksup's
// pane, on auto mode (no always) and with --approval-mode default ("Always allow fetch from
// 127.0.0.1 in this project").
func TestKeyDialogURL(t *testing.T) {
	for _, tc := range []struct {
		screen, command string
		always          []string
		says            string
	}{
		{"qwen-url-dialog.txt", "http://127.0.0.1:43281/page.txt", nil, ""},
		{"qwen-url-dialog-default-mode.txt", "http://127.0.0.1:39661/page.txt", []string{"Down", "Enter"},
			"always allow fetch from 127.0.0.1 in this project, in its .qwen/settings.json (qwen's own option)"},
	} {
		d, ok := Agent{}.KeyDialog(agenttest.Screen(t, tc.screen))
		if !ok || d.Tool != "WebFetch" || d.Command != tc.command || !slices.Equal(d.Allow, []string{"Enter"}) || d.Confirm != qwenConfirm ||
			!slices.Equal(d.Deny, []string{"Escape"}) || !slices.Equal(d.Always, tc.always) || d.AlwaysSays != tc.says {
			t.Errorf("%s: %v %+v", tc.screen, ok, d)
		}
	}
	// A URL too long for a row: its rows as drawn.
	var wrapped []string
	for _, r := range agenttest.Screen(t, "qwen-url-dialog.txt") {
		if strings.Contains(r, "- http://127.0.0.1:43281/page.txt") {
			wrapped = append(wrapped, "      - http://127.0.0.1:43281/a/rather/long/path/that/goes/on/and/on/and/on/past/the/width/of/the/pane/s",
				"      ome/page.txt")
			continue
		}
		wrapped = append(wrapped, r)
	}
	if d, ok := (Agent{}).KeyDialog(wrapped); !ok || d.Command != "http://127.0.0.1:43281/a/rather/long/path/that/goes/on/and/on/and/on/past/the/width/of/the/pane/s\nome/page.txt" {
		t.Errorf("a wrapped URL: %v %+v", ok, d)
	}
	// Another dialog asking "Do you want to proceed?", with no URLs listed above it, or with no
	// WebFetch call above, is not read.
	for _, c := range []struct{ from, to string }{{"URLs to fetch:", "Tools to run: "}, {"? WebFetch Fetching", "? McpTool Fetching"}} {
		scr := agenttest.Screen(t, "qwen-url-dialog.txt")
		for i, r := range scr {
			scr[i] = strings.Replace(r, c.from, c.to, 1)
		}
		if d, ok := (Agent{}).KeyDialog(scr); ok {
			t.Errorf("%q for %q read as a URL's dialog: %+v", c.to, c.from, d)
		}
	}
}

// An MCP server's tool asks with a dialog of its own, qwen 0.24.4's on its default auto mode,
// captured offline (the test server mcpprobe as "test" in settings.json's mcpServers): the tool
// as the call's line names it, its arguments as shown there; auto mode offers no always.
func TestKeyDialogMCP(t *testing.T) {
	scr := agenttest.Screen(t, "qwen-mcp-dialog.txt")
	d, ok := Agent{}.KeyDialog(scr)
	if !ok || d.Tool != "probe (test MCP Server)" || d.Command != `{"note":"hello-probe"}` ||
		!slices.Equal(d.Allow, []string{"Enter"}) || !slices.Equal(d.Deny, []string{"Escape"}) ||
		d.Always != nil || d.AlwaysSays != "" || d.Confirm != qwenConfirm {
		t.Fatalf("the dialog: %v %+v", ok, d)
	}
	// Arguments wrapped onto the next row: the rows as drawn.
	var wrapped []string
	for _, r := range scr {
		if strings.Contains(r, `{"note":"hello-probe"} ←`) {
			wrapped = append(wrapped, strings.Replace(r, `{"note":"hello-probe"} ←`, `{"note":"hello-`, 1), `  probe"} ←`)
			continue
		}
		wrapped = append(wrapped, r)
	}
	if d, ok := (Agent{}).KeyDialog(wrapped); !ok || d.Command != "{\"note\":\"hello-\nprobe\"}" {
		t.Fatalf("wrapped arguments: %v %q", ok, d.Command)
	}
	// Details that are not the question's tool's: not read.
	for _, c := range []struct{ from, to string }{{"Tool: probe", "Tool: other"}, {`? probe (test MCP Server)`, `? other (test MCP Server)`}} {
		other := slices.Clone(scr)
		for i, r := range other {
			other[i] = strings.Replace(r, c.from, c.to, 1)
		}
		if d, ok := (Agent{}).KeyDialog(other); ok {
			t.Fatalf("%s read: %+v", c.to, d)
		}
	}
}
