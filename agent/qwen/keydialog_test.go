package qwen

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The screens are qwen 0.24.4's, captured offline in tmux: on its defaults (auto mode, whose
// classifier the mock cannot stand in for) and with --approval-mode default.
func TestKeyDialog(t *testing.T) {
	const projectSays = "always allow run 'touch *' commands in this project, in its .qwen/settings.json (qwen's own option)"
	read := func(name string) []string {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	}
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
		d, ok := Agent{}.KeyDialog(read(tc.screen))
		if !ok || d.Tool != "Shell" || d.Command != "touch created.txt" ||
			!slices.Equal(d.Allow, tc.allow) || !slices.Equal(d.Deny, []string{"Escape"}) || d.Confirm != qwenConfirm ||
			!slices.Equal(d.Always, tc.always) || d.AlwaysSays != tc.says {
			t.Errorf("%s: %v %+v", tc.screen, ok, d)
		}
	}
	for _, name := range []string{"qwen-after-esc.txt", "qwen-after-allow.txt"} {
		if d, ok := (Agent{}).KeyDialog(read(name)); ok {
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
