package tui

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/creack/pty"

	"github.com/hooksup/hooksup/tui/vterm"
)

// frameInterval bounds how often the agent pane asks for a redraw (60 per second).
const frameInterval = time.Second / 60

// writeQueue is the single writer to the pty: keys, pastes and the emulator's query replies
// go through it in order. Enqueueing never blocks, so Update never waits on claude.
type writeQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	q      [][]byte
	closed bool
	w      io.Writer
	done   chan struct{}
}

func newWriteQueue(w io.Writer) *writeQueue {
	q := &writeQueue{w: w, done: make(chan struct{})}
	q.cond = sync.NewCond(&q.mu)
	go q.run()
	return q
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
	defer close(q.done)
	for {
		q.mu.Lock()
		for len(q.q) == 0 && !q.closed {
			q.cond.Wait()
		}
		if len(q.q) == 0 {
			q.mu.Unlock()
			return
		}
		batch := q.q
		q.q = nil
		q.mu.Unlock()
		for _, b := range batch {
			if _, err := q.w.Write(b); err != nil {
				// The child is gone; drop what is left.
				q.mu.Lock()
				q.closed = true
				q.q = nil
				q.mu.Unlock()
				return
			}
		}
	}
}

func (q *writeQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Signal()
	q.mu.Unlock()
}

// agentIO connects the agent's pty to the terminal emulator: a reader goroutine feeds the
// emulator and signals redraws (at most one per frame), a write queue sends keys.
type agentIO struct {
	term  *vterm.Terminal
	pty   *os.File
	out   *writeQueue
	dirty chan struct{}
}

// newAgentIO makes the emulator; attach connects the pty once the agent started.
func newAgentIO(cols, rows int, version string) *agentIO {
	a := &agentIO{dirty: make(chan struct{}, 1)}
	a.out = newWriteQueue(io.Discard)
	a.term = vterm.New(cols, rows, vterm.Options{Replies: replyWriter{a}, Version: version,
		OnReset: func(any) { a.nudge() }})
	return a
}

// replyWriter sends the emulator's query replies through the current write queue.
type replyWriter struct{ a *agentIO }

func (r replyWriter) Write(p []byte) (int, error) { return r.a.out.Write(p) }

// attach starts the reader and the writer on the agent's pty.
func (a *agentIO) attach(f *os.File) {
	a.pty = f
	a.out = newWriteQueue(f)
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				a.term.Write(buf[:n])
				a.markDirty()
			}
			if err != nil {
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
	if a.pty == nil {
		return
	}
	cols, rows := a.term.Size()
	_ = pty.Setsize(a.pty, &pty.Winsize{Cols: uint16(cols), Rows: uint16(max(rows-1, 1))})
	_ = pty.Setsize(a.pty, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
}

// resize resizes the emulator first, then the pty, so the child's repaint lands on the new size.
func (a *agentIO) resize(cols, rows int) {
	if c, r := a.term.Size(); c == cols && r == rows {
		return
	}
	a.term.Resize(cols, rows)
	if a.pty != nil {
		_ = pty.Setsize(a.pty, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	}
	a.markDirty()
}

func (a *agentIO) close() {
	a.out.close()
	a.term.Close()
}
