package vterm

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"
)

// The mode combinations every key is checked against.
var keyModes = map[string]Modes{
	"legacy":      {},
	"decckm":      {CursorKeys: true},
	"kitty1":      {KittyFlags: KittyDisambiguate},
	"kitty1+ckm":  {KittyFlags: KittyDisambiguate, CursorKeys: true},
	"kitty5":      {KittyFlags: KittyDisambiguate | KittyReportAlternates},
	"mok1":        {ModifyOtherKeys: 1},
	"mok2":        {ModifyOtherKeys: 2},
	"mok2+ckm":    {ModifyOtherKeys: 2, CursorKeys: true},
	"kitty5+mok2": {KittyFlags: KittyDisambiguate | KittyReportAlternates, ModifyOtherKeys: 2},
	"paste":       {BracketedPaste: true},
}

// want gives the expected bytes per mode; "*" is the default for modes not
// listed, "kitty" stands for every kitty mode, "mok" for every
// modifyOtherKeys mode without kitty, "ckm" for every DECCKM mode without
// kitty.
type want map[string]string

func (w want) for_(mode string, m Modes) (string, bool) {
	if s, ok := w[mode]; ok {
		return s, true
	}
	kitty := m.KittyFlags != 0
	if s, ok := w["kitty5"]; ok && kitty && m.KittyFlags&KittyReportAlternates != 0 {
		return s, true
	}
	if s, ok := w["kitty"]; ok && kitty {
		return s, true
	}
	if s, ok := w["mok2"]; ok && !kitty && m.ModifyOtherKeys == 2 {
		return s, true
	}
	if s, ok := w["mok"]; ok && !kitty && m.ModifyOtherKeys > 0 {
		return s, true
	}
	if s, ok := w["ckm"]; ok && !kitty && m.CursorKeys {
		return s, true
	}
	s, ok := w["*"]
	return s, ok
}

func TestEncodeKey(t *testing.T) {
	shift, alt, ctrl := ModShift, ModAlt, ModCtrl
	tests := []struct {
		name string
		key  Key
		want want
	}{
		// Printable characters.
		{"a", Key{Code: 'a'}, want{"*": "a"}},
		{"shift+a with text", Key{Code: 'a', Mod: shift, Text: "A"}, want{"*": "A"}},
		{"shift+a without text", Key{Code: 'a', Mod: shift}, want{"*": "A"}},
		{"shift+1", Key{Code: '1', Mod: shift}, want{"*": "!"}},
		{"caps lock A", Key{Code: 'A'}, want{"*": "A"}},
		{"é", Key{Code: 'é'}, want{"*": "é"}},
		{"input method text", Key{Text: "日本"}, want{"*": "日本"}},
		{"alt+input method text", Key{Text: "日本", Mod: alt}, want{"*": "\x1b日本"}},
		{"ctrl+a", Key{Code: 'a', Mod: ctrl},
			want{"*": "\x01", "kitty": "\x1b[97;5u", "mok2": "\x1b[27;5;97~"}},
		{"ctrl+A (caps lock)", Key{Code: 'A', Mod: ctrl},
			want{"*": "\x01", "kitty": "\x1b[97;5u", "mok2": "\x1b[27;5;97~"}},
		{"ctrl+shift+a", Key{Code: 'a', Mod: ctrl | shift},
			want{"*": "\x01", "kitty1": "\x1b[97;6u", "kitty1+ckm": "\x1b[97;6u", "kitty5": "\x1b[97:65;6u", "mok2": "\x1b[27;6;65~"}},
		{"alt+a", Key{Code: 'a', Mod: alt},
			want{"*": "\x1ba", "kitty": "\x1b[97;3u", "mok2": "\x1b[27;3;97~"}},
		{"alt+shift+a", Key{Code: 'a', Mod: alt | shift, Text: "A"},
			want{"*": "\x1bA", "kitty1": "\x1b[97;4u", "kitty1+ckm": "\x1b[97;4u", "kitty5": "\x1b[97:65;4u", "mok2": "\x1b[27;4;65~"}},
		{"ctrl+alt+c", Key{Code: 'c', Mod: ctrl | alt},
			want{"*": "\x1b\x03", "kitty": "\x1b[99;7u", "mok2": "\x1b[27;7;99~"}},
		{"ctrl+1 (no control code)", Key{Code: '1', Mod: ctrl},
			want{"*": "1", "kitty": "\x1b[49;5u", "mok": "\x1b[27;5;49~"}},
		{"ctrl+2", Key{Code: '2', Mod: ctrl},
			want{"*": "\x00", "kitty": "\x1b[50;5u", "mok2": "\x1b[27;5;50~"}},
		{"ctrl+[", Key{Code: '[', Mod: ctrl},
			want{"*": "\x1b", "kitty": "\x1b[91;5u", "mok2": "\x1b[27;5;91~"}},
		{"ctrl+/", Key{Code: '/', Mod: ctrl},
			want{"*": "\x1f", "kitty": "\x1b[47;5u", "mok2": "\x1b[27;5;47~"}},
		{"ctrl+é (no control code)", Key{Code: 'é', Mod: ctrl},
			want{"*": "é", "kitty": "\x1b[233;5u", "mok": "\x1b[27;5;233~"}},

		// Space.
		{"space", Key{Code: KeySpace}, want{"*": " "}},
		{"shift+space", Key{Code: KeySpace, Mod: shift}, want{"*": " "}},
		{"ctrl+space", Key{Code: KeySpace, Mod: ctrl},
			want{"*": "\x00", "kitty": "\x1b[32;5u", "mok2": "\x1b[27;5;32~"}},
		{"alt+space", Key{Code: KeySpace, Mod: alt},
			want{"*": "\x1b ", "kitty": "\x1b[32;3u", "mok2": "\x1b[27;3;32~"}},

		// Enter, Tab, Backspace, Escape.
		{"enter", Key{Code: KeyEnter}, want{"*": "\r"}},
		{"shift+enter", Key{Code: KeyEnter, Mod: shift},
			want{"*": "\x1b\r", "kitty": "\x1b[13;2u", "mok": "\x1b[27;2;13~"}},
		{"alt+enter", Key{Code: KeyEnter, Mod: alt},
			want{"*": "\x1b\r", "kitty": "\x1b[13;3u", "mok2": "\x1b[27;3;13~"}},
		{"ctrl+enter", Key{Code: KeyEnter, Mod: ctrl},
			want{"*": "\r", "kitty": "\x1b[13;5u", "mok": "\x1b[27;5;13~"}},
		{"tab", Key{Code: KeyTab}, want{"*": "\t"}},
		{"shift+tab", Key{Code: KeyTab, Mod: shift},
			want{"*": "\x1b[Z", "kitty": "\x1b[9;2u"}},
		{"alt+shift+tab", Key{Code: KeyTab, Mod: alt | shift},
			want{"*": "\x1b\x1b[Z", "kitty": "\x1b[9;4u"}},
		{"ctrl+tab", Key{Code: KeyTab, Mod: ctrl},
			want{"*": "\t", "kitty": "\x1b[9;5u", "mok": "\x1b[27;5;9~"}},
		{"alt+tab", Key{Code: KeyTab, Mod: alt},
			want{"*": "\x1b\t", "kitty": "\x1b[9;3u", "mok2": "\x1b[27;3;9~"}},
		{"backspace", Key{Code: KeyBackspace}, want{"*": "\x7f"}},
		{"ctrl+backspace", Key{Code: KeyBackspace, Mod: ctrl},
			want{"*": "\x08", "kitty": "\x1b[127;5u", "mok": "\x1b[27;5;127~"}},
		{"alt+backspace", Key{Code: KeyBackspace, Mod: alt},
			want{"*": "\x1b\x7f", "kitty": "\x1b[127;3u", "mok2": "\x1b[27;3;127~"}},
		{"escape", Key{Code: KeyEscape}, want{"*": "\x1b", "kitty": "\x1b[27u"}},
		{"alt+escape", Key{Code: KeyEscape, Mod: alt},
			want{"*": "\x1b\x1b", "kitty": "\x1b[27;3u", "mok2": "\x1b[27;3;27~"}},
		{"ctrl+escape", Key{Code: KeyEscape, Mod: ctrl},
			want{"*": "\x1b", "kitty": "\x1b[27;5u", "mok2": "\x1b[27;5;27~"}},

		// Cursor keys.
		{"up", Key{Code: KeyUp}, want{"*": "\x1b[A", "ckm": "\x1bOA"}},
		{"down", Key{Code: KeyDown}, want{"*": "\x1b[B", "ckm": "\x1bOB"}},
		{"right", Key{Code: KeyRight}, want{"*": "\x1b[C", "ckm": "\x1bOC"}},
		{"left", Key{Code: KeyLeft}, want{"*": "\x1b[D", "ckm": "\x1bOD"}},
		{"ctrl+up", Key{Code: KeyUp, Mod: ctrl}, want{"*": "\x1b[1;5A"}},
		{"shift+up", Key{Code: KeyUp, Mod: shift}, want{"*": "\x1b[1;2A"}},
		{"alt+down", Key{Code: KeyDown, Mod: alt}, want{"*": "\x1b[1;3B"}},
		{"ctrl+shift+left", Key{Code: KeyLeft, Mod: ctrl | shift}, want{"*": "\x1b[1;6D"}},
		{"ctrl+alt+right", Key{Code: KeyRight, Mod: ctrl | alt}, want{"*": "\x1b[1;7C"}},
		{"home", Key{Code: KeyHome}, want{"*": "\x1b[H", "ckm": "\x1bOH"}},
		{"end", Key{Code: KeyEnd}, want{"*": "\x1b[F", "ckm": "\x1bOF"}},
		{"ctrl+end", Key{Code: KeyEnd, Mod: ctrl}, want{"*": "\x1b[1;5F"}},

		// Editing keys.
		{"insert", Key{Code: KeyInsert}, want{"*": "\x1b[2~"}},
		{"delete", Key{Code: KeyDelete}, want{"*": "\x1b[3~"}},
		{"ctrl+delete", Key{Code: KeyDelete, Mod: ctrl}, want{"*": "\x1b[3;5~"}},
		{"pgup", Key{Code: KeyPgUp}, want{"*": "\x1b[5~"}},
		{"shift+pgdown", Key{Code: KeyPgDown, Mod: shift}, want{"*": "\x1b[6;2~"}},

		// Function keys.
		{"f1", Key{Code: KeyF1}, want{"*": "\x1bOP", "kitty": "\x1b[P"}},
		{"ctrl+f1", Key{Code: KeyF1, Mod: ctrl}, want{"*": "\x1b[1;5P"}},
		{"f2", Key{Code: KeyF2}, want{"*": "\x1bOQ", "kitty": "\x1b[Q"}},
		{"f3", Key{Code: KeyF3}, want{"*": "\x1bOR", "kitty": "\x1b[13~"}},
		{"shift+f3", Key{Code: KeyF3, Mod: shift}, want{"*": "\x1b[1;2R", "kitty": "\x1b[13;2~"}},
		{"f4", Key{Code: KeyF4}, want{"*": "\x1bOS", "kitty": "\x1b[S"}},
		{"f5", Key{Code: KeyF5}, want{"*": "\x1b[15~"}},
		{"f6", Key{Code: KeyF6}, want{"*": "\x1b[17~"}},
		{"f10", Key{Code: KeyF10}, want{"*": "\x1b[21~"}},
		{"f11", Key{Code: KeyF11}, want{"*": "\x1b[23~"}},
		{"f12", Key{Code: KeyF12}, want{"*": "\x1b[24~"}},
		{"alt+f12", Key{Code: KeyF12, Mod: alt}, want{"*": "\x1b[24;3~"}},

		// Nothing to send.
		{"control code as key", Key{Code: 0x01}, want{"*": ""}},
		{"unknown named key", Key{Code: KeyF12 + 100}, want{"*": ""}},
		{"empty key", Key{}, want{"*": ""}},
	}
	for _, tt := range tests {
		for mode, m := range keyModes {
			exp, ok := tt.want.for_(mode, m)
			if !ok {
				t.Fatalf("%s: no expectation for mode %s", tt.name, mode)
			}
			got := string(EncodeKey(tt.key, m))
			if got != exp {
				t.Errorf("%s in %s: EncodeKey = %q, want %q", tt.name, mode, got, exp)
			}
		}
	}
}

// Escape must be the single byte 0x1b whatever the other modes say, unless
// the child asked for the kitty protocol.
func TestEncodeKeyEscapeIsOneByte(t *testing.T) {
	for _, m := range []Modes{{}, {CursorKeys: true}, {BracketedPaste: true}, {ModifyOtherKeys: 1},
		{Mouse: MouseAnyEvent, MouseSGR: true, FocusEvents: true, KeypadApplication: true}} {
		if got := EncodeKey(Key{Code: KeyEscape}, m); string(got) != "\x1b" {
			t.Errorf("modes %+v: Escape = %q, want \"\\x1b\"", m, got)
		}
	}
}

func TestEncodePaste(t *testing.T) {
	tests := []struct {
		name, text string
		bracketed  bool
		want       string
	}{
		{"plain", "hello", false, "hello"},
		{"plain newlines become CR", "a\nb\r\nc", false, "a\rb\rc"},
		{"bracketed", "hello", true, "\x1b[200~hello\x1b[201~"},
		{"bracketed keeps newlines", "a\nb", true, "\x1b[200~a\nb\x1b[201~"},
		{"end marker stripped", "a\x1b[201~rm -rf /\n", true, "\x1b[200~arm -rf /\n\x1b[201~"},
		{"start marker stripped", "\x1b[200~x", true, "\x1b[200~x\x1b[201~"},
		{"nested markers stripped", "a\x1b[20\x1b[201~1~b", true, "\x1b[200~ab\x1b[201~"},
		{"empty", "", true, ""},
	}
	for _, tt := range tests {
		for mode, m := range keyModes {
			m.BracketedPaste = tt.bracketed
			if got := string(EncodePaste(tt.text, m)); got != tt.want {
				t.Errorf("%s in %s: EncodePaste = %q, want %q", tt.name, mode, got, tt.want)
			}
		}
	}
}

func TestEncodeFocus(t *testing.T) {
	for _, tt := range []struct {
		on, in bool
		want   string
	}{
		{false, true, ""}, {false, false, ""}, {true, true, "\x1b[I"}, {true, false, "\x1b[O"},
	} {
		if got := string(EncodeFocus(tt.in, Modes{FocusEvents: tt.on})); got != tt.want {
			t.Errorf("EncodeFocus(in=%v, 1004=%v) = %q, want %q", tt.in, tt.on, got, tt.want)
		}
	}
}

func TestEncodeMouse(t *testing.T) {
	sgr := func(tr MouseTracking) Modes { return Modes{Mouse: tr, MouseSGR: true} }
	x10 := func(tr MouseTracking) Modes { return Modes{Mouse: tr} }
	ev := func(x, y int, b MouseButton, a MouseAction, mod Mod) MouseEvent {
		return MouseEvent{X: x, Y: y, Button: b, Action: a, Mod: mod}
	}
	tests := []struct {
		name  string
		ev    MouseEvent
		modes Modes
		want  string
	}{
		{"off", ev(1, 2, MouseLeft, MousePress, 0), Modes{}, ""},
		{"sgr press", ev(0, 0, MouseLeft, MousePress, 0), sgr(MouseNormal), "\x1b[<0;1;1M"},
		{"sgr release", ev(4, 9, MouseLeft, MouseRelease, 0), sgr(MouseNormal), "\x1b[<0;5;10m"},
		{"sgr right with ctrl", ev(2, 3, MouseRight, MousePress, ModCtrl), sgr(MouseNormal), "\x1b[<18;3;4M"},
		{"sgr wheel up", ev(10, 5, MouseWheelUp, MousePress, 0), sgr(MouseNormal), "\x1b[<64;11;6M"},
		{"sgr wheel down shift", ev(10, 5, MouseWheelDown, MousePress, ModShift), sgr(MouseAnyEvent), "\x1b[<69;11;6M"},
		{"sgr wheel release ignored", ev(10, 5, MouseWheelDown, MouseRelease, 0), sgr(MouseNormal), ""},
		{"sgr far cell", ev(300, 250, MouseMiddle, MousePress, 0), sgr(MouseNormal), "\x1b[<1;301;251M"},
		{"motion ignored in 1000", ev(1, 1, MouseLeft, MouseMotion, 0), sgr(MouseNormal), ""},
		{"drag in 1002", ev(1, 1, MouseLeft, MouseMotion, 0), sgr(MouseButtonEvent), "\x1b[<32;2;2M"},
		{"hover ignored in 1002", ev(1, 1, MouseNone, MouseMotion, 0), sgr(MouseButtonEvent), ""},
		{"hover in 1003", ev(1, 1, MouseNone, MouseMotion, 0), sgr(MouseAnyEvent), "\x1b[<35;2;2M"},
		{"x10 encoding press", ev(0, 0, MouseLeft, MousePress, 0), x10(MouseNormal), "\x1b[M !!"},
		{"x10 encoding release", ev(0, 0, MouseRight, MouseRelease, ModAlt), x10(MouseNormal), "\x1b[M+!!"},
		{"x10 encoding too far", ev(223, 0, MouseLeft, MousePress, 0), x10(MouseNormal), ""},
		{"x10 encoding last cell", ev(222, 222, MouseLeft, MousePress, 0), x10(MouseNormal), "\x1b[M \xff\xff"},
		{"x10 tracking: press without modifiers", ev(3, 4, MouseLeft, MousePress, ModCtrl), x10(MouseX10), "\x1b[M $%"},
		{"x10 tracking: no release", ev(3, 4, MouseLeft, MouseRelease, 0), x10(MouseX10), ""},
		{"negative cell", ev(-1, 0, MouseLeft, MousePress, 0), sgr(MouseNormal), ""},
		{"backward button", ev(0, 0, MouseBackward, MousePress, 0), sgr(MouseNormal), "\x1b[<128;1;1M"},
	}
	for _, tt := range tests {
		if got := string(EncodeMouse(tt.ev, tt.modes)); got != tt.want {
			t.Errorf("%s: EncodeMouse = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestWantsMouse(t *testing.T) {
	for tr := MouseOff; tr <= MouseAnyEvent; tr++ {
		if got, want := (Modes{Mouse: tr}).WantsMouse(), tr != MouseOff; got != want {
			t.Errorf("%v: WantsMouse = %v, want %v", tr, got, want)
		}
	}
}

func ExampleEncodeKey() {
	m := Modes{KittyFlags: KittyDisambiguate}
	fmt.Printf("%q\n", EncodeKey(Key{Code: KeyEnter, Mod: ModShift}, m))
	fmt.Printf("%q\n", EncodeKey(Key{Code: KeyEnter, Mod: ModShift}, Modes{}))
	fmt.Printf("%q\n", EncodeKey(Key{Code: KeyUp, Mod: ModCtrl}, Modes{}))
	// Output:
	// "\x1b[13;2u"
	// "\x1b\r"
	// "\x1b[1;5A"
}

// decodeKeys decodes what a terminal sent as hooksup's TUI does (Bubble Tea's input reader, for
// the terminal's $TERM) into the key presses Bubble Tea delivers.
func decodeKeys(t *testing.T, term string, in []byte) []tea.Key {
	t.Helper()
	r := uv.NewTerminalReader(bytes.NewReader(in), term)
	evc := make(chan uv.Event, 64)
	if err := r.StreamEvents(context.Background(), evc); err != nil {
		t.Fatalf("decoding %q: %v", in, err)
	}
	close(evc)
	var keys []tea.Key
	for ev := range evc {
		switch ev := ev.(type) {
		case uv.KeyPressEvent:
			keys = append(keys, tea.Key(ev))
		case uv.KeyReleaseEvent:
		default:
			t.Fatalf("decoding %q: %T %v, not a key press", in, ev, ev)
		}
	}
	return keys
}

// claudeModes are claude's keyboard modes in hooksup's pane: without answers to its queries
// (legacy), with modifyOtherKeys, and as it sets them in a terminal that speaks the kitty
// protocol (flags 5: disambiguate and alternate keys, and modifyOtherKeys 2), as hooksup's pane
// does.
var claudeModes = []struct {
	name  string
	modes Modes
}{
	{"legacy", Modes{}},
	{"mok2", Modes{ModifyOtherKeys: 2}},
	{"kitty", Modes{KittyFlags: KittyDisambiguate | KittyReportAlternates, ModifyOtherKeys: 2}},
}

// What macOS terminals send for Option-as-Meta, Shift+Enter and Option+arrows reaches claude as
// claude reads it (its parser: modifier bits shift 1, meta 2 — Option —, ctrl 4, super 8): the
// bytes are decoded as the TUI decodes them, and encoded for claude's modes as the pane does.
// Claude's newline is Shift+Enter or Meta+Enter: ESC CR without the kitty protocol.
func TestMacOSKeysReachClaude(t *testing.T) {
	const (
		xterm  = "xterm-256color" // Terminal.app, iTerm2
		ghosty = "xterm-ghostty"
		kitty  = "xterm-kitty"
	)
	tests := []struct {
		terminal, key, term, in string
		want                    map[string]string // by claudeModes name
	}{
		// Option as Meta (Terminal.app "Use Option as Meta key", iTerm2 "Esc+"): ESC prefix.
		{"Terminal.app, Option as Meta", "Option+b", xterm, "\x1bb",
			map[string]string{"legacy": "\x1bb", "mok2": "\x1b[27;3;98~", "kitty": "\x1b[98;3u"}},
		{"Terminal.app, Option as Meta", "Option+f", xterm, "\x1bf",
			map[string]string{"legacy": "\x1bf", "mok2": "\x1b[27;3;102~", "kitty": "\x1b[102;3u"}},
		{"Terminal.app, Option as Meta", "Option+Shift+b", xterm, "\x1bB",
			map[string]string{"legacy": "\x1bB", "mok2": "\x1b[27;4;66~", "kitty": "\x1b[98:66;4u"}},
		{"Terminal.app, Option as Meta", "Option+Delete", xterm, "\x1b\x7f",
			map[string]string{"legacy": "\x1b\x7f", "mok2": "\x1b[27;3;127~", "kitty": "\x1b[127;3u"}},
		{"Terminal.app, Option as Meta", "Option+Enter (claude's newline there)", xterm, "\x1b\r",
			map[string]string{"legacy": "\x1b\r", "mok2": "\x1b[27;3;13~", "kitty": "\x1b[13;3u"}},
		{"Terminal.app", "Option+Left (its default: ESC b)", xterm, "\x1bb",
			map[string]string{"legacy": "\x1bb", "mok2": "\x1b[27;3;98~", "kitty": "\x1b[98;3u"}},
		{"Terminal.app", "Shift+Enter (sent as Enter)", xterm, "\r",
			map[string]string{"legacy": "\r", "mok2": "\r", "kitty": "\r"}},
		{"VS Code, after claude's /terminal-setup", "Shift+Enter", xterm, "\x1b\r",
			map[string]string{"legacy": "\x1b\r", "mok2": "\x1b[27;3;13~", "kitty": "\x1b[13;3u"}},
		{"iTerm2, Option as Esc+", "Option+Left", xterm, "\x1b\x1b[D",
			map[string]string{"legacy": "\x1b[1;3D", "mok2": "\x1b[1;3D", "kitty": "\x1b[1;3D"}},
		{"iTerm2, Option as Esc+", "Option+Right", xterm, "\x1b\x1b[C",
			map[string]string{"legacy": "\x1b[1;3C", "mok2": "\x1b[1;3C", "kitty": "\x1b[1;3C"}},
		// xterm's Meta modifier (9 = 1 + 8) is Option: claude reads 8 as super, so it becomes Alt.
		{"iTerm2, Option as Normal", "Option+Left", xterm, "\x1b[1;9D",
			map[string]string{"legacy": "\x1b[1;3D", "mok2": "\x1b[1;3D", "kitty": "\x1b[1;3D"}},
		{"iTerm2, Option as Normal", "Option+Shift+Right", xterm, "\x1b[1;10C",
			map[string]string{"legacy": "\x1b[1;4C", "mok2": "\x1b[1;4C", "kitty": "\x1b[1;4C"}},
		{"iTerm2, CSI u", "Shift+Enter", xterm, "\x1b[13;2u",
			map[string]string{"legacy": "\x1b\r", "mok2": "\x1b[27;2;13~", "kitty": "\x1b[13;2u"}},
		{"iTerm2, modifyOtherKeys", "Shift+Enter", xterm, "\x1b[27;2;13~",
			map[string]string{"legacy": "\x1b\r", "mok2": "\x1b[27;2;13~", "kitty": "\x1b[13;2u"}},
		{"Ghostty", "Option+Left", ghosty, "\x1b[1;3D",
			map[string]string{"legacy": "\x1b[1;3D", "mok2": "\x1b[1;3D", "kitty": "\x1b[1;3D"}},
		{"Ghostty, kitty protocol", "Shift+Enter", ghosty, "\x1b[13;2u",
			map[string]string{"legacy": "\x1b\r", "mok2": "\x1b[27;2;13~", "kitty": "\x1b[13;2u"}},
		{"Ghostty, kitty protocol", "Option+b (macos-option-as-alt)", ghosty, "\x1b[98;3u",
			map[string]string{"legacy": "\x1bb", "mok2": "\x1b[27;3;98~", "kitty": "\x1b[98;3u"}},
		{"kitty, keyboard protocol", "Shift+Enter", kitty, "\x1b[13;2u",
			map[string]string{"legacy": "\x1b\r", "mok2": "\x1b[27;2;13~", "kitty": "\x1b[13;2u"}},
		{"kitty, keyboard protocol", "Option+Enter", kitty, "\x1b[13;3u",
			map[string]string{"legacy": "\x1b\r", "mok2": "\x1b[27;3;13~", "kitty": "\x1b[13;3u"}},
		{"kitty, keyboard protocol", "Option+b (macos_option_as_alt)", kitty, "\x1b[98;3u",
			map[string]string{"legacy": "\x1bb", "mok2": "\x1b[27;3;98~", "kitty": "\x1b[98;3u"}},
		{"kitty, keyboard protocol", "Option+Left", kitty, "\x1b[1;3D",
			map[string]string{"legacy": "\x1b[1;3D", "mok2": "\x1b[1;3D", "kitty": "\x1b[1;3D"}},
		{"kitty, keyboard protocol", "Option+Delete", kitty, "\x1b[127;3u",
			map[string]string{"legacy": "\x1b\x7f", "mok2": "\x1b[27;3;127~", "kitty": "\x1b[127;3u"}},
		{"kitty, no keyboard protocol", "Option+b (macos_option_as_alt)", kitty, "\x1bb",
			map[string]string{"legacy": "\x1bb", "mok2": "\x1b[27;3;98~", "kitty": "\x1b[98;3u"}},
		{"kitty, no keyboard protocol", "Option+Right", kitty, "\x1b[1;3C",
			map[string]string{"legacy": "\x1b[1;3C", "mok2": "\x1b[1;3C", "kitty": "\x1b[1;3C"}},
	}
	for _, tc := range tests {
		keys := decodeKeys(t, tc.term, []byte(tc.in))
		if len(keys) != 1 {
			t.Errorf("%s, %s: %q decodes to %d keys %v", tc.terminal, tc.key, tc.in, len(keys), keys)
			continue
		}
		k, ok := KeyFromTea(keys[0])
		if !ok {
			t.Errorf("%s, %s: %q (%v) is not a key for claude", tc.terminal, tc.key, tc.in, keys[0])
			continue
		}
		for _, cm := range claudeModes {
			if got, want := string(EncodeKey(k, cm.modes)), tc.want[cm.name]; got != want {
				t.Errorf("%s, %s: %q (%v) reaches claude (%s) as %q, want %q", tc.terminal, tc.key, tc.in, keys[0], cm.name, got, want)
			}
		}
	}
}
