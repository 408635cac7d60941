package transcript

import "github.com/hooksup/hooksup/session"

// dedupe remembers the usage counted for recent API messages, keyed by a 64-bit hash of
// message id + request id (the key ccusage uses), so that the copies of a message's usage on
// each of its content-block lines count once, and the copy with the largest usage wins.
//
// Memory is bounded: at most max keys are kept, and the oldest is forgotten first. Claude writes
// all blocks of a message one after another, so a window of thousands of messages loses
// nothing in practice; a key that comes back after being forgotten would be counted again.
type dedupe struct {
	max  int
	seen map[uint64]counted
	ring []uint64 // insertion order, for eviction
	next int
}

// counted is the usage already counted for a key, and the model it was counted under.
type counted struct {
	usage session.Usage
	model string
}

func newDedupe(max int) *dedupe {
	return &dedupe{max: max, seen: make(map[uint64]counted)}
}

// observe records a copy of key's usage. It returns what is already counted for the key (ok is
// false if the key is new) and whether this copy replaces it (new keys always do).
func (d *dedupe) observe(key uint64, u session.Usage, model string) (prev counted, seen, replace bool) {
	prev, seen = d.seen[key]
	if seen {
		if u.Total() <= prev.usage.Total() {
			return prev, true, false
		}
		d.seen[key] = counted{usage: u, model: model}
		return prev, true, true
	}
	if len(d.ring) < d.max {
		d.ring = append(d.ring, key)
	} else {
		delete(d.seen, d.ring[d.next])
		d.ring[d.next] = key
		d.next = (d.next + 1) % d.max
	}
	d.seen[key] = counted{usage: u, model: model}
	return counted{}, false, true
}

func (d *dedupe) reset() {
	clear(d.seen)
	d.ring = d.ring[:0]
	d.next = 0
}
