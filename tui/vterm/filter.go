package vterm

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The pre-filter is a small VT parser in front of x/vt. It passes text and
// ordinary sequences through, but it
//   - parses OSC, DCS, APC, PM and SOS strings itself, terminated only by BEL
//     (OSC) or ESC \ — never by the byte 0x9C, which occurs inside UTF-8 (the
//     "✳" of Claude Code's title is E2 9C B3) and which x/vt takes for ST;
//   - keeps window titles (OSC 0/1/2) away from the emulator;
//   - rewrites CSI sequences with capped parameters and clamped margins;
//   - answers or tracks the queries and modes this package owns;
//   - hands x/vt only complete sequences and valid UTF-8 (invalid bytes
//     become U+FFFD; a lone C1 byte never reaches x/vt as a control).
// Its state survives across writes, so any sequence may be split anywhere.

// Filter limits.
const (
	maxParam     = 65535    // numeric CSI parameters are capped to this
	maxParams    = 32       // x/vt keeps at most 32 parameters
	maxInter     = 2        // intermediate bytes kept per sequence
	maxString    = 64 << 10 // OSC/DCS payload kept; longer strings are dropped
	maxTitle     = 512      // bytes of title kept
	maxTitleKeep = 10       // depth of the CSI 22 t title stack
)

type fstate uint8

const (
	stGround fstate = iota
	stEsc
	stEscInter
	stCSI
	stString    // inside OSC/DCS/APC/PM/SOS/ESC k
	stStringEsc // saw ESC inside a string
)

// csiParam is one CSI parameter: v is -1 when missing; sub is true when the
// parameter was followed by ':' (a sub-parameter follows).
type csiParam struct {
	v   int
	sub bool
}

// filter is the pre-filter state.
type filter struct {
	state fstate

	// A UTF-8 sequence being collected in the ground state.
	u8     [4]byte
	u8n    int // bytes collected
	u8need int // total length expected

	// ESC and CSI sequences.
	inter     []byte
	prefix    byte
	params    []csiParam
	cur       int  // current parameter value, -1 if no digit yet
	hasParams bool // any parameter byte seen
	bad       bool // malformed or oversized: dropped at its final byte

	// Strings.
	kind byte // ']' OSC, 'P' DCS, '_' APC, '^' PM, 'X' SOS, 'k' screen title
	str  []byte
	over bool // str exceeded maxString
}

var replacementChar = []byte("\uFFFD")

// feed runs p through the pre-filter, appending to t.out what the emulator
// should see and acting on what it should not. Called with t.mu held.
func (t *Terminal) feed(p []byte) {
	f := &t.f
	for i := 0; i < len(p); i++ {
		b := p[i]
		switch f.state {
		case stGround:
			if f.u8n > 0 {
				if b >= 0x80 && b <= 0xBF {
					f.u8[f.u8n] = b
					f.u8n++
					if f.u8n == f.u8need {
						t.out = append(t.out, f.u8[:f.u8n]...)
						f.u8n = 0
					}
					continue
				}
				// A broken sequence: show it as one replacement character
				// and look at b afresh.
				t.out = append(t.out, replacementChar...)
				f.u8n = 0
			}
			if b == 0x1b {
				f.state = stEsc
				continue
			}
			// Fast path: a run of ASCII text, C0 controls and whole, valid UTF-8
			// characters (which the byte by byte path below passes on unchanged).
			j := i
			for j < len(p) {
				if c := p[j]; c < utf8.RuneSelf {
					if c == 0x1b {
						break
					}
					j++
					continue
				}
				r, size := utf8.DecodeRune(p[j:])
				if r == utf8.RuneError && size <= 1 {
					break
				}
				j += size
			}
			if j > i {
				t.out = append(t.out, p[i:j]...)
				i = j - 1
				continue
			}
			switch {
			case b >= 0xC2 && b <= 0xDF:
				f.u8[0], f.u8n, f.u8need = b, 1, 2
			case b >= 0xE0 && b <= 0xEF:
				f.u8[0], f.u8n, f.u8need = b, 1, 3
			case b >= 0xF0 && b <= 0xF4:
				f.u8[0], f.u8n, f.u8need = b, 1, 4
			default:
				// A continuation byte without a lead, a C1 control, or a
				// byte that never occurs in UTF-8.
				t.out = append(t.out, replacementChar...)
			}

		case stEsc:
			switch {
			case b == '[':
				f.startCSI()
				f.state = stCSI
			case b == ']' || b == 'P' || b == '_' || b == '^' || b == 'X' || b == 'k':
				f.kind, f.str, f.over = b, f.str[:0], false
				f.state = stString
			case b >= 0x20 && b <= 0x2F:
				f.inter = append(f.inter[:0], b)
				f.bad = false
				f.state = stEscInter
			case b >= 0x30 && b <= 0x7E:
				f.state = stGround
				t.escDispatch(nil, b)
			case b == 0x1b:
				// ESC ESC: the first one is dropped.
			case b == 0x18 || b == 0x1A:
				f.state = stGround
			case b < 0x20:
				t.out = append(t.out, b)
			case b == 0x7F:
			default:
				f.state = stGround
				i--
			}

		case stEscInter:
			switch {
			case b >= 0x20 && b <= 0x2F:
				if len(f.inter) < maxInter {
					f.inter = append(f.inter, b)
				} else {
					f.bad = true
				}
			case b >= 0x30 && b <= 0x7E:
				f.state = stGround
				if !f.bad {
					t.escDispatch(f.inter, b)
				}
			case b == 0x1b:
				f.state = stEsc
			case b == 0x18 || b == 0x1A:
				f.state = stGround
			case b < 0x20:
				t.out = append(t.out, b)
			case b == 0x7F:
			default:
				f.state = stGround
				i--
			}

		case stCSI:
			switch {
			case b >= '0' && b <= '9':
				if len(f.inter) > 0 {
					f.bad = true
				}
				f.hasParams = true
				if f.cur < 0 {
					f.cur = 0
				}
				f.cur = min(f.cur*10+int(b-'0'), maxParam)
			case b == ';' || b == ':':
				if len(f.inter) > 0 {
					f.bad = true
				}
				f.hasParams = true
				if len(f.params) < maxParams {
					f.params = append(f.params, csiParam{v: f.cur, sub: b == ':'})
				} else {
					f.bad = true
				}
				f.cur = -1
			case b >= 0x3C && b <= 0x3F:
				if f.hasParams || f.prefix != 0 || len(f.inter) > 0 {
					f.bad = true
				} else {
					f.prefix = b
				}
			case b >= 0x20 && b <= 0x2F:
				if len(f.inter) < maxInter {
					f.inter = append(f.inter, b)
				} else {
					f.bad = true
				}
			case b >= 0x40 && b <= 0x7E:
				f.state = stGround
				if f.hasParams {
					if len(f.params) < maxParams {
						f.params = append(f.params, csiParam{v: f.cur})
					} else {
						f.bad = true
					}
				}
				if !f.bad {
					t.csiDispatch(b)
				}
			case b == 0x1b:
				f.state = stEsc
			case b == 0x18 || b == 0x1A:
				f.state = stGround
			case b < 0x20:
				t.out = append(t.out, b)
			case b == 0x7F:
			default:
				f.state = stGround
				i--
			}

		case stString:
			switch {
			case b == 0x1b:
				f.state = stStringEsc
			case b == 0x07 && f.kind == ']':
				f.state = stGround
				t.stringDispatch()
			case b == 0x18 || b == 0x1A:
				f.state = stGround
			case b < 0x20 && f.kind == ']':
				// Other C0 controls inside OSC are ignored, as xterm does.
			default:
				if len(f.str) < maxString {
					f.str = append(f.str, b)
				} else {
					f.over = true
				}
			}

		case stStringEsc:
			switch {
			case b == '\\':
				f.state = stGround
				t.stringDispatch()
			case b == 0x1b && f.kind == 'P':
				// tmux-style passthrough doubles ESC inside DCS.
				f.state = stString
				if len(f.str) < maxString {
					f.str = append(f.str, b)
				}
			default:
				// ESC ends the string and starts a new sequence.
				t.stringDispatch()
				f.state = stEsc
				i--
			}
		}
	}
}

// startCSI resets the CSI collection state.
func (f *filter) startCSI() {
	f.prefix = 0
	f.params = f.params[:0]
	f.inter = f.inter[:0]
	f.cur = -1
	f.hasParams = false
	f.bad = false
}

// param returns parameter i, or def when it is missing or zero-defaulted
// (CSI parameters of value 0 mean the default for counts; callers that care
// about 0 use rawParam).
func (f *filter) param(i, def int) int {
	if i >= len(f.params) || f.params[i].v <= 0 {
		return def
	}
	return f.params[i].v
}

// rawParam returns parameter i, or def when it is missing.
func (f *filter) rawParam(i, def int) int {
	if i >= len(f.params) || f.params[i].v < 0 {
		return def
	}
	return f.params[i].v
}

// escDispatch handles ESC inter final. Called with t.mu held.
func (t *Terminal) escDispatch(inter []byte, final byte) {
	if len(inter) == 0 {
		switch final {
		case '\\':
			// A lone ST: nothing to terminate.
			return
		case 'c': // RIS
			t.modes.reset()
			t.out = append(t.out, 0x1b, final)
			t.flush()
			return
		case '=': // DECKPAM
			t.modes.keypadApp = true
		case '>': // DECKPNM
			t.modes.keypadApp = false
		case '8': // DECRC
			t.out = append(t.out, 0x1b, final)
			t.clampCursor()
			return
		}
	}
	t.out = append(t.out, 0x1b)
	t.out = append(t.out, inter...)
	t.out = append(t.out, final)
}

// emitCSI appends the collected CSI sequence with final byte final, its
// parameters capped, to t.out.
func (t *Terminal) emitCSI(final byte) {
	f := &t.f
	t.out = append(t.out, 0x1b, '[')
	if f.prefix != 0 {
		t.out = append(t.out, f.prefix)
	}
	for i, p := range f.params {
		if p.v >= 0 {
			t.out = strconv.AppendInt(t.out, int64(p.v), 10)
		}
		if i < len(f.params)-1 {
			if p.sub {
				t.out = append(t.out, ':')
			} else {
				t.out = append(t.out, ';')
			}
		}
	}
	t.out = append(t.out, f.inter...)
	t.out = append(t.out, final)
}

// csiDispatch handles a complete CSI sequence. Called with t.mu held.
func (t *Terminal) csiDispatch(final byte) {
	f := &t.f
	inter := byte(0)
	if len(f.inter) == 1 {
		inter = f.inter[0]
	} else if len(f.inter) > 1 {
		t.emitCSI(final)
		return
	}
	switch f.prefix {
	case 0:
		t.csiPlain(inter, final)
	case '?':
		t.csiPrivate(inter, final)
	case '>':
		switch {
		case inter == 0 && final == 'q' && f.rawParam(0, 0) == 0: // XTVERSION
			t.reply("\x1bP>|hooksup(" + sanitizeTitle(t.opts.Version) + ")\x1b\\")
		case inter == 0 && final == 'c': // DA2: x/vt answers
			t.emitCSI(final)
		case inter == 0 && final == 'u': // kitty: push flags
			if !t.opts.DisableKittyKeyboard {
				t.flush()
				t.modes.kittyPush(t.screenIndex(), f.rawParam(0, 0))
			}
		case inter == 0 && final == 'm': // XTMODKEYS
			switch res := f.rawParam(0, -1); res {
			case -1:
				t.modes.modifyOtherKeys = 0
			case 4:
				t.modes.modifyOtherKeys = min(f.rawParam(1, 0), 2)
			}
		case inter == 0 && final == 'n': // disable a key modifier resource
			if f.rawParam(0, -1) == 4 {
				t.modes.modifyOtherKeys = 0
			}
		}
		// Other '>' sequences are not passed on: x/vt would only log them.
	case '<':
		if inter == 0 && final == 'u' && !t.opts.DisableKittyKeyboard { // kitty: pop
			t.flush()
			t.modes.kittyPop(t.screenIndex(), f.param(0, 1))
		}
	case '=':
		if inter == 0 && final == 'u' && !t.opts.DisableKittyKeyboard { // kitty: set
			t.flush()
			t.modes.kittySet(t.screenIndex(), f.rawParam(0, 0), f.param(1, 1))
		}
		// DA3 (CSI = c) goes unanswered, as in most terminals.
	}
}

// csiPlain handles CSI sequences without a private prefix. Called with t.mu
// held.
func (t *Terminal) csiPlain(inter, final byte) {
	f := &t.f
	if inter != 0 {
		switch {
		case inter == '!' && final == 'p': // DECSTR soft reset
			t.modes.cursorKeys = false
			t.modes.keypadApp = false
			return
		}
		t.emitCSI(final)
		return
	}
	switch final {
	case 'b': // REP: a repeat beyond one screenful only costs time
		if len(f.params) > 0 {
			f.params[0].v = min(f.params[0].v, t.cols*t.rows)
		}
	case 'r': // DECSTBM
		top := max(f.param(0, 1), 1)
		bottom := min(f.param(1, t.rows), t.rows)
		if top >= bottom {
			return
		}
		f.params = append(f.params[:0], csiParam{v: top}, csiParam{v: bottom})
	case 's': // DECSLRM when DECLRMM is set, else SCOSC
		if len(f.params) > 0 {
			left := max(f.param(0, 1), 1)
			right := min(f.param(1, t.cols), t.cols)
			if left >= right {
				return
			}
			f.params = append(f.params[:0], csiParam{v: left}, csiParam{v: right})
		}
	case 'u': // SCORC
		if len(f.params) == 0 {
			t.emitCSI(final)
			t.clampCursor()
		}
		return
	case 'c': // DA1
		if f.rawParam(0, 0) == 0 {
			t.reply("\x1b[?62;22c")
		}
		return
	case 'n': // DSR
		switch f.rawParam(0, 0) {
		case 5:
			t.reply("\x1b[0n")
		case 6:
			t.emitCSI(final) // x/vt reports the cursor position
		}
		return
	case 't': // window operations
		t.windowOp()
		return
	}
	t.emitCSI(final)
}

// windowOp handles CSI Ps t. Called with t.mu held.
func (t *Terminal) windowOp() {
	f := &t.f
	switch f.rawParam(0, 0) {
	case 14: // text area size in pixels
		t.reply("\x1b[4;" + strconv.Itoa(t.rows*t.opts.CellHeight) + ";" + strconv.Itoa(t.cols*t.opts.CellWidth) + "t")
	case 16: // cell size in pixels
		t.reply("\x1b[6;" + strconv.Itoa(t.opts.CellHeight) + ";" + strconv.Itoa(t.opts.CellWidth) + "t")
	case 18: // text area size in cells
		t.reply("\x1b[8;" + strconv.Itoa(t.rows) + ";" + strconv.Itoa(t.cols) + "t")
	case 19: // screen size in cells: the pane is the child's whole screen
		t.reply("\x1b[9;" + strconv.Itoa(t.rows) + ";" + strconv.Itoa(t.cols) + "t")
	case 22: // push title
		if which := f.rawParam(1, 0); which == 0 || which == 2 {
			if len(t.titleStack) >= maxTitleKeep {
				t.titleStack = append(t.titleStack[:0], t.titleStack[1:]...)
			}
			t.titleStack = append(t.titleStack, t.title)
		}
	case 23: // pop title
		if which := f.rawParam(1, 0); (which == 0 || which == 2) && len(t.titleStack) > 0 {
			t.setTitle(t.titleStack[len(t.titleStack)-1])
			t.titleStack = t.titleStack[:len(t.titleStack)-1]
		}
	}
	// Everything else (moving, iconifying, reporting the title…) is ignored.
}

// csiPrivate handles CSI ? sequences. Called with t.mu held.
func (t *Terminal) csiPrivate(inter, final byte) {
	f := &t.f
	switch {
	case inter == 0 && (final == 'h' || final == 'l'):
		set := final == 'h'
		screenSwitch := false
		for _, p := range f.params {
			t.modes.setDEC(p.v, set)
			switch p.v {
			case 47, 1047, 1048, 1049:
				screenSwitch = true
			}
		}
		t.emitCSI(final)
		if screenSwitch {
			t.clampCursor()
		}
	case inter == '$' && final == 'p': // DECRQM
		n := f.rawParam(0, 0)
		if st, ok := t.decrqm(n); ok {
			t.reply("\x1b[?" + strconv.Itoa(n) + ";" + strconv.Itoa(st) + "$y")
			return
		}
		t.emitCSI(final)
	case inter == 0 && final == 'u': // kitty: query flags
		if !t.opts.DisableKittyKeyboard {
			t.flush()
			t.reply("\x1b[?" + strconv.Itoa(t.modes.kittyFlags(t.screenIndex())) + "u")
		}
	case inter == 0 && (final == 'r' || final == 's'): // XTRESTORE / XTSAVE
	default:
		t.emitCSI(final)
	}
}

// decrqm answers DECRQM for the DEC modes this package owns or knows x/vt
// does not implement; ok is false for modes x/vt should answer.
func (t *Terminal) decrqm(n int) (state int, ok bool) {
	if st := t.modes.decState(n); st != 0 {
		return st, true
	}
	switch n {
	case 1001, // highlight mouse tracking
		1005, // UTF-8 mouse encoding
		1015, // urxvt mouse encoding
		1016, // SGR pixel mouse encoding
		2026, // synchronized output: not implemented, so claude must not rely on it
		2031: // colour scheme update notifications: never sent
		return 0, true
	}
	return 0, false
}

// stringDispatch handles a complete OSC/DCS/APC/PM/SOS string. Called with
// t.mu held.
func (t *Terminal) stringDispatch() {
	f := &t.f
	if f.over {
		return
	}
	switch f.kind {
	case ']':
		t.oscDispatch(f.str)
	case 'k': // screen's title sequence
		t.setTitle(string(f.str))
	case 'P':
		t.dcsDispatch(f.str)
	}
	// APC (kitty graphics queries…), PM and SOS are dropped: unsupported,
	// and leaving them unanswered is how a terminal says so.
}

// oscDispatch handles OSC Ps ; Pt. Called with t.mu held.
func (t *Terminal) oscDispatch(data []byte) {
	ps, pt, _ := bytes.Cut(data, []byte{';'})
	cmd, err := strconv.Atoi(string(ps))
	if err != nil {
		return
	}
	switch cmd {
	case 0, 2:
		// OSC 1 (icon name) is dropped: the pane shows the title only.
		t.setTitle(string(pt))
	case 7, 8:
		// Working directory and hyperlinks: make the URI pure ASCII so that
		// no 0x9C byte can cut the sequence inside x/vt.
		t.out = append(t.out, 0x1b, ']')
		t.out = append(t.out, ps...)
		t.out = append(t.out, ';')
		t.out = appendPercentEncoded(t.out, pt)
		t.out = append(t.out, 0x07)
	case 10, 11, 12, 110, 111, 112:
		// Default colour set/query/reset: x/vt implements these.
		if isASCII(pt) {
			t.out = append(t.out, 0x1b, ']')
			t.out = append(t.out, data...)
			t.out = append(t.out, 0x07)
		}
	case 7501:
		// The Program Status Protocol: answered and passed on only when someone listens.
		if t.opts.OnProgramStatus == nil {
			return
		}
		if isProgramStatusQuery(pt) {
			t.reply(programStatusReply)
		} else if s, ok := parseProgramStatus(pt); ok {
			t.statuses = append(t.statuses, s)
		}
	}
	// Everything else (clipboard, notifications, palette…) is dropped.
}

// dcsDispatch answers the DCS requests that expect a reply. Called with t.mu
// held.
func (t *Terminal) dcsDispatch(data []byte) {
	switch {
	case bytes.HasPrefix(data, []byte("$q")): // DECRQSS: not supported
		t.reply("\x1bP0$r\x1b\\")
	case bytes.HasPrefix(data, []byte("+q")): // XTGETTCAP: nothing known
		if isASCII(data[2:]) {
			t.reply("\x1bP0+r" + string(data[2:]) + "\x1b\\")
		}
	}
	// Other DCS strings (sixel, tmux passthrough…) are dropped.
}

// setTitle records a new window title. Called with t.mu held.
func (t *Terminal) setTitle(s string) {
	s = sanitizeTitle(s)
	if s != t.title {
		t.title = s
		t.gen.Add(1)
		if t.opts.OnTitle != nil {
			t.titles = append(t.titles, s)
		}
	}
}

// sanitizeTitle makes s valid UTF-8 without control characters, at most
// maxTitle bytes long.
func sanitizeTitle(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	clean := true
	for _, r := range s {
		if unicode.IsControl(r) {
			clean = false
			break
		}
	}
	if !clean {
		s = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return -1
			}
			return r
		}, s)
	}
	if len(s) > maxTitle {
		cut := maxTitle
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

// appendPercentEncoded appends b to dst with every byte outside printable
// ASCII percent-encoded.
func appendPercentEncoded(dst, b []byte) []byte {
	const hex = "0123456789ABCDEF"
	for _, c := range b {
		if c < 0x20 || c >= 0x7F {
			dst = append(dst, '%', hex[c>>4], hex[c&0xF])
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// isASCII reports whether b is printable ASCII only.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7F {
			return false
		}
	}
	return true
}
