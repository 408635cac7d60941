package tui

import (
	"testing"

	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/internal/keymap"
)

// The key names internal/keymap accepts are the names Bubble Tea gives the key presses, so a
// key written in the config matches when it is pressed.
func TestKeyNamesMatchBubbleTea(t *testing.T) {
	for _, c := range []struct {
		written string
		press   tea.KeyPressMsg
	}{
		{"y", press('y', 0, "y")},
		{"Y", press('y', tea.ModShift, "Y")},
		{"?", press('?', 0, "?")},
		{"ctrl+]", press(']', tea.ModCtrl, "")},
		{"ctrl+g", press('g', tea.ModCtrl, "")},
		{"Control+g", press('g', tea.ModCtrl, "")},
		{"alt+x", press('x', tea.ModAlt, "")},
		{"shift+ctrl+x", press('x', tea.ModCtrl|tea.ModShift, "")},
		{"enter", press(tea.KeyEnter, 0, "")},
		{"alt+enter", press(tea.KeyEnter, tea.ModAlt, "")},
		{"tab", press(tea.KeyTab, 0, "")},
		{"shift+tab", press(tea.KeyTab, tea.ModShift, "")},
		{"space", press(tea.KeySpace, 0, " ")},
		{"up", press(tea.KeyUp, 0, "")},
		{"pgdn", press(tea.KeyPgDown, 0, "")},
		{"pgup", press(tea.KeyPgUp, 0, "")},
		{"home", press(tea.KeyHome, 0, "")},
		{"delete", press(tea.KeyDelete, 0, "")},
		{"backspace", press(tea.KeyBackspace, 0, "")},
		{"f5", press(tea.KeyF5, 0, "")},
		{"ctrl+c", press('c', tea.ModCtrl, "")},
	} {
		got, err := keymap.ParseKey(c.written)
		if err != nil {
			t.Errorf("%q: %v", c.written, err)
			continue
		}
		if got != c.press.String() {
			t.Errorf("%q is read as %q; Bubble Tea names the key press %q", c.written, got, c.press.String())
		}
	}
}

// Every action of internal/keymap has a binding in the TUI's keymap, with its keys and hint.
func TestKeyMapHasEveryAction(t *testing.T) {
	km, err := keymap.Resolve("", map[string]string{keymap.Approve: "y"})
	if err != nil {
		t.Fatal(err)
	}
	k := newKeyMap(km)
	shown := map[string]bool{}
	for _, sec := range k.sections() {
		for _, l := range sec.lines {
			for _, b := range l.bindings {
				shown[b.Help().Desc] = true
			}
		}
	}
	for _, a := range keymap.Actions() {
		if !shown[a.Hint] {
			t.Errorf("action %s is not in the help", a.Name)
		}
	}
	if h := k.Command.Approve.Help(); h.Key != "y" || h.Desc != "continue" {
		t.Errorf("approve's help: %+v", h)
	}
	if k.Command.Approve.Keys()[0] != "y" || len(k.Command.Approve.Keys()) != 1 {
		t.Errorf("approve's keys: %v", k.Command.Approve.Keys())
	}
}
