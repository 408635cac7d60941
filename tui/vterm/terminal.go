package vterm

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"sync"
	"sync/atomic"

	uv "github.com/charmbracelet/ultraviolet"

	"github.com/hooksup/hooksup/tui/vterm/internal/vt"
)

// Defaults used when [Options] leaves a field zero.
const (
	DefaultScrollback = 2000
	DefaultCellWidth  = 8
	DefaultCellHeight = 16
	DefaultVersion    = "dev"
)

// writeChunk bounds how many bytes of child output are processed per lock
// acquisition, so a burst never keeps the UI from reading the screen for
// long.
const writeChunk = 4096

// ErrClosed is returned by [Terminal.Write] after [Terminal.Close].
var ErrClosed = errors.New("vterm: terminal closed")

// Options configure a [Terminal]. The zero value is usable.
type Options struct {
	// Replies receives the answers to the child's terminal queries; normally
	// the pty master. It is written from one goroutine owned by the
	// Terminal; if the caller also writes keys to the same pty from another
	// goroutine, the writes must be safe to interleave (whole writes to a
	// pty are). Nil discards replies.
	Replies io.Writer
	// Scrollback is how many lines of the main screen's history are kept
	// (0 means DefaultScrollback). x/vt costs about 14 KB per 160-column
	// line, so keep this modest.
	Scrollback int
	// OnReset, if set, is called after the emulator panicked and was
	// replaced by a fresh one. The screen is then blank: the caller should
	// make the child repaint, e.g. by resizing the pty to a different size
	// and back. It runs on the goroutine that called Write or Resize, after
	// the Terminal's lock is released, so it may call the Terminal.
	OnReset func(recovered any)
	// Version is reported in the XTVERSION reply as "hooksup(Version)"
	// (empty means DefaultVersion).
	Version string
	// CellWidth and CellHeight are the pixel size of a cell reported by the
	// CSI 14 t and CSI 16 t size queries (0 means 8×16).
	CellWidth, CellHeight int
	// DisableKittyKeyboard makes the Terminal ignore the kitty keyboard
	// protocol: the CSI ? u query goes unanswered and pushed flags are
	// ignored, so the child falls back to legacy keys. By default the query
	// is answered and EncodeKey honours the flags the child pushes.
	DisableKittyKeyboard bool
	// Foreground and Background are the default colours reported to OSC 10
	// and OSC 11 queries (nil means x/vt's white on black).
	Foreground, Background color.Color
	// OnProgramStatus, if set, receives the child's Program Status Protocol reports (OSC 7501),
	// in order, and makes the Terminal answer the protocol's support query, as a terminal that
	// speaks it does (without it the query goes unanswered and the child sends no reports). It
	// runs on the goroutine that called Write, after the Terminal's lock is released, so it
	// may call the Terminal; it must not block.
	OnProgramStatus func(ProgramStatus)
	// OnTitle, if set, receives the child's window title each time it changes (OSC 0/2, a
	// popped title), in order, as the title appears in [Terminal.Title]. It runs as
	// OnProgramStatus does, and must not block either.
	OnTitle func(string)
}

// Stats are counters for diagnostics and tests.
type Stats struct {
	// Resets counts emulator panics recovered by replacing the emulator.
	Resets int
	// RepliesDropped counts reply bytes dropped because the sink did not
	// keep up.
	RepliesDropped int
	// ReplyError is the last error the reply sink returned, if any.
	ReplyError error
}

// Terminal is a virtual terminal showing one child program.
//
// Write is meant to be called by the goroutine that reads the pty; Render,
// Text, Cursor, Title, Modes and Generation by the UI goroutine. All methods
// are safe for concurrent use.
type Terminal struct {
	opts Options

	mu   sync.Mutex
	emu  *vt.Emulator
	pipe io.Writer // the current emulator's reply pipe (its write end)

	cols, rows int
	modes      inputModes
	f          filter
	out        []byte // filtered bytes not yet handed to the emulator

	title         string
	titleStack    []string
	cursorVisible bool

	closed       bool
	resetPending any             // recovered value not yet reported to OnReset
	statuses     []ProgramStatus // reports not yet handed to OnProgramStatus
	titles       []string        // titles not yet handed to OnTitle
	resets       int

	scratch uv.Line // one line of cells, reused by Render and Text
	sbLine  uv.Line // a line of the scrollback, reused by Render and Text

	gen atomic.Uint64

	replies *replyQueue
	drains  sync.WaitGroup
}

// New returns a Terminal of cols×rows cells. Sizes below 1 are raised to 1.
// Call Close when done, to stop its goroutines.
func New(cols, rows int, opts Options) *Terminal {
	if opts.Scrollback <= 0 {
		opts.Scrollback = DefaultScrollback
	}
	if opts.CellWidth <= 0 {
		opts.CellWidth = DefaultCellWidth
	}
	if opts.CellHeight <= 0 {
		opts.CellHeight = DefaultCellHeight
	}
	if opts.Version == "" {
		opts.Version = DefaultVersion
	}
	t := &Terminal{
		opts:          opts,
		cols:          max(cols, 1),
		rows:          max(rows, 1),
		cursorVisible: true,
		replies:       newReplyQueue(opts.Replies),
	}
	t.emu = t.newEmulator(nil)
	return t
}

// newEmulator builds an emulator of the current size, wires its callbacks
// and starts the goroutine draining its replies. When old is not nil its
// main-screen scrollback is carried over. Called with t.mu held (or before
// t is shared).
func (t *Terminal) newEmulator(old *vt.Emulator) *vt.Emulator {
	e := vt.NewEmulator(t.cols, t.rows)
	e.SetScrollbackSize(t.opts.Scrollback)
	if t.opts.Foreground != nil {
		e.SetDefaultForegroundColor(t.opts.Foreground)
	}
	if t.opts.Background != nil {
		e.SetDefaultBackgroundColor(t.opts.Background)
	}
	e.SetCallbacks(vt.Callbacks{
		// Callbacks run inside e.Write, with t.mu already held.
		CursorVisibility: func(visible bool) { t.cursorVisible = visible },
	})
	if old != nil {
		func() {
			defer func() { _ = recover() }()
			if sb, nsb := old.Scrollback(), e.Scrollback(); sb != nil && nsb != nil {
				for _, l := range sb.Lines() {
					nsb.Push(l)
				}
			}
		}()
	}
	t.pipe = e.InputPipe()
	t.drains.Add(1)
	go drain(e, t.replies, &t.drains)
	return e
}

// Write feeds output of the child to the terminal. It always consumes all of
// p; the only error is ErrClosed.
func (t *Terminal) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		chunk := p[:min(len(p), writeChunk)]
		p = p[len(chunk):]
		t.mu.Lock()
		if t.closed {
			t.mu.Unlock()
			return n - len(p) - len(chunk), ErrClosed
		}
		t.feed(chunk)
		t.flush()
		r := t.takeReset()
		st, tt := t.statuses, t.titles
		t.statuses, t.titles = nil, nil
		t.mu.Unlock()
		t.report(r)
		for _, s := range st {
			t.opts.OnProgramStatus(s)
		}
		for _, s := range tt {
			t.opts.OnTitle(s)
		}
	}
	return n, nil
}

// takeReset returns and clears a pending reset report. Called with t.mu held.
func (t *Terminal) takeReset() any {
	r := t.resetPending
	t.resetPending = nil
	return r
}

// report calls OnReset for a reset that happened. Called without t.mu.
func (t *Terminal) report(r any) {
	if r != nil && t.opts.OnReset != nil {
		t.opts.OnReset(r)
	}
}

// flush hands the filtered bytes to the emulator. Called with t.mu held.
func (t *Terminal) flush() {
	if len(t.out) == 0 {
		return
	}
	b := t.out
	t.out = t.out[:0]
	t.emuWrite(b)
	t.gen.Add(1)
}

// emuWrite writes b to the emulator, recovering from its panics. Called with
// t.mu held.
func (t *Terminal) emuWrite(b []byte) {
	defer func() {
		if r := recover(); r != nil {
			t.reset(r)
		}
	}()
	_, _ = t.emu.Write(b)
}

// reset replaces a panicked emulator by a fresh one of the same size that
// keeps the scrollback, the alternate screen and the cursor visibility.
// Called with t.mu held.
func (t *Terminal) reset(r any) {
	old, oldPipe := t.emu, t.pipe
	alt := false
	func() {
		defer func() { _ = recover() }()
		alt = old.IsAltScreen()
	}()
	t.emu = t.newEmulator(old)
	if c, ok := oldPipe.(io.Closer); ok {
		_ = c.Close()
	}
	restore := ""
	if alt {
		restore += "\x1b[?1049h"
	}
	if !t.cursorVisible {
		restore += "\x1b[?25l"
	}
	if restore != "" {
		func() {
			defer func() { _ = recover() }()
			_, _ = t.emu.Write([]byte(restore))
		}()
	}
	t.resets++
	t.resetPending = r
	t.gen.Add(1)
}

// reply sends a query reply to the child through the emulator's reply pipe,
// after the bytes filtered so far, so replies keep the order of the queries.
// Called with t.mu held.
func (t *Terminal) reply(s string) {
	t.flush()
	_, _ = io.WriteString(t.pipe, s)
}

// clampCursor brings the cursor back on screen. x/vt clamps only the active
// screen's cursor on resize, so switching screens or restoring a saved
// cursor can leave it outside. Called with t.mu held.
func (t *Terminal) clampCursor() {
	t.flush()
	p := t.emu.CursorPosition()
	w, h := t.emu.Width(), t.emu.Height()
	if p.X >= 0 && p.Y >= 0 && p.X < w && p.Y < h {
		return
	}
	x := min(max(p.X, 0), w-1)
	y := min(max(p.Y, 0), h-1)
	t.emuWrite(fmt.Appendf(nil, "\x1b[%d;%dH", y+1, x+1))
}

// Resize changes the terminal to cols×rows cells (each at least 1). Call it
// before resizing the pty, so the child's repaint finds the new size. When
// the screen gets shorter, the content first scrolls up so the cursor line
// stays on screen (x/vt would drop the bottom rows, cursor line included);
// on the main screen the lines scrolled off go to the scrollback. When the
// main screen gets taller, the newest lines of the scrollback come back down
// above the content, as in tmux and xterm (x/vt would add blank rows below):
// shrunk and grown back, the screen shows what it showed, even for a child
// that does not repaint.
func (t *Terminal) Resize(cols, rows int) {
	cols, rows = max(cols, 1), max(rows, 1)
	t.mu.Lock()
	if t.closed || (cols == t.cols && rows == t.rows) {
		t.mu.Unlock()
		return
	}
	t.flush()
	t.cols, t.rows = cols, rows // a reset below builds the emulator at the new size
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.reset(r)
			}
		}()
		e := t.emu
		grown := rows - e.Height()
		if p := e.CursorPosition(); rows < e.Height() && p.Y >= rows {
			n := p.Y - rows + 1
			// Reset the margins (this homes the cursor), scroll the whole
			// screen up, and put the cursor back on its line.
			_, _ = fmt.Fprintf(e, "\x1b[r\x1b[%dS\x1b[%d;%dH", n, p.Y-n+1, p.X+1)
		}
		e.Resize(cols, rows)
		if grown > 0 && !e.IsAltScreen() {
			pullScrollback(e, grown)
		}
	}()
	t.gen.Add(1)
	r := t.takeReset()
	t.mu.Unlock()
	t.report(r)
}

// pullScrollback brings up to n of the newest lines of e's scrollback back
// onto the top of its screen, which just grew by n blank rows at the bottom:
// the screen scrolls down over them and the cursor moves down with its line.
func pullScrollback(e *vt.Emulator, n int) {
	lines := e.Scrollback().PopNewest(n)
	if len(lines) == 0 {
		return
	}
	p := e.CursorPosition()
	// Reset the margins (this homes the cursor) and scroll the whole screen
	// down: the blank rows at the bottom go, blank rows come at the top.
	_, _ = fmt.Fprintf(e, "\x1b[r\x1b[%dT", len(lines))
	for y, l := range lines {
		for x := range min(len(l), e.Width()) {
			if l[x].IsZero() {
				continue // a wide character's placeholder: SetCell places it
			}
			e.SetCell(x, y, &l[x])
		}
	}
	_, _ = fmt.Fprintf(e, "\x1b[%d;%dH", p.Y+len(lines)+1, p.X+1)
}

// Size returns the terminal size in cells.
func (t *Terminal) Size() (cols, rows int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cols, t.rows
}

// Title returns the window title the child set last (OSC 0 or 2), with
// control characters removed.
func (t *Terminal) Title() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.title
}

// Modes returns the child's current input modes, for the Encode functions.
func (t *Terminal) Modes() Modes {
	t.mu.Lock()
	defer t.mu.Unlock()
	alt := t.altScreen()
	s := 0
	if alt {
		s = 1
	}
	m := t.modes
	return Modes{
		CursorKeys:        m.cursorKeys,
		KeypadApplication: m.keypadApp,
		BracketedPaste:    m.bracketedPaste,
		FocusEvents:       m.focusEvents,
		Mouse:             m.mouse,
		MouseSGR:          m.mouseSGR,
		ModifyOtherKeys:   m.modifyOtherKeys,
		KittyFlags:        m.kittyFlags(s),
		AltScreen:         alt,
	}
}

// altScreen reports whether the emulator shows the alternate screen. Called
// with t.mu held.
func (t *Terminal) altScreen() bool {
	alt := false
	func() {
		defer func() { _ = recover() }()
		alt = t.emu.IsAltScreen()
	}()
	return alt
}

// screenIndex is 1 when the alternate screen is active, else 0. Called with
// t.mu held, after flush.
func (t *Terminal) screenIndex() int {
	if t.altScreen() {
		return 1
	}
	return 0
}

// Cursor returns the cursor position on the screen (0-based) and whether the
// child wants it shown. When Render is called with a scroll offset, the
// cursor row on the rendered view is y + offset.
func (t *Terminal) Cursor() (x, y int, visible bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.emu.CursorPosition()
	x, y = min(max(p.X, 0), t.cols-1), min(max(p.Y, 0), t.rows-1)
	return x, y, t.cursorVisible
}

// Generation returns a counter that changes whenever the screen, the title
// or the size may have changed. A UI redraws the pane only when it differs
// from the value seen at the last redraw.
func (t *Terminal) Generation() uint64 { return t.gen.Load() }

// Stats returns diagnostic counters.
func (t *Terminal) Stats() Stats {
	t.mu.Lock()
	resets := t.resets
	t.mu.Unlock()
	dropped, err := t.replies.stats()
	return Stats{Resets: resets, RepliesDropped: dropped, ReplyError: err}
}

// Close stops the terminal's goroutines. Replies already produced are still
// handed to the sink, unless the sink blocks. Close is idempotent.
func (t *Terminal) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	t.flush()
	pipe := t.pipe
	t.mu.Unlock()
	if c, ok := pipe.(io.Closer); ok {
		_ = c.Close()
	}
	t.drains.Wait()
	t.replies.close()
	return nil
}
