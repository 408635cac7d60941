package vterm

import tea "github.com/hooksup/hooksup/third_party/bubbletea"

// teaKeys maps Bubble Tea's non-character keys to ours. Keypad keys map to
// the keys they stand for, as a legacy terminal reports them.
var teaKeys = map[rune]rune{
	tea.KeyUp: KeyUp, tea.KeyDown: KeyDown, tea.KeyRight: KeyRight, tea.KeyLeft: KeyLeft,
	tea.KeyHome: KeyHome, tea.KeyEnd: KeyEnd, tea.KeyPgUp: KeyPgUp, tea.KeyPgDown: KeyPgDown,
	tea.KeyInsert: KeyInsert, tea.KeyDelete: KeyDelete,
	tea.KeyF1: KeyF1, tea.KeyF2: KeyF2, tea.KeyF3: KeyF3, tea.KeyF4: KeyF4,
	tea.KeyF5: KeyF5, tea.KeyF6: KeyF6, tea.KeyF7: KeyF7, tea.KeyF8: KeyF8,
	tea.KeyF9: KeyF9, tea.KeyF10: KeyF10, tea.KeyF11: KeyF11, tea.KeyF12: KeyF12,
	tea.KeyKpUp: KeyUp, tea.KeyKpDown: KeyDown, tea.KeyKpRight: KeyRight, tea.KeyKpLeft: KeyLeft,
	tea.KeyKpHome: KeyHome, tea.KeyKpEnd: KeyEnd, tea.KeyKpPgUp: KeyPgUp, tea.KeyKpPgDown: KeyPgDown,
	tea.KeyKpInsert: KeyInsert, tea.KeyKpDelete: KeyDelete, tea.KeyKpEnter: KeyEnter,
	tea.KeyKp0: '0', tea.KeyKp1: '1', tea.KeyKp2: '2', tea.KeyKp3: '3', tea.KeyKp4: '4',
	tea.KeyKp5: '5', tea.KeyKp6: '6', tea.KeyKp7: '7', tea.KeyKp8: '8', tea.KeyKp9: '9',
	tea.KeyKpEqual: '=', tea.KeyKpMultiply: '*', tea.KeyKpPlus: '+', tea.KeyKpComma: ',',
	tea.KeyKpMinus: '-', tea.KeyKpDecimal: '.', tea.KeyKpDivide: '/',
}

// KeyFromTea converts a Bubble Tea key press to a Key. ok is false for keys
// that have no encoding (modifier keys alone, media keys, F13 and up).
func KeyFromTea(k tea.Key) (key Key, ok bool) {
	var mod Mod
	if k.Mod.Contains(tea.ModShift) {
		mod |= ModShift
	}
	// Meta is xterm's modifier 8 (CSI 1;9D), what iTerm2 sends for Option with the arrows when
	// Option is not set to Esc+: for the programs in the pane Option is Alt (claude reads
	// modifier 8 as super).
	if k.Mod.Contains(tea.ModAlt) || k.Mod.Contains(tea.ModMeta) {
		mod |= ModAlt
	}
	if k.Mod.Contains(tea.ModCtrl) {
		mod |= ModCtrl
	}
	switch code := k.Code; {
	case code == tea.KeyExtended:
		if k.Text == "" {
			return Key{}, false
		}
		return Key{Text: k.Text, Mod: mod}, true
	case code == tea.KeyEnter || code == tea.KeyTab || code == tea.KeyBackspace ||
		code == tea.KeyEscape || code == tea.KeySpace:
		return Key{Code: code, Mod: mod}, true
	case code > tea.KeyExtended:
		c, found := teaKeys[code]
		if !found {
			return Key{}, false
		}
		return Key{Code: c, Mod: mod}, true
	case code < 0x20 || code == 0x7F:
		return Key{}, false
	default:
		return Key{Code: code, Mod: mod, Text: k.Text}, true
	}
}

// MouseFromTea converts a Bubble Tea mouse message to a MouseEvent relative
// to the pane whose top-left screen cell is (originX, originY). ok is false
// for messages it does not know.
func MouseFromTea(msg tea.MouseMsg, originX, originY int) (ev MouseEvent, ok bool) {
	var action MouseAction
	switch msg.(type) {
	case tea.MouseClickMsg, tea.MouseWheelMsg:
		action = MousePress
	case tea.MouseReleaseMsg:
		action = MouseRelease
	case tea.MouseMotionMsg:
		action = MouseMotion
	default:
		return MouseEvent{}, false
	}
	m := msg.Mouse()
	var button MouseButton
	switch m.Button {
	case tea.MouseNone:
		button = MouseNone
	case tea.MouseLeft:
		button = MouseLeft
	case tea.MouseMiddle:
		button = MouseMiddle
	case tea.MouseRight:
		button = MouseRight
	case tea.MouseWheelUp:
		button = MouseWheelUp
	case tea.MouseWheelDown:
		button = MouseWheelDown
	case tea.MouseWheelLeft:
		button = MouseWheelLeft
	case tea.MouseWheelRight:
		button = MouseWheelRight
	case tea.MouseBackward:
		button = MouseBackward
	case tea.MouseForward:
		button = MouseForward
	default:
		return MouseEvent{}, false
	}
	var mod Mod
	if m.Mod.Contains(tea.ModShift) {
		mod |= ModShift
	}
	if m.Mod.Contains(tea.ModAlt) {
		mod |= ModAlt
	}
	if m.Mod.Contains(tea.ModCtrl) {
		mod |= ModCtrl
	}
	return MouseEvent{X: m.X - originX, Y: m.Y - originY, Button: button, Action: action, Mod: mod}, true
}
