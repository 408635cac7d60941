package vterm

// MouseTracking is the mouse reporting mode a child program asked for.
type MouseTracking uint8

// Mouse tracking modes, from DEC private modes 9, 1000, 1002 and 1003.
const (
	// MouseOff: the child wants no mouse events; the wheel may scroll the
	// caller's own scrollback.
	MouseOff MouseTracking = iota
	// MouseX10 (mode 9): button presses only, no modifiers.
	MouseX10
	// MouseNormal (mode 1000): presses, releases and the wheel.
	MouseNormal
	// MouseButtonEvent (mode 1002): as MouseNormal, plus motion while a
	// button is held.
	MouseButtonEvent
	// MouseAnyEvent (mode 1003): as MouseNormal, plus all motion.
	MouseAnyEvent
)

// String returns the DEC mode name of m.
func (m MouseTracking) String() string {
	switch m {
	case MouseX10:
		return "x10"
	case MouseNormal:
		return "normal"
	case MouseButtonEvent:
		return "button-event"
	case MouseAnyEvent:
		return "any-event"
	default:
		return "off"
	}
}

// Kitty keyboard protocol progressive enhancement flags.
const (
	// KittyDisambiguate (1): Esc, and keys with Ctrl or Alt, are sent as
	// CSI u; modified Enter, Tab and Backspace too.
	KittyDisambiguate = 1
	// KittyReportAlternates (4): CSI u sequences carry the shifted key as a
	// sub-parameter when Shift is held.
	KittyReportAlternates = 4

	// kittySupported is the set of flags this package implements. Flags a
	// child pushes outside this set are dropped, so a query reports only what
	// the key encoder really does.
	kittySupported = KittyDisambiguate | KittyReportAlternates
	// kittyStackMax bounds each kitty flag stack, as the spec asks.
	kittyStackMax = 16
)

// Modes is a snapshot of the child's input-related terminal modes: what
// [EncodeKey], [EncodePaste], [EncodeFocus] and [EncodeMouse] need.
type Modes struct {
	// CursorKeys is DECCKM (mode 1): unmodified arrows, Home and End are sent
	// in their SS3 forms.
	CursorKeys bool
	// KeypadApplication is DECKPAM / DECNKM (mode 66).
	KeypadApplication bool
	// BracketedPaste is mode 2004.
	BracketedPaste bool
	// FocusEvents is mode 1004.
	FocusEvents bool
	// Mouse is the mouse tracking mode (9, 1000, 1002, 1003).
	Mouse MouseTracking
	// MouseSGR is mode 1006: mouse events use the SGR encoding.
	MouseSGR bool
	// ModifyOtherKeys is xterm's modifyOtherKeys level (CSI > 4 ; N m): 0, 1
	// or 2.
	ModifyOtherKeys int
	// KittyFlags are the kitty keyboard flags in force on the active screen
	// (only the bits this package implements).
	KittyFlags int
	// AltScreen reports whether the alternate screen is active.
	AltScreen bool
}

// WantsMouse reports whether the child asked for mouse events. When it did
// not, the caller may use the wheel for its own scrollback.
func (m Modes) WantsMouse() bool { return m.Mouse != MouseOff }

// inputModes is the mode state this package tracks itself from the child's
// output (x/vt tracks the screen-related ones).
type inputModes struct {
	cursorKeys      bool
	keypadApp       bool
	bracketedPaste  bool
	focusEvents     bool
	mouse           MouseTracking
	mouseSGR        bool
	modifyOtherKeys int
	// kitty holds one flag stack per screen (0 main, 1 alternate); the last
	// element is the current flags, an empty stack means 0.
	kitty [2][]int
}

// setDEC applies DEC private mode n being set or reset. It reports whether
// the mode is one tracked here.
func (m *inputModes) setDEC(n int, set bool) bool {
	switch n {
	case 1:
		m.cursorKeys = set
	case 66:
		m.keypadApp = set
	case 1004:
		m.focusEvents = set
	case 1006:
		m.mouseSGR = set
	case 2004:
		m.bracketedPaste = set
	case 9, 1000, 1002, 1003:
		mode := mouseModeOf(n)
		switch {
		case set:
			m.mouse = mode
		case m.mouse == mode:
			// xterm keeps one tracking mode: resetting the one in force
			// switches tracking off; resetting another one changes nothing.
			m.mouse = MouseOff
		}
	default:
		return false
	}
	return true
}

// mouseModeOf maps DEC private mode 9, 1000, 1002 or 1003 to its tracking
// mode.
func mouseModeOf(n int) MouseTracking {
	switch n {
	case 9:
		return MouseX10
	case 1000:
		return MouseNormal
	case 1002:
		return MouseButtonEvent
	case 1003:
		return MouseAnyEvent
	}
	return MouseOff
}

// decState reports the DECRQM state of DEC private mode n as far as this
// package knows it: 1 set, 2 reset, or 0 when the mode is not one tracked
// here.
func (m *inputModes) decState(n int) int {
	var on bool
	switch n {
	case 1:
		on = m.cursorKeys
	case 66:
		on = m.keypadApp
	case 1004:
		on = m.focusEvents
	case 1006:
		on = m.mouseSGR
	case 2004:
		on = m.bracketedPaste
	case 9, 1000, 1002, 1003:
		on = m.mouse == mouseModeOf(n)
	default:
		return 0
	}
	if on {
		return 1
	}
	return 2
}

// kittyFlags returns the flags in force on screen s.
func (m *inputModes) kittyFlags(s int) int {
	st := m.kitty[s]
	if len(st) == 0 {
		return 0
	}
	return st[len(st)-1]
}

// kittyPush pushes flags onto screen s's stack, evicting the oldest entry
// when the stack is full.
func (m *inputModes) kittyPush(s, flags int) {
	st := m.kitty[s]
	if len(st) >= kittyStackMax {
		st = append(st[:0], st[1:]...)
	}
	m.kitty[s] = append(st, flags&kittySupported)
}

// kittyPop pops n entries from screen s's stack; popping everything resets
// the flags.
func (m *inputModes) kittyPop(s, n int) {
	st := m.kitty[s]
	if n >= len(st) {
		m.kitty[s] = st[:0]
		return
	}
	m.kitty[s] = st[:len(st)-n]
}

// kittySet changes the current flags of screen s (CSI = flags ; mode u):
// mode 1 replaces them, 2 sets the given bits, 3 clears them.
func (m *inputModes) kittySet(s, flags, mode int) {
	cur := m.kittyFlags(s)
	switch mode {
	case 1:
		cur = flags
	case 2:
		cur |= flags
	case 3:
		cur &^= flags
	default:
		return
	}
	cur &= kittySupported
	st := m.kitty[s]
	if len(st) == 0 {
		m.kitty[s] = append(st, cur)
		return
	}
	st[len(st)-1] = cur
}

// reset returns every tracked mode to its power-on value (RIS).
func (m *inputModes) reset() {
	k := m.kitty
	*m = inputModes{}
	m.kitty = [2][]int{k[0][:0], k[1][:0]}
}
