package queue

import (
	"slices"
	"testing"
)

// Pushing never waits for the consumer, and the consumer gets everything in order, then the
// end of the channel after Close.
func TestPushNeverBlocksAndKeepsOrder(t *testing.T) {
	q := New[int]()
	const n = 10000
	for i := range n { // nobody reads yet: a blocking Push would hang here
		if !q.Push(i) {
			t.Fatalf("push %d refused", i)
		}
	}
	q.Close()
	if q.Push(n) {
		t.Fatal("a push after Close was accepted")
	}
	var got []int
	for v := range q.Out() {
		got = append(got, v)
	}
	if len(got) != n || !slices.IsSorted(got) || got[0] != 0 || got[n-1] != n-1 {
		t.Fatalf("got %d items, first %v", len(got), got[:min(len(got), 5)])
	}
}

// Stop drops what is queued and ends Out although nobody reads it.
func TestStopDropsAndEnds(t *testing.T) {
	q := New[string]()
	q.Push("a")
	q.Push("b")
	q.Stop()
	q.Stop()
	if q.Push("c") {
		t.Fatal("a push after Stop was accepted")
	}
	var got []string
	for v := range q.Out() {
		got = append(got, v)
	}
	if len(got) > 1 { // the pump may already hold "a" when Stop comes
		t.Fatalf("delivered after Stop: %q", got)
	}
}

// A bounded queue with a consumer that never reads drops the excess instead of growing, counts
// what it dropped by size, and delivers what it kept in order.
func TestBoundedDropsTheExcess(t *testing.T) {
	q := NewBounded(30, func(b []byte) int { return len(b) })
	for i := range 100 {
		q.Push([]byte{byte(i), 1, 2, 3, 4, 5, 6, 7, 8, 9})
	}
	q.Close()
	var got []int
	for b := range q.Out() {
		got = append(got, int(b[0]))
	}
	// Three items fit; the pump may hold a fourth while it waits for a reader.
	if len(got) < 3 || len(got) > 4 || !slices.IsSorted(got) || got[0] != 0 {
		t.Fatalf("kept %v", got)
	}
	if d := q.Dropped(); d != (100-len(got))*10 {
		t.Fatalf("dropped %d bytes, kept %d items of 10", d, len(got))
	}
}
