package tui

import (
	"bytes"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hooksup/hooksup/internal/queue"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/tui/vterm"
)

// frameInterval bounds how often the agent pane asks for a redraw (60 per second).
const frameInterval = time.Second / 60

// agentIO connects the agent's pty to the terminal emulator: a reader goroutine feeds the
// emulator and signals redraws (at most one per frame), a writer goroutine sends what Write
// queued, and one resizer goroutine applies the latest size.
type agentIO struct {
	term *vterm.Terminal
	// resumeHint rewrites the agent's resume command on its last screen (set before attach).
	resumeHint func(string) (string, bool)
	// out carries keys, pastes and the emulator's query replies to the pty, in order. Pushing
	// never blocks, so Update never waits on claude; until the pty is attached they are held.
	out     *queue.Queue[ptyWrite]
	dirty   chan struct{}
	changed chan struct{} // Changed: the screen changed (session.Screen)
	resizes chan [2]int   // capacity 1: the latest size wins

	mu  sync.Mutex
	pty *os.File // nil until attached
}

// newAgentIO makes the emulator; attach connects it to the agent's pty. The agent's Program
// Status Protocol reports go to onStatus (nil: the emulator does not speak it), its window
// titles to onTitle (nil: nowhere but the pane's border).
func newAgentIO(cols, rows int, version string, onStatus func(vterm.ProgramStatus), onTitle func(string)) *agentIO {
	a := newAgentIOAlone(cols, rows, version, onStatus, onTitle)
	go func() {
		for sz := range a.resizes {
			a.applySize(sz[0], sz[1])
		}
	}()
	return a
}

// newAgentIOAlone is newAgentIO without its resizer: the sizes asked wait in resizes (tests
// apply them themselves, to see each one).
func newAgentIOAlone(cols, rows int, version string, onStatus func(vterm.ProgramStatus), onTitle func(string)) *agentIO {
	a := &agentIO{dirty: make(chan struct{}, 1), changed: make(chan struct{}, 1), resizes: make(chan [2]int, 1), out: queue.New[ptyWrite]()}
	a.term = vterm.New(cols, rows, vterm.Options{Replies: a, Version: version,
		OnReset: func(any) { a.nudge() }, OnProgramStatus: onStatus, OnTitle: onTitle})
	return a
}

// programStatusTo passes the agent's reports about itself (its root record, not its subagents'
// and tasks') to the session, from the pty reader: the state changes as claude draws a dialog.
func programStatusTo(sess Session) func(vterm.ProgramStatus) {
	return func(ps vterm.ProgramStatus) {
		if ps.ID != "" || ps.State == "clear" {
			return
		}
		sess.TerminalStatus(session.TerminalStatus{
			State: session.TerminalState(ps.State), Kind: session.BlockedKind(ps.Kind), Msg: ps.Msg})
	}
}

// titleTo passes the agent's window titles to the session, from the pty reader: an agent that
// tells its state there (Gemini CLI) is read from them.
func titleTo(sess Session) func(string) {
	return func(title string) {
		if title != "" {
			sess.TerminalStatus(session.TerminalStatus{Title: title})
		}
	}
}

func (a *agentIO) ptyFile() *os.File {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pty
}

// ptyWrite is one write to the agent's pty; before, when set, runs on the writer just before
// the bytes are written.
type ptyWrite struct {
	b      []byte
	before func()
}

// Write queues a copy of p for the agent. It never blocks.
func (a *agentIO) Write(p []byte) (int, error) {
	if len(p) > 0 {
		a.out.Push(ptyWrite{b: bytes.Clone(p)})
	}
	return len(p), nil
}

// writeAfter queues p for the agent, to be written once before has returned: before runs on
// the writer, after everything queued earlier was written and before anything queued later.
// It never blocks. It reports false when nothing was queued (the agent is gone): before has
// not run and will not.
func (a *agentIO) writeAfter(before func(), p []byte) bool {
	return a.out.Push(ptyWrite{b: bytes.Clone(p), before: before})
}

// sendTo starts the writer: what Write queued goes to w, until w fails (the agent is gone:
// what is left is dropped).
func (a *agentIO) sendTo(w io.Writer) {
	go func() {
		for pw := range a.out.Out() {
			if pw.before != nil {
				pw.before()
			}
			if len(pw.b) == 0 {
				continue
			}
			if _, err := w.Write(pw.b); err != nil {
				a.out.Stop()
				return
			}
		}
	}()
}

// attach starts the reader and the writer on the agent's pty.
func (a *agentIO) attach(f *os.File) {
	a.mu.Lock()
	a.pty = f
	a.mu.Unlock()
	a.sendTo(f)
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				a.term.Write(buf[:n])
				a.markDirty()
				select {
				case a.changed <- struct{}{}:
				default:
				}
			}
			if err != nil {
				// claude has exited: its resume command becomes hooksup's.
				rewriteResumeHint(a.term, a.resumeHint)
				a.markDirty()
				return
			}
		}
	}()
}

func (a *agentIO) markDirty() {
	select {
	case a.dirty <- struct{}{}:
	default:
	}
}

// nudge makes the child repaint after the emulator was reset: a resize to a different size
// and back.
func (a *agentIO) nudge() {
	f := a.ptyFile()
	if f == nil {
		return
	}
	cols, rows := a.term.Size()
	_ = setPTYSize(f, cols, max(rows-1, 1))
	_ = setPTYSize(f, cols, rows)
}

// setPTYSize sets the terminal size of the pty f. Unlike pty.Setsize it does not go through
// f.Fd(), which races with the session closing f (and puts f in blocking mode): the ioctl runs
// while f's descriptor is held, or not at all once f is closed.
func setPTYSize(f *os.File, cols, rows int) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	ws := &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}
	if cerr := rc.Control(func(fd uintptr) { err = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, ws) }); cerr != nil {
		return cerr
	}
	return err
}

// resize asks for a new size without waiting; the resizer applies the latest one.
func (a *agentIO) resize(cols, rows int) {
	for {
		select {
		case a.resizes <- [2]int{cols, rows}:
			return
		default:
			select {
			case <-a.resizes: // drop the stale request
			default:
			}
		}
	}
}

// applySize resizes the emulator first, then the pty, so the child's repaint lands on the new
// size.
func (a *agentIO) applySize(cols, rows int) {
	if c, r := a.term.Size(); c == cols && r == rows {
		return
	}
	a.term.Resize(cols, rows)
	if f := a.ptyFile(); f != nil {
		_ = setPTYSize(f, cols, rows)
	}
	a.markDirty()
}

func (a *agentIO) close() {
	close(a.resizes)
	a.out.Stop()
	a.term.Close()
}

// The agent's screen, as the session reads it for the permission dialogs it answers with keys
// (session.Screen): from the session's goroutine, never from Update.

// Text is the agent's screen as plain text.
func (a *agentIO) Text() string { return a.term.Text() }

// Changed is signalled after the agent's output reached the screen.
func (a *agentIO) Changed() <-chan struct{} { return a.changed }

// Press queues the named keys for the agent, encoded for its modes as they are now, after what
// the person typed before.
func (a *agentIO) Press(keys ...string) bool {
	for _, name := range keys {
		var ks []vterm.Key
		if text, ok := session.TypedText(name); ok {
			for _, r := range text {
				ks = append(ks, vterm.Key{Code: r})
			}
		} else if k, ok := namedKey(name); ok {
			ks = append(ks, k)
		} else {
			return false
		}
		for _, k := range ks {
			if !a.out.Push(ptyWrite{b: vterm.EncodeKey(k, a.term.Modes())}) {
				return false
			}
		}
	}
	return true
}

// namedKey is a key as session.Screen names it.
func namedKey(name string) (vterm.Key, bool) {
	switch name {
	case "Enter":
		return vterm.Key{Code: vterm.KeyEnter}, true
	case "Escape":
		return vterm.Key{Code: vterm.KeyEscape}, true
	case "Tab":
		return vterm.Key{Code: vterm.KeyTab}, true
	case "Up":
		return vterm.Key{Code: vterm.KeyUp}, true
	case "Down":
		return vterm.Key{Code: vterm.KeyDown}, true
	}
	if r := []rune(name); len(r) == 1 {
		return vterm.Key{Code: r[0]}, true
	}
	return vterm.Key{}, false
}
