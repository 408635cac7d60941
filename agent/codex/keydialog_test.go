package codex

import (
	"slices"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/agent"
	"github.com/hooksup/hooksup/agent/agenttest"
)

var _ agent.KeyPermissions = Agent{}

// codex-approval-dialog.txt is codex 0.169.0's pane in hooksup's TUI, captured offline;
// codex-after-esc.txt is codex 0.171.0's screen after Escape at that dialog.
func TestKeyDialog(t *testing.T) {
	const command = "rm -rf ../build-cache && touch created.txt"
	scr := agenttest.Screen(t, "codex-approval-dialog.txt")
	d, ok := Agent{}.KeyDialog(scr)
	if !ok || d.Tool != "Bash" || d.Command != command || !slices.Equal(d.Allow, []string{"Enter"}) ||
		!slices.Equal(d.Deny, []string{"Escape"}) || !slices.Equal(d.Always, []string{"Down", "Enter"}) ||
		d.AlwaysSays != "allow commands that start with `rm -rf ../build-cache` from now on, in codex's rules ($CODEX_HOME/rules/default.rules)" {
		t.Fatalf("%v %+v", ok, d)
	}

	// The selection moved to the third option: Up to the first, Up to the second.
	moved := slices.Clone(scr)
	for i, r := range moved {
		switch {
		case strings.HasPrefix(r, "› 1."):
			moved[i] = "  " + strings.TrimPrefix(r, "› ")
		case strings.HasPrefix(r, "  3."):
			moved[i] = "› " + strings.TrimPrefix(r, "  ")
		}
	}
	if d, ok := (Agent{}).KeyDialog(moved); !ok || !slices.Equal(d.Allow, []string{"Up", "Up", "Enter"}) || !slices.Equal(d.Always, []string{"Up", "Enter"}) {
		t.Errorf("the third option selected: %v %+v", ok, d)
	}

	// A command of two rows, and the second option wrapped onto the next row.
	var long []string
	for _, r := range scr {
		switch {
		case strings.HasPrefix(r, "  $ "):
			long = append(long, r, "  echo second line")
		case strings.HasPrefix(r, "  2. "):
			cut := strings.Index(r, "start with")
			long = append(long, r[:cut], "     "+r[cut:])
		default:
			long = append(long, r)
		}
	}
	if d, ok := (Agent{}).KeyDialog(long); !ok || d.Command != command+"\necho second line" || !strings.Contains(d.AlwaysSays, "start with `rm -rf ../build-cache`") {
		t.Errorf("two rows: %v %+v", ok, d)
	}

	// After Escape no dialog is left; a dialog still being drawn (no hint yet) is not read.
	if d, ok := (Agent{}).KeyDialog(agenttest.Screen(t, "codex-after-esc.txt")); ok {
		t.Errorf("after Escape: %+v", d)
	}
	drawing := slices.DeleteFunc(slices.Clone(scr), func(r string) bool { return strings.Contains(r, "Press enter to confirm") })
	if d, ok := (Agent{}).KeyDialog(drawing); ok {
		t.Errorf("a dialog without its hint: %+v", d)
	}
	// The composer, whose prompt is marked › too, is no dialog.
	if d, ok := (Agent{}).KeyDialog([]string{"› 1. do this", "  2. then that", "", "  Press enter to confirm"}); ok {
		t.Errorf("the composer: %+v", d)
	}
}

// A patch outside the folders codex writes to on its own (a new file in /var/tmp), codex
// 0.169.0's dialog captured offline in hooksup's pane.
func TestKeyDialogEdits(t *testing.T) {
	scr := agenttest.Screen(t, "codex-edit-dialog.txt")
	d, ok := Agent{}.KeyDialog(scr)
	if !ok || d.Tool != "apply_patch" || d.Command != "/var/tmp/hooksup-edits/outside.txt" ||
		!slices.Equal(d.Allow, []string{"Enter"}) || !slices.Equal(d.Deny, []string{"Escape"}) || !slices.Equal(d.Always, []string{"Down", "Enter"}) ||
		d.AlwaysSays != `allow edits of these files for the rest of this codex session (codex's own "Yes, and don't ask again for these files"; nothing written)` {
		t.Fatalf("the dialog: %v %+v", ok, d)
	}
	// The selection on the third option: Up twice.
	for i, r := range scr {
		scr[i] = strings.NewReplacer("› 1. Yes, proceed", "  1. Yes, proceed", "  3. No, and tell", "› 3. No, and tell").Replace(r)
	}
	if d, ok := (Agent{}).KeyDialog(scr); !ok || !slices.Equal(d.Allow, []string{"Up", "Up", "Enter"}) || !slices.Equal(d.Always, []string{"Up", "Enter"}) {
		t.Fatalf("the selection moved: %v %+v", ok, d)
	}
	if d, ok := (Agent{}).KeyDialog(agenttest.Screen(t, "codex-edit-after-esc.txt")); ok {
		t.Fatalf("a dialog after it was cancelled: %+v", d)
	}
}

// An MCP server's tool asks with a form of its own, codex 0.169.0's, captured offline (the test
// server mcpprobe as [mcp_servers.test] in config.toml): the tool and its server as its question
// names them, its arguments as shown; always is codex's "Allow for this session".
func TestKeyDialogMCP(t *testing.T) {
	scr := agenttest.Screen(t, "codex-mcp-dialog.txt")
	const says = `allow the test MCP server's tool "probe" for the rest of this codex session, whatever its arguments (codex's own "Allow for this session"; nothing written)`
	d, ok := Agent{}.KeyDialog(scr)
	if !ok || d.Tool != "probe (test MCP server)" || d.Command != "note: hello-probe" ||
		!slices.Equal(d.Allow, []string{"Enter"}) || !slices.Equal(d.Deny, []string{"Escape"}) ||
		!slices.Equal(d.Always, []string{"Down", "Enter"}) || d.AlwaysSays != says {
		t.Fatalf("the dialog: %v %+v", ok, d)
	}
	// The selection moved to "4. Cancel": Up first.
	moved := slices.Clone(scr)
	for i, r := range moved {
		moved[i] = strings.NewReplacer("› 1. Allow  ", "  1. Allow  ", "  4. Cancel", "› 4. Cancel").Replace(r)
	}
	if d, ok := (Agent{}).KeyDialog(moved); !ok || !slices.Equal(d.Allow, []string{"Up", "Up", "Up", "Enter"}) || !slices.Equal(d.Always, []string{"Up", "Up", "Enter"}) {
		t.Fatalf("the selection moved: %v %+v", ok, d)
	}
	// Without its hint the form is still being drawn.
	agenttest.NotReadUntilDrawn(t, Agent{}, "enter to submit", "codex-mcp-dialog.txt")
	agenttest.NotReadUntilDrawn(t, Agent{}, "4. Cancel", "codex-mcp-dialog.txt")
}
