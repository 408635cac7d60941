package engine

import (
	"slices"
	"sync"
)

// Outbox keeps what a session tells the world, its verdict log lines and its events, in the
// order things happened, although a verdict's observation is completed after the agent has its
// answer: the verdict takes its place as it is decided (hold), and what comes after it waits
// until it is complete (fill). What is told of a stop after its verdict (what the agent's other
// hooks did there, read from its transcript later) goes before the verdict of any later stop
// still waiting (DoForStop), so each stop's lines come in order. Items run one at a time, in
// order; an item that adds another queues it behind itself.
type Outbox struct {
	mu      sync.Mutex
	items   []*outItem
	running bool       // a goroutine is running items
	idle    *sync.Cond // broadcast when the outbox is empty and nothing runs
}

// outItem is one place in the outbox: something to run, or a verdict not yet complete.
type outItem struct {
	run   func()
	ready bool
	stop  int // the verdict's stop (Verdict.Stop) this place is held for; 0 for anything else
}

func NewOutbox() *Outbox {
	o := &Outbox{}
	o.idle = sync.NewCond(&o.mu)
	return o
}

// Do runs f in its turn: at once, unless something before it is held or running (then the
// goroutine running items runs it, or the fill of what is held does).
func (o *Outbox) Do(f func()) {
	o.mu.Lock()
	o.items = append(o.items, &outItem{run: f, ready: true})
	o.mu.Unlock()
	o.drain()
}

// DoForStop runs f, which tells more of stop (a Verdict.Stop already decided), in its turn:
// before the verdict of any later stop still waiting, else as Do does.
func (o *Outbox) DoForStop(stop int, f func()) {
	o.mu.Lock()
	it := &outItem{run: f, ready: true}
	i := slices.IndexFunc(o.items, func(it *outItem) bool { return it.stop > stop })
	if i < 0 {
		i = len(o.items)
	}
	o.items = slices.Insert(o.items, i, it)
	o.mu.Unlock()
	o.drain()
}

// hold takes the next place for the verdict of stop, not complete yet: what comes after it
// waits for its fill.
func (o *Outbox) hold(stop int) *outItem {
	o.mu.Lock()
	defer o.mu.Unlock()
	it := &outItem{stop: stop}
	o.items = append(o.items, it)
	return it
}

// fill completes a held place with f, and runs what waited for it.
func (o *Outbox) fill(it *outItem, f func()) {
	o.mu.Lock()
	it.run, it.ready = f, true
	o.mu.Unlock()
	o.drain()
}

// drain runs the ready items at the front, unless another goroutine is at it.
func (o *Outbox) drain() {
	o.mu.Lock()
	if o.running {
		o.mu.Unlock()
		return
	}
	o.running = true
	o.mu.Unlock()
	done := false
	defer func() {
		if !done { // an item panicked: let the next drain run on
			o.mu.Lock()
			o.running = false
			o.mu.Unlock()
		}
	}()
	for it := o.next(); it != nil; it = o.next() {
		it.run()
	}
	done = true
}

// next takes the front item if it is ready; otherwise it ends the drain.
func (o *Outbox) next() *outItem {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.items) == 0 || !o.items[0].ready {
		o.running = false
		if len(o.items) == 0 {
			o.idle.Broadcast()
		}
		return nil
	}
	it := o.items[0]
	o.items[0] = nil
	o.items = o.items[1:]
	return it
}

// wait returns once everything put in the outbox has run. Nothing may be held for ever.
func (o *Outbox) wait() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for len(o.items) > 0 || o.running {
		o.idle.Wait()
	}
}
