package supervisor

import (
	"sync"

	"github.com/hooksup/hooksup/internal/queue"
	"github.com/hooksup/hooksup/session"
)

// bus carries the session's events to the front end, in order: publishing never blocks the
// engine and nothing is dropped, however slow the front end is. Other front ends (the control
// socket's clients) subscribe to taps: bounded, so one that stops reading loses its own events
// and nothing else.
type bus struct {
	q *queue.Queue[session.Event]

	mu     sync.Mutex
	taps   map[*queue.Queue[session.Event]]struct{}
	closed bool
}

// tapLimit is how many events a subscriber may fall behind before it loses some.
const tapLimit = 4096

func newBus() *bus {
	return &bus{q: queue.New[session.Event](), taps: map[*queue.Queue[session.Event]]struct{}{}}
}

func (b *bus) publish(e session.Event) {
	b.q.Push(e)
	b.mu.Lock()
	for t := range b.taps {
		t.Push(e)
	}
	b.mu.Unlock()
}

// close delivers what is queued, then closes the channel (the taps' too).
func (b *bus) close() {
	b.q.Close()
	b.mu.Lock()
	b.closed = true
	for t := range b.taps {
		t.Close()
	}
	b.mu.Unlock()
}

func (b *bus) events() <-chan session.Event { return b.q.Out() }

// subscribe returns a second stream of the events published from now on, closed when the bus
// closes, and the function that ends it (the stream's channel is then closed).
func (b *bus) subscribe() (<-chan session.Event, func()) {
	t := queue.NewBounded[session.Event](tapLimit, nil)
	b.mu.Lock()
	if b.closed {
		t.Close()
	} else {
		b.taps[t] = struct{}{}
	}
	b.mu.Unlock()
	return t.Out(), func() {
		b.mu.Lock()
		delete(b.taps, t)
		b.mu.Unlock()
		t.Stop()
	}
}

// Subscribe returns another stream of the session's events, from now on, beside Events (which
// the front end that owns the terminal reads): closed after the agent exits, or when the
// returned function is called. A subscriber that falls far behind loses events; the front end
// never does.
func (s *Supervisor) Subscribe() (<-chan session.Event, func()) { return s.bus.subscribe() }
