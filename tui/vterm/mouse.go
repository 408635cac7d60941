package vterm

import "strconv"

// MouseButton is a mouse button or wheel direction.
type MouseButton uint8

// Mouse buttons.
const (
	MouseNone MouseButton = iota
	MouseLeft
	MouseMiddle
	MouseRight
	MouseWheelUp
	MouseWheelDown
	MouseWheelLeft
	MouseWheelRight
	MouseBackward
	MouseForward
)

// MouseAction is what happened to the button.
type MouseAction uint8

// Mouse actions.
const (
	MousePress MouseAction = iota
	MouseRelease
	MouseMotion
)

// MouseEvent is a mouse event in pane-relative cells: X and Y are 0-based
// from the top-left cell of the child's screen.
type MouseEvent struct {
	X, Y   int
	Button MouseButton
	Action MouseAction
	Mod    Mod
}

// EncodeMouse returns the bytes to write to the pty for ev, or nil when the
// child's tracking mode does not report it (or it lies outside what the
// encoding can carry: negative cells, or beyond column/row 223 without SGR).
// X10 tracking (mode 9) reports presses only, without modifiers; 1000 adds
// releases and the wheel; 1002 motion with a button held; 1003 all motion.
// Events are SGR-encoded (CSI < b;x;y M/m) under mode 1006, else in the
// original CSI M form.
func EncodeMouse(ev MouseEvent, m Modes) []byte {
	if m.Mouse == MouseOff || ev.X < 0 || ev.Y < 0 {
		return nil
	}
	wheel := ev.Button >= MouseWheelUp && ev.Button <= MouseWheelRight
	switch ev.Action {
	case MousePress:
		if ev.Button == MouseNone {
			return nil
		}
	case MouseRelease:
		if m.Mouse == MouseX10 || wheel {
			return nil
		}
	case MouseMotion:
		switch {
		case m.Mouse == MouseAnyEvent:
		case m.Mouse == MouseButtonEvent && ev.Button != MouseNone && !wheel:
		default:
			return nil
		}
	default:
		return nil
	}

	var code int
	switch ev.Button {
	case MouseLeft:
		code = 0
	case MouseMiddle:
		code = 1
	case MouseRight:
		code = 2
	case MouseNone:
		code = 3
	case MouseWheelUp:
		code = 64
	case MouseWheelDown:
		code = 65
	case MouseWheelLeft:
		code = 66
	case MouseWheelRight:
		code = 67
	case MouseBackward:
		code = 128
	case MouseForward:
		code = 129
	default:
		return nil
	}
	if ev.Action == MouseMotion {
		code += 32
	}
	if m.Mouse != MouseX10 {
		if ev.Mod&ModShift != 0 {
			code += 4
		}
		if ev.Mod&ModAlt != 0 {
			code += 8
		}
		if ev.Mod&ModCtrl != 0 {
			code += 16
		}
	}

	if m.MouseSGR {
		b := []byte("\x1b[<")
		b = strconv.AppendInt(b, int64(code), 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(ev.X+1), 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(ev.Y+1), 10)
		if ev.Action == MouseRelease {
			return append(b, 'm')
		}
		return append(b, 'M')
	}
	if ev.Action == MouseRelease {
		// The original encoding does not say which button was released.
		code = 3 | code&(4|8|16)
	}
	if code+32 > 0xFF || ev.X+33 > 0xFF || ev.Y+33 > 0xFF {
		return nil
	}
	return []byte{0x1b, '[', 'M', byte(code + 32), byte(ev.X + 33), byte(ev.Y + 33)}
}
