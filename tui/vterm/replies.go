package vterm

import (
	"bytes"
	"io"
	"sync"

	"github.com/hooksup/hooksup/internal/queue"
)

// maxPendingReplies bounds the replies waiting for a slow sink. A child that
// floods queries while not reading its own input loses the excess replies
// instead of stalling the emulator (and with it the UI).
const maxPendingReplies = 64 << 10

// replyQueue carries query replies from the emulator to the reply sink.
//
// x/vt writes its replies into an unbuffered pipe while it parses, so the
// goroutine feeding the emulator blocks until someone reads the pipe. One
// drain goroutine per emulator reads the pipe and pushes to this queue, which
// never blocks; a single writer goroutine hands the queued bytes to the sink
// (the pty), so a sink that blocks stalls neither the emulator nor the UI
// reading the screen.
type replyQueue struct {
	sink io.Writer
	q    *queue.Queue[[]byte]

	mu      sync.Mutex
	sinkErr error

	done chan struct{}
}

// newReplyQueue starts the writer goroutine. A nil sink discards replies.
func newReplyQueue(sink io.Writer) *replyQueue {
	q := &replyQueue{
		sink: sink,
		q:    queue.NewBounded(maxPendingReplies, func(b []byte) int { return len(b) }),
		done: make(chan struct{}),
	}
	go q.run()
	return q
}

// push queues a copy of p for the sink. It never blocks.
func (q *replyQueue) push(p []byte) { q.q.Push(bytes.Clone(p)) }

// run is the single writer goroutine.
func (q *replyQueue) run() {
	defer close(q.done)
	for b := range q.q.Out() {
		if q.sink == nil {
			continue
		}
		if _, err := q.sink.Write(b); err != nil {
			q.mu.Lock()
			q.sinkErr = err
			q.mu.Unlock()
		}
	}
}

// close stops the writer once everything queued so far was handed to the
// sink. It does not wait: a sink blocked forever must not block Close.
func (q *replyQueue) close() { q.q.Close() }

// stats returns the number of reply bytes dropped and the last sink error.
func (q *replyQueue) stats() (dropped int, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.q.Dropped(), q.sinkErr
}

// drain copies one emulator's reply pipe into q until the pipe is closed.
func drain(r io.Reader, q *replyQueue, wg *sync.WaitGroup) {
	defer wg.Done()
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			q.push(buf[:n])
		}
		if err != nil {
			return
		}
	}
}
