package vterm

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mod is a set of key modifiers. The bits are those of xterm's and kitty's
// modifier parameter (which is 1 + the bits).
type Mod uint8

// Modifiers.
const (
	ModShift Mod = 1 << iota
	ModAlt
	ModCtrl
)

// Key codes of keys that are characters use the character: Enter is '\r',
// Tab '\t', Backspace 0x7f, Escape 0x1b and Space ' ', as in Bubble Tea and
// the kitty protocol.
const (
	KeyEnter     rune = '\r'
	KeyTab       rune = '\t'
	KeyBackspace rune = 0x7f
	KeyEscape    rune = 0x1b
	KeySpace     rune = ' '
)

// Key codes of keys that are not characters, beyond the Unicode range.
const (
	KeyUp rune = unicode.MaxRune + 1 + iota
	KeyDown
	KeyRight
	KeyLeft
	KeyHome
	KeyEnd
	KeyPgUp
	KeyPgDown
	KeyInsert
	KeyDelete
	KeyF1
	KeyF2
	KeyF3
	KeyF4
	KeyF5
	KeyF6
	KeyF7
	KeyF8
	KeyF9
	KeyF10
	KeyF11
	KeyF12
)

// Key is a key press to send to the child.
type Key struct {
	// Code is the key: a character — the unshifted one, 'a' for Shift+A —
	// or one of the Key constants.
	Code rune
	// Mod holds the modifiers held down.
	Mod Mod
	// Text is the text the key types when it differs from Code: "A" for
	// Shift+a, "é" from a dead key, several characters from an input
	// method. Optional: when empty, Code (shifted on a US layout when Shift
	// is held) is the text. With Code 0, Text alone is typed.
	Text string
}

// functional describes how a non-character key is encoded: letter is the
// final byte of the CSI 1;m X / SS3 X form, num the parameter of the
// CSI num;m ~ form.
type functional struct {
	letter byte
	num    int
	ss3    bool // F1–F4: SS3 when unmodified, whatever DECCKM says
}

var functionalKeys = map[rune]functional{
	KeyUp:     {letter: 'A'},
	KeyDown:   {letter: 'B'},
	KeyRight:  {letter: 'C'},
	KeyLeft:   {letter: 'D'},
	KeyHome:   {letter: 'H'},
	KeyEnd:    {letter: 'F'},
	KeyInsert: {num: 2},
	KeyDelete: {num: 3},
	KeyPgUp:   {num: 5},
	KeyPgDown: {num: 6},
	KeyF1:     {letter: 'P', ss3: true},
	KeyF2:     {letter: 'Q', ss3: true},
	KeyF3:     {letter: 'R', ss3: true, num: 13},
	KeyF4:     {letter: 'S', ss3: true},
	KeyF5:     {num: 15},
	KeyF6:     {num: 17},
	KeyF7:     {num: 18},
	KeyF8:     {num: 19},
	KeyF9:     {num: 20},
	KeyF10:    {num: 21},
	KeyF11:    {num: 23},
	KeyF12:    {num: 24},
}

// EncodeKey returns the bytes to write to the pty for k, given the child's
// modes. It returns nil for a key it cannot encode.
//
// Without the kitty protocol or modifyOtherKeys, keys follow xterm: Escape is
// exactly 0x1b, Alt prefixes ESC, Ctrl maps characters to C0 controls (the
// kitty table), arrows, Home, End, PgUp, PgDn, Insert, Delete and F1–F12 carry
// xterm's modifier parameter (CSI 1;5A is Ctrl+Up), unmodified arrows, Home
// and End use SS3 under DECCKM, Shift+Tab is CSI Z.
//
// Shift+Enter has no legacy encoding. It is sent as ESC CR, which is also
// Alt+Enter: Claude Code treats it as "insert a newline" (as its own
// /terminal-setup makes terminals send), and a program that does not know it
// sees Alt+Enter rather than a submitting Enter. Under the kitty protocol it
// is CSI 13;2u, under modifyOtherKeys CSI 27;2;13~.
//
// When the child pushed kitty flag 1 (disambiguate), Escape is CSI 27u, keys
// with Ctrl or Alt are CSI code;mods u, modified Enter, Tab and Backspace are
// CSI u too, and unmodified functional keys use their CSI forms; with flag 4
// the shifted key is added when Shift is held. With modifyOtherKeys 2,
// modified keys are CSI 27;mods;code~; level 1 does so only where the legacy
// encoding loses the modifier.
func EncodeKey(k Key, m Modes) []byte {
	mods := k.Mod & (ModShift | ModAlt | ModCtrl)
	kitty := m.KittyFlags&KittyDisambiguate != 0
	switch k.Code {
	case KeyEscape:
		return encodeEscape(mods, m, kitty)
	case KeyEnter, KeyTab, KeyBackspace:
		return encodeC0Key(k.Code, mods, m, kitty)
	}
	if fk, ok := functionalKeys[k.Code]; ok {
		return encodeFunctional(fk, mods, m, kitty)
	}
	if k.Code > unicode.MaxRune || (k.Code < 0x20 && k.Code != 0) || k.Code == 0x7F ||
		(k.Code == 0 && k.Text == "") {
		return nil
	}
	return encodeText(k, mods, m, kitty)
}

// modParam is the modifier parameter of CSI sequences.
func modParam(mods Mod) int { return 1 + int(mods) }

// csiU is the kitty encoding CSI code[:shifted][;mods] u.
func csiU(code rune, mods Mod, shifted rune) []byte {
	b := append([]byte(nil), "\x1b["...)
	b = strconv.AppendInt(b, int64(code), 10)
	if shifted != 0 {
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(shifted), 10)
	}
	if mods != 0 {
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(modParam(mods)), 10)
	}
	return append(b, 'u')
}

// csi27 is xterm's modifyOtherKeys encoding CSI 27;mods;code~.
func csi27(code rune, mods Mod) []byte {
	b := append([]byte(nil), "\x1b[27;"...)
	b = strconv.AppendInt(b, int64(modParam(mods)), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(code), 10)
	return append(b, '~')
}

func encodeEscape(mods Mod, m Modes, kitty bool) []byte {
	switch {
	case kitty:
		return csiU(KeyEscape, mods, 0)
	case m.ModifyOtherKeys >= 2 && mods != 0:
		return csi27(KeyEscape, mods)
	case mods&ModAlt != 0:
		return []byte{0x1b, 0x1b}
	default:
		return []byte{0x1b}
	}
}

func encodeC0Key(code rune, mods Mod, m Modes, kitty bool) []byte {
	if kitty {
		if mods == 0 {
			return []byte{byte(code)}
		}
		return csiU(code, mods, 0)
	}
	shiftTab := code == KeyTab && mods&^ModAlt == ModShift
	if m.ModifyOtherKeys >= 2 && mods != 0 && !shiftTab ||
		m.ModifyOtherKeys == 1 && mods&^ModAlt != 0 && !shiftTab {
		return csi27(code, mods)
	}
	var b []byte
	if mods&ModAlt != 0 {
		b = append(b, 0x1b)
	}
	switch code {
	case KeyEnter:
		if mods&ModShift != 0 && mods&ModAlt == 0 {
			b = append(b, 0x1b) // Shift+Enter: see EncodeKey
		}
		return append(b, '\r')
	case KeyTab:
		if mods&ModShift != 0 {
			return append(b, "\x1b[Z"...)
		}
		return append(b, '\t')
	default: // Backspace
		if mods&ModCtrl != 0 {
			return append(b, 0x08)
		}
		return append(b, 0x7F)
	}
}

func encodeFunctional(fk functional, mods Mod, m Modes, kitty bool) []byte {
	b := []byte("\x1b[")
	if fk.letter != 0 && !(kitty && fk.num != 0) {
		if mods == 0 {
			switch {
			case kitty:
			case fk.ss3 || m.CursorKeys:
				b[1] = 'O'
			}
			return append(b, fk.letter)
		}
		b = append(b, "1;"...)
		b = strconv.AppendInt(b, int64(modParam(mods)), 10)
		return append(b, fk.letter)
	}
	b = strconv.AppendInt(b, int64(fk.num), 10)
	if mods != 0 {
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(modParam(mods)), 10)
	}
	return append(b, '~')
}

func encodeText(k Key, mods Mod, m Modes, kitty bool) []byte {
	base := k.Code
	text := k.Text
	if unicode.IsUpper(base) {
		// A caller that passes the shifted letter as the code.
		if text == "" {
			text = string(base)
		}
		base = unicode.ToLower(base)
	}
	if text == "" && base != 0 {
		if mods&ModShift != 0 {
			text = string(shiftRune(base))
		} else {
			text = string(base)
		}
	}
	if base == 0 {
		// Text without a key (an input method): nothing to modify.
		if mods&ModAlt != 0 {
			return append([]byte{0x1b}, text...)
		}
		return []byte(text)
	}
	ctrlAlt := mods&(ModCtrl|ModAlt) != 0

	switch {
	case kitty:
		if !ctrlAlt {
			return []byte(text)
		}
		var shifted rune
		if mods&ModShift != 0 && m.KittyFlags&KittyReportAlternates != 0 {
			shifted = shiftedOf(base, text)
		}
		return csiU(base, mods, shifted)
	case m.ModifyOtherKeys >= 2 && ctrlAlt:
		code := base
		if mods&ModShift != 0 {
			if s := shiftedOf(base, text); s != 0 {
				code = s
			}
		}
		return csi27(code, mods)
	case m.ModifyOtherKeys == 1 && mods&ModCtrl != 0:
		if _, ok := ctrlByte(base); !ok {
			return csi27(base, mods)
		}
	}

	var b []byte
	if mods&ModAlt != 0 {
		b = append(b, 0x1b)
	}
	if mods&ModCtrl != 0 {
		if c, ok := ctrlByte(base); ok {
			return append(b, c)
		}
	}
	return append(b, text...)
}

// shiftedOf returns the shifted form of base: text when it is a single
// other character, else base shifted on a US layout; 0 if there is none.
func shiftedOf(base rune, text string) rune {
	if r, size := utf8.DecodeRuneInString(text); size == len(text) && r != utf8.RuneError && r != base {
		return r
	}
	if s := shiftRune(base); s != base {
		return s
	}
	return 0
}

// usShift maps unshifted keys of a US layout to their shifted characters.
var usShift = map[rune]rune{
	'1': '!', '2': '@', '3': '#', '4': '$', '5': '%', '6': '^', '7': '&', '8': '*',
	'9': '(', '0': ')', '-': '_', '=': '+', '[': '{', ']': '}', '\\': '|', ';': ':',
	'\'': '"', ',': '<', '.': '>', '/': '?', '`': '~',
}

// shiftRune returns r as typed with Shift on a US layout.
func shiftRune(r rune) rune {
	if s, ok := usShift[r]; ok {
		return s
	}
	return unicode.ToUpper(r)
}

// ctrlByte maps a key pressed with Ctrl to its C0 control, per the kitty
// protocol's table of legacy Ctrl mappings (a superset of the VT100's).
func ctrlByte(r rune) (byte, bool) {
	switch {
	case r >= 'a' && r <= 'z':
		return byte(r - 'a' + 1), true
	case r >= '[' && r <= '_': // [ \ ] ^ _
		return byte(r - '[' + 27), true
	}
	switch r {
	case ' ', '@', '2':
		return 0, true
	case '3':
		return 27, true
	case '4':
		return 28, true
	case '5':
		return 29, true
	case '6', '~':
		return 30, true
	case '7', '/':
		return 31, true
	case '8', '?':
		return 127, true
	}
	return 0, false
}

// EncodePaste returns the bytes to write to the pty for pasted text. With
// bracketed paste (mode 2004) the text is wrapped in ESC[200~ … ESC[201~
// after removing any paste markers inside it, so the paste cannot end early
// and run the rest as typed keys. Without it, line breaks are sent as CR, as
// a terminal does. Empty text gives nil.
func EncodePaste(text string, m Modes) []byte {
	if text == "" {
		return nil
	}
	if !m.BracketedPaste {
		text = strings.ReplaceAll(text, "\r\n", "\r")
		return []byte(strings.ReplaceAll(text, "\n", "\r"))
	}
	for {
		s := strings.ReplaceAll(text, "\x1b[200~", "")
		s = strings.ReplaceAll(s, "\x1b[201~", "")
		if s == text {
			break
		}
		text = s
	}
	b := make([]byte, 0, len(text)+12)
	b = append(b, "\x1b[200~"...)
	b = append(b, text...)
	return append(b, "\x1b[201~"...)
}

// EncodeFocus returns CSI I (focus in) or CSI O (focus out) when the child
// enabled focus events (mode 1004), else nil.
func EncodeFocus(in bool, m Modes) []byte {
	switch {
	case !m.FocusEvents:
		return nil
	case in:
		return []byte("\x1b[I")
	default:
		return []byte("\x1b[O")
	}
}
