package vterm

import (
	"testing"

	tea "github.com/hooksup/hooksup/third_party/bubbletea"
)

func TestKeyFromTea(t *testing.T) {
	tests := []struct {
		name string
		in   tea.Key
		want Key
		ok   bool
		// bytes in legacy mode, to tie the conversion to what the child gets
		bytes string
	}{
		{"a", tea.Key{Code: 'a', Text: "a"}, Key{Code: 'a', Text: "a"}, true, "a"},
		{"shift+a", tea.Key{Code: 'a', ShiftedCode: 'A', Text: "A", Mod: tea.ModShift}, Key{Code: 'a', Text: "A", Mod: ModShift}, true, "A"},
		{"ctrl+c", tea.Key{Code: 'c', Mod: tea.ModCtrl}, Key{Code: 'c', Mod: ModCtrl}, true, "\x03"},
		{"alt+x", tea.Key{Code: 'x', Mod: tea.ModAlt}, Key{Code: 'x', Mod: ModAlt}, true, "\x1bx"},
		{"enter", tea.Key{Code: tea.KeyEnter}, Key{Code: KeyEnter}, true, "\r"},
		{"shift+enter", tea.Key{Code: tea.KeyEnter, Mod: tea.ModShift}, Key{Code: KeyEnter, Mod: ModShift}, true, "\x1b\r"},
		{"esc", tea.Key{Code: tea.KeyEscape}, Key{Code: KeyEscape}, true, "\x1b"},
		{"shift+tab", tea.Key{Code: tea.KeyTab, Mod: tea.ModShift}, Key{Code: KeyTab, Mod: ModShift}, true, "\x1b[Z"},
		{"backspace", tea.Key{Code: tea.KeyBackspace}, Key{Code: KeyBackspace}, true, "\x7f"},
		{"space", tea.Key{Code: tea.KeySpace, Text: " "}, Key{Code: KeySpace}, true, " "},
		{"ctrl+up", tea.Key{Code: tea.KeyUp, Mod: tea.ModCtrl}, Key{Code: KeyUp, Mod: ModCtrl}, true, "\x1b[1;5A"},
		{"f12", tea.Key{Code: tea.KeyF12}, Key{Code: KeyF12}, true, "\x1b[24~"},
		{"pgdown", tea.Key{Code: tea.KeyPgDown}, Key{Code: KeyPgDown}, true, "\x1b[6~"},
		{"keypad enter", tea.Key{Code: tea.KeyKpEnter}, Key{Code: KeyEnter}, true, "\r"},
		{"keypad 5", tea.Key{Code: tea.KeyKp5}, Key{Code: '5'}, true, "5"},
		{"keypad up", tea.Key{Code: tea.KeyKpUp}, Key{Code: KeyUp}, true, "\x1b[A"},
		{"extended text", tea.Key{Code: tea.KeyExtended, Text: "日本"}, Key{Text: "日本"}, true, "日本"},
		{"super is not sent", tea.Key{Code: 'a', Mod: tea.ModSuper, Text: "a"}, Key{Code: 'a', Text: "a"}, true, "a"},
		{"meta is alt", tea.Key{Code: tea.KeyLeft, Mod: tea.ModMeta}, Key{Code: KeyLeft, Mod: ModAlt}, true, "\x1b[1;3D"},
		{"f13 has no encoding", tea.Key{Code: tea.KeyF13}, Key{}, false, ""},
		{"modifier key alone", tea.Key{Code: tea.KeyLeftShift}, Key{}, false, ""},
		{"media key", tea.Key{Code: tea.KeyMediaPlay}, Key{}, false, ""},
		{"empty extended", tea.Key{Code: tea.KeyExtended}, Key{}, false, ""},
	}
	for _, tt := range tests {
		got, ok := KeyFromTea(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%s: KeyFromTea = %+v, %v; want %+v, %v", tt.name, got, ok, tt.want, tt.ok)
			continue
		}
		if ok {
			if b := string(EncodeKey(got, Modes{})); b != tt.bytes {
				t.Errorf("%s: encodes to %q, want %q", tt.name, b, tt.bytes)
			}
		}
	}
	// The message type Bubble Tea delivers converts the same way.
	if k, ok := KeyFromTea(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}.Key()); !ok || k != (Key{Code: 'c', Mod: ModCtrl}) {
		t.Errorf("KeyPressMsg: %+v %v", k, ok)
	}
}

func TestMouseFromTea(t *testing.T) {
	tests := []struct {
		name string
		in   tea.MouseMsg
		want MouseEvent
		ok   bool
	}{
		{"click", tea.MouseClickMsg{X: 12, Y: 7, Button: tea.MouseLeft}, MouseEvent{X: 2, Y: 2, Button: MouseLeft, Action: MousePress}, true},
		{"release with ctrl", tea.MouseReleaseMsg{X: 10, Y: 5, Button: tea.MouseRight, Mod: tea.ModCtrl}, MouseEvent{X: 0, Y: 0, Button: MouseRight, Action: MouseRelease, Mod: ModCtrl}, true},
		{"wheel", tea.MouseWheelMsg{X: 30, Y: 20, Button: tea.MouseWheelDown, Mod: tea.ModShift | tea.ModAlt}, MouseEvent{X: 20, Y: 15, Button: MouseWheelDown, Action: MousePress, Mod: ModShift | ModAlt}, true},
		{"motion", tea.MouseMotionMsg{X: 11, Y: 6}, MouseEvent{X: 1, Y: 1, Button: MouseNone, Action: MouseMotion}, true},
		{"left of the pane", tea.MouseClickMsg{X: 3, Y: 7, Button: tea.MouseMiddle}, MouseEvent{X: -7, Y: 2, Button: MouseMiddle, Action: MousePress}, true},
		{"button 10", tea.MouseClickMsg{X: 12, Y: 7, Button: tea.MouseButton10}, MouseEvent{}, false},
	}
	for _, tt := range tests {
		got, ok := MouseFromTea(tt.in, 10, 5)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%s: MouseFromTea = %+v, %v; want %+v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
	// A click left of the pane is not sent to the child.
	ev, _ := MouseFromTea(tea.MouseClickMsg{X: 3, Y: 7, Button: tea.MouseLeft}, 10, 5)
	if b := EncodeMouse(ev, Modes{Mouse: MouseNormal, MouseSGR: true}); b != nil {
		t.Errorf("outside click encoded as %q", b)
	}
}
