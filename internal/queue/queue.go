// Package queue is hooksup's one never-blocking queue: whoever pushes returns at once, however
// slow the consumer is, and a goroutine of the queue hands the items in order to the consumer's
// channel. The supervisor's events, the keys for claude's pty and the terminal emulator's
// replies all travel through one.
package queue

import "sync"

// Queue is a FIFO whose Push never blocks. It is unbounded unless made with NewBounded.
type Queue[T any] struct {
	out   chan T
	stopc chan struct{}
	size  func(T) int // nil: each item counts 1
	limit int         // 0: no bound

	mu      sync.Mutex
	cond    *sync.Cond
	items   []T
	queued  int // the size of items
	dropped int
	closed  bool
	stopped bool
}

// New returns an unbounded queue: nothing pushed before Close or Stop is dropped.
func New[T any]() *Queue[T] { return NewBounded[T](0, nil) }

// NewBounded returns a queue that drops what is pushed while the items waiting add up to more
// than limit, by size (each item counts 1 when size is nil; limit 0 is no bound). It is for
// producers that must never stall when a consumer never reads.
func NewBounded[T any](limit int, size func(T) int) *Queue[T] {
	q := &Queue[T]{out: make(chan T), stopc: make(chan struct{}), size: size, limit: limit}
	q.cond = sync.NewCond(&q.mu)
	go q.pump()
	return q
}

func (q *Queue[T]) sizeOf(v T) int {
	if q.size == nil {
		return 1
	}
	return q.size(v)
}

// Push queues v and returns at once. It reports false when v was dropped: the queue is closed
// or stopped, or it is bounded and full.
func (q *Queue[T]) Push(v T) bool {
	n := q.sizeOf(v)
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case q.closed || q.stopped:
		return false
	case q.limit > 0 && q.queued+n > q.limit:
		q.dropped += n
		return false
	}
	q.items = append(q.items, v)
	q.queued += n
	q.cond.Signal()
	return true
}

// Out delivers the items in the order they were pushed. It is closed once Close was called and
// everything before it delivered, or at Stop.
func (q *Queue[T]) Out() <-chan T { return q.out }

// Close ends the queue: further pushes are dropped, what is queued is still delivered, then Out
// is closed. It does not wait for the consumer.
func (q *Queue[T]) Close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Signal()
	q.mu.Unlock()
}

// Stop ends the queue at once: what is queued and what is pushed later is dropped, and Out is
// closed without waiting for the consumer to read. For a consumer that can take no more.
func (q *Queue[T]) Stop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.stopped {
		return
	}
	q.stopped = true
	clear(q.items)
	q.items, q.queued = nil, 0
	close(q.stopc)
	q.cond.Signal()
}

// Dropped is how much was dropped for want of room (by size, as NewBounded counts it).
func (q *Queue[T]) Dropped() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.dropped
}

// pump hands the items to Out one by one.
func (q *Queue[T]) pump() {
	defer close(q.out)
	for {
		q.mu.Lock()
		for len(q.items) == 0 && !q.closed && !q.stopped {
			q.cond.Wait()
		}
		if q.stopped || len(q.items) == 0 {
			q.mu.Unlock()
			return
		}
		v := q.items[0]
		var zero T
		q.items[0] = zero
		q.items = q.items[1:]
		q.queued -= q.sizeOf(v)
		q.mu.Unlock()
		select {
		case q.out <- v:
		case <-q.stopc:
			return
		}
	}
}
