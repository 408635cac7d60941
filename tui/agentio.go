package tui

import (
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hooksup/hooksup/supervisor"
	"github.com/hooksup/hooksup/tui/vterm"
)

// frameInterval bounds how often the agent pane asks for a redraw (60 per second).
const frameInterval = time.Second / 60

// writeQueue is the single writer to the pty: keys, pastes and the emulator's query replies
// go through it in order. Enqueueing never blocks, so Update never waits on claude. Until the
// pty exists (claude starting) writes are held, not lost.
type writeQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	q      [][]byte
	closed bool
	w      io.Writer
}

func newWriteQueue(w io.Writer) *writeQueue {
	q := &writeQueue{w: w}
	q.cond = sync.NewCond(&q.mu)
	go q.run()
	return q
}

// setWriter gives the queue its destination.
func (q *writeQueue) setWriter(w io.Writer) {
	q.mu.Lock()
	q.w = w
	q.cond.Signal()
	q.mu.Unlock()
}

// Write enqueues a copy of p.
func (q *writeQueue) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	q.mu.Lock()
	if !q.closed {
		q.q = append(q.q, append([]byte(nil), p...))
		q.cond.Signal()
	}
	q.mu.Unlock()
	return len(p), nil
}

func (q *writeQueue) run() {
	for {
		q.mu.Lock()
		for (len(q.q) == 0 || q.w == nil) && !q.closed {
			q.cond.Wait()
		}
		if q.closed {
			q.mu.Unlock()
			return
		}
		batch, w := q.q, q.w
		q.q = nil
		q.mu.Unlock()
		for _, b := range batch {
			if _, err := w.Write(b); err != nil {
				// The child is gone; drop what is left.
				q.close()
				return
			}
		}
	}
}

func (q *writeQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.q = nil
	q.cond.Signal()
	q.mu.Unlock()
}

// agentIO connects the agent's pty to the terminal emulator: a reader goroutine feeds the
// emulator and signals redraws (at most one per frame), a write queue sends keys, and one
// resizer goroutine applies the latest size.
type agentIO struct {
	term    *vterm.Terminal
	out     *writeQueue
	dirty   chan struct{}
	resizes chan [2]int // capacity 1: the latest size wins

	mu  sync.Mutex
	pty *os.File // nil until claude started
}

// newAgentIO makes the emulator; attach connects the pty once the agent started. The agent's
// Program Status Protocol reports go to onStatus (nil: the emulator does not speak it).
func newAgentIO(cols, rows int, version string, onStatus func(vterm.ProgramStatus)) *agentIO {
	a := &agentIO{dirty: make(chan struct{}, 1), resizes: make(chan [2]int, 1), out: newWriteQueue(nil)}
	a.term = vterm.New(cols, rows, vterm.Options{Replies: a.out, Version: version,
		OnReset: func(any) { a.nudge() }, OnProgramStatus: onStatus})
	go func() {
		for sz := range a.resizes {
			a.applySize(sz[0], sz[1])
		}
	}()
	return a
}

// programStatusTo passes the agent's reports about itself (its root record, not its subagents'
// and tasks') to the session, from the pty reader: the state changes as claude draws a dialog.
func programStatusTo(sess Session) func(vterm.ProgramStatus) {
	return func(ps vterm.ProgramStatus) {
		if ps.ID != "" || ps.State == "clear" {
			return
		}
		sess.TerminalStatus(supervisor.TerminalStatus{
			State: supervisor.TerminalState(ps.State), Kind: supervisor.BlockedKind(ps.Kind), Msg: ps.Msg})
	}
}

func (a *agentIO) ptyFile() *os.File {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pty
}

// attach starts the reader on the agent's pty and gives the write queue its destination.
func (a *agentIO) attach(f *os.File) {
	a.mu.Lock()
	a.pty = f
	a.mu.Unlock()
	a.out.setWriter(f)
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				a.term.Write(buf[:n])
				a.markDirty()
			}
			if err != nil {
				// claude has exited: its resume command becomes hooksup's.
				rewriteResumeHint(a.term)
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
	a.out.close()
	a.term.Close()
}
