package copilot

import (
	"slices"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agenttest"
	"github.com/hooksup/hooksup/session"
)

var _ agent.KeyPermissions = Agent{}

// The screens are copilot 1.0.102's, captured offline (tmux capture-pane, 160×45).
func TestKeyDialog(t *testing.T) {
	for _, c := range []struct {
		screen, command string
		allow, always   []string
		says            string
	}{
		{"copilot-run-dialog.txt", "touch created.txt", []string{"Enter"}, []string{"Down", "Enter"},
			"allow `touch` in this directory (/tmp/cpx/a/proj) from now on, in copilot's ~/.copilot/permissions-config.json (copilot's own option)"},
		// The command's rows as the dialog shows them: wrapped, and its own second line.
		{"copilot-run-dialog-wrapped.txt", "rm -rf ../build-cache && touch created.txt && echo 'a fairly long line of text to make the command wrap across the width of the dialog box, more than\n" +
			"one hundred and fifty characters' > notes.txt\necho second line", []string{"Enter"}, []string{"Down", "Enter"},
			"allow `rm` and `touch` in this directory (/tmp/cpx/e/proj) from now on, in copilot's ~/.copilot/permissions-config.json (copilot's own option)"},
		// The selection moved to "2. Yes, and don't ask again": Up first.
		{"copilot-run-dialog-moved.txt", "rm -rf ../build-cache && touch created.txt && echo 'a fairly long line of text to make the command wrap across the width of the dialog box, more than\n" +
			"one hundred and fifty characters' > notes.txt\necho second line", []string{"Up", "Enter"}, []string{"Enter"},
			"allow `rm` and `touch` in this directory (/tmp/cpx/e/proj) from now on, in copilot's ~/.copilot/permissions-config.json (copilot's own option)"},
		// The third option selected, feedback typed into it ("use tmp"): a digit would be typed
		// there too, so Up, Up (and Up to always).
		{"copilot-run-dialog-feedback.txt", "touch created.txt", []string{"Up", "Up", "Enter"}, []string{"Up", "Enter"},
			"allow `touch` in this directory (/tmp/cpx/g/proj) from now on, in copilot's ~/.copilot/permissions-config.json (copilot's own option)"},
	} {
		d, ok := Agent{}.KeyDialog(agenttest.Screen(t, c.screen))
		if !ok || d.Tool != "Shell" || d.Command != c.command || !slices.Equal(d.Allow, c.allow) || !slices.Equal(d.Deny, []string{"Escape"}) ||
			!slices.Equal(d.Always, c.always) || d.AlwaysSays != c.says {
			t.Errorf("%s: %v %+v", c.screen, ok, d)
		}
	}
	// The folder trust dialog is the person's; after Escape no dialog is left.
	for _, name := range []string{"copilot-trust-dialog.txt", "copilot-after-esc.txt"} {
		if d, ok := (Agent{}).KeyDialog(agenttest.Screen(t, name)); ok {
			t.Errorf("%s read as a permission dialog: %+v", name, d)
		}
	}
	// A dialog still being drawn (no line of keys yet) is not read.
	scr := agenttest.Screen(t, "copilot-run-dialog.txt")
	for i, r := range scr {
		if strings.Contains(r, "↑/↓ to navigate") {
			scr[i] = ""
		}
	}
	if d, ok := (Agent{}).KeyDialog(scr); ok {
		t.Errorf("a dialog without its keys: %+v", d)
	}
	// A dialog whose second option is not copilot's "don't ask again" has no always.
	scr = agenttest.Screen(t, "copilot-run-dialog.txt")
	for i, r := range scr {
		scr[i] = strings.Replace(r, "Yes, and don't ask again for", "Yes, and maybe later for    ", 1)
	}
	if d, ok := (Agent{}).KeyDialog(scr); !ok || d.Always != nil || d.AlwaysSays != "" {
		t.Errorf("a dialog without always: %v %+v", ok, d)
	}
}

// A file to create and one to edit, and a path outside those allowed: copilot 1.0.102's
// dialogs, captured offline in hooksup's pane.
func TestKeyDialogFile(t *testing.T) {
	const (
		fileSays = "allow file operations when in this directory (/tmp/.../work) from now on, every file created or edited there, in copilot's ~/.copilot/permissions-config.json (copilot's own option)"
		pathSays = `allow this path for the rest of this copilot session (copilot's own "Yes, and remember this path for this session"; nothing written)`
	)
	for _, c := range []struct {
		screen, tool, command string
		allow, always         []string
		says                  string
	}{
		{"copilot-create-dialog.txt", "create", "/tmp/TestCopilot/001/work/new.txt (+3 -0)", []string{"Enter"}, []string{"Down", "Enter"}, fileSays},
		{"copilot-edit-dialog.txt", "edit", "/tmp/TestCopilot/001/work/old.txt (+2 -1)", []string{"Enter"}, []string{"Down", "Enter"}, fileSays},
		// Copilot selects "2. Yes, and remember this path" when it draws the dialog: Up first.
		{"copilot-path-dialog.txt", "path access", "/tmp/TestCopilot/001/outside.txt", []string{"Up", "Enter"}, []string{"Enter"}, pathSays},
	} {
		d, ok := Agent{}.KeyDialog(agenttest.Screen(t, c.screen))
		if !ok || d.Tool != c.tool || d.Command != c.command || !slices.Equal(d.Allow, c.allow) || !slices.Equal(d.Deny, []string{"Escape"}) ||
			!slices.Equal(d.Always, c.always) || d.AlwaysSays != c.says {
			t.Errorf("%s: %v %+v", c.screen, ok, d)
		}
	}
	if d, ok := (Agent{}).KeyDialog(agenttest.Screen(t, "copilot-path-after-esc.txt")); ok {
		t.Errorf("a dialog after Escape: %+v", d)
	}
	// A path too long for a row: its rows as drawn, up to the "?".
	var wrapped []string
	for _, r := range agenttest.Screen(t, "copilot-create-dialog.txt") {
		if strings.Contains(r, "Do you want to create") {
			wrapped = append(wrapped, "│ Do you want to create /tmp/TestCopilot/001/work/a/rather/long/folder/name/that/goes/on/   │",
				"│ new.txt?                                                                           │")
			continue
		}
		wrapped = append(wrapped, r)
	}
	if d, ok := (Agent{}).KeyDialog(wrapped); !ok || d.Command != "/tmp/TestCopilot/001/work/a/rather/long/folder/name/that/goes/on/\nnew.txt (+3 -0)" {
		t.Errorf("a wrapped path: %v %+v", ok, d)
	}
	// A question with no "?" within a few rows is not read.
	for i, r := range wrapped {
		wrapped[i] = strings.Replace(r, "new.txt?", "new.txt ", 1)
	}
	if d, ok := (Agent{}).KeyDialog(wrapped); ok {
		t.Errorf("a question without its end: %+v", d)
	}
	// Another box that asks "Do you want to allow this?" is not a path's.
	scr := agenttest.Screen(t, "copilot-path-dialog.txt")
	for i, r := range scr {
		scr[i] = strings.Replace(r, "Allow path access", "Allow URL access ", 1)
	}
	if d, ok := (Agent{}).KeyDialog(scr); ok {
		t.Errorf("a dialog that is not a path's: %+v", d)
	}
}

// A deny's reason goes into the third option's field: the selection moved there, the reason
// typed, Enter once the field shows it; the same keys while it is still being drawn, none when
// the field holds other words.
func TestKeyDialogDenyWith(t *testing.T) {
	// The placeholder selected: the feedback screen with nothing typed.
	empty := agenttest.Screen(t, "copilot-run-dialog-feedback.txt")
	for i, r := range empty {
		empty[i] = strings.Replace(r, "❯ 3. use tmp (Esc to stop)", "❯ 3. No, and tell Copilot what to do differently (Esc to stop)", 1)
	}
	typed := func(s string) string { return session.Typed(s) }
	for _, c := range []struct {
		name   string
		screen []string
		reason string
		want   []string
	}{
		{"from 1. Yes", agenttest.Screen(t, "copilot-run-dialog.txt"), "use tmp", []string{"Down", "Down", typed("use tmp"), "Enter"}},
		{"from 2.", agenttest.Screen(t, "copilot-run-dialog-moved.txt"), "use tmp", []string{"Down", typed("use tmp"), "Enter"}},
		{"the field empty", empty, "use tmp", []string{typed("use tmp"), "Enter"}},
		{"the reason shown", agenttest.Screen(t, "copilot-run-dialog-feedback.txt"), "use tmp", []string{"Enter"}},
		{"the reason being drawn", agenttest.Screen(t, "copilot-run-dialog-feedback.txt"), "use tmp instead", []string{typed("use tmp instead"), "Enter"}},
		{"other words in the field", agenttest.Screen(t, "copilot-run-dialog-feedback.txt"), "build it elsewhere", nil},
	} {
		d, ok := Agent{}.KeyDialog(c.screen)
		if !ok || d.DenyWith == nil {
			t.Errorf("%s: %v, DenyWith %v", c.name, ok, d.DenyWith != nil)
			continue
		}
		if got := d.DenyWith(c.reason); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// A URL to fetch: copilot 1.0.102's dialog for its web_fetch tool, captured in hooksup's pane.
// Its always is the second option, every URL of the origin until copilot exits; the third, the
// same kept in copilot's settings, is the person's.
func TestKeyDialogURL(t *testing.T) {
	const says = `allow every URL from http://127.0.0.1:37135 for the rest of this copilot session (copilot's own "Yes, and approve all URLs from … for the rest of the running session"; nothing written)`
	scr := agenttest.Screen(t, "copilot-url-dialog.txt")
	d, ok := Agent{}.KeyDialog(scr)
	if !ok || d.Tool != "web_fetch" || d.Command != "http://127.0.0.1:37135/page.txt" || !slices.Equal(d.Allow, []string{"Enter"}) ||
		!slices.Equal(d.Deny, []string{"Escape"}) || !slices.Equal(d.Always, []string{"Down", "Enter"}) || d.AlwaysSays != says || d.DenyWith == nil || d.Confirm != urlConfirm {
		t.Fatalf("%v %+v", ok, d)
	}
	// A deny's reason goes into its fourth option, the one for feedback.
	if got := d.DenyWith("use a mirror"); !slices.Equal(got, []string{"Down", "Down", "Down", session.Typed("use a mirror"), "Enter"}) {
		t.Errorf("deny with a reason: %q", got)
	}
	// The selection moved to the fourth option, where a digit would be typed as feedback: Up.
	moved := slices.Clone(scr)
	for i, r := range moved {
		moved[i] = strings.NewReplacer("❯ 1. Yes", "  1. Yes", "  4. No, and tell", "❯ 4. No, and tell").Replace(r)
	}
	if d, ok := (Agent{}).KeyDialog(moved); !ok || !slices.Equal(d.Allow, []string{"Up", "Up", "Up", "Enter"}) || !slices.Equal(d.Always, []string{"Up", "Up", "Enter"}) {
		t.Errorf("the selection moved: %v %+v", ok, d)
	}
	// Another box that asks "Do you want to allow this access?" is not a URL's.
	other := slices.Clone(scr)
	for i, r := range other {
		other[i] = strings.Replace(r, "Copilot is attempting to access the following URL:", "Copilot is attempting to reach the following one:", 1)
	}
	if d, ok := (Agent{}).KeyDialog(other); ok {
		t.Errorf("a dialog that is not a URL's: %+v", d)
	}
}

// A dialog still being drawn, its last option not yet on screen, is not read.
func TestKeyDialogNotYetDrawn(t *testing.T) {
	agenttest.NotReadUntilDrawn(t, Agent{}, "No, and tell Copilot", "copilot-run-dialog.txt", "copilot-create-dialog.txt", "copilot-url-dialog.txt", "copilot-mcp-dialog.txt")
}

// An MCP server's tool asks with a dialog of its own, copilot 1.0.102's, captured offline (the
// test server mcpprobe as "test", given with --additional-mcp-config): the tool as the dialog's
// title names it, with the server its second option names; the arguments as the box shows them,
// compacted where they are JSON whole.
func TestKeyDialogMCP(t *testing.T) {
	scr := agenttest.Screen(t, "copilot-mcp-dialog.txt")
	const says = `allow tool "probe" from "test" in this directory (/tmp/.../work) from now on, whatever its arguments, in copilot's ~/.copilot/permissions-config.json (copilot's own option)`
	d, ok := Agent{}.KeyDialog(scr)
	if !ok || d.Tool != "probe (MCP: test)" || d.Command != `{"note":"hello-probe"}` ||
		!slices.Equal(d.Allow, []string{"Enter"}) || !slices.Equal(d.Deny, []string{"Escape"}) ||
		!slices.Equal(d.Always, []string{"Down", "Enter"}) || d.AlwaysSays != says || d.DenyWith == nil {
		t.Fatalf("the dialog: %v %+v", ok, d)
	}
	// A deny's reason goes into its third option, the one for feedback.
	if got := d.DenyWith("not now"); !slices.Equal(got, []string{"Down", "Down", session.Typed("not now"), "Enter"}) {
		t.Errorf("deny with a reason: %q", got)
	}
	// Arguments that are not JSON whole (a string wrapped in the box): their rows as drawn.
	var wrapped []string
	for _, r := range scr {
		if strings.Contains(r, `"note": "hello-probe"`) {
			wrapped = append(wrapped, strings.Replace(r, `"note": "hello-probe"  `, `"note": "hello-`, 1), strings.Replace(r, `  "note": "hello-probe"`, `probe"                 `, 1))
			continue
		}
		wrapped = append(wrapped, r)
	}
	if d, ok := (Agent{}).KeyDialog(wrapped); !ok || d.Command != "{\n  \"note\": \"hello-\nprobe\"\n}" {
		t.Fatalf("wrapped arguments: %v %q", ok, d.Command)
	}
	// No second option naming the tool: the title alone, no always.
	var plain []string
	for _, r := range scr {
		if !strings.Contains(r, "2. Yes, and don't ask again") {
			plain = append(plain, strings.Replace(r, "3. No, and tell", "2. No, and tell", 1))
		}
	}
	if d, ok := (Agent{}).KeyDialog(plain); !ok || d.Tool != "probe" || d.Always != nil || d.AlwaysSays != "" {
		t.Fatalf("without always: %v %+v", ok, d)
	}
}
