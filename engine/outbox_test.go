package engine

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// What comes after a held place waits for its fill, whichever goroutine fills it; an item that
// adds another runs it after itself; wait returns once everything ran.
func TestOutboxKeepsTheOrder(t *testing.T) {
	o := NewOutbox()
	var mu sync.Mutex
	var got []string
	say := func(s string) func() {
		return func() {
			mu.Lock()
			got = append(got, s)
			mu.Unlock()
		}
	}
	o.Do(say("before"))
	first := o.hold(1)
	o.Do(say("after first"))
	second := o.hold(2)
	o.Do(func() {
		say("after second")()
		o.Do(say("added by an item"))
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		o.fill(second, say("second")) // first still held: nothing runs yet
	}()
	<-done
	mu.Lock()
	if want := []string{"before"}; !slices.Equal(got, want) {
		t.Fatalf("with the first place held: %q", got)
	}
	mu.Unlock()
	o.fill(first, say("first"))
	o.wait()
	want := []string{"before", "first", "after first", "second", "after second", "added by an item"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// What is told of a stop after its verdict goes before the verdict of a later stop that waits
// for its observation, not after it.
func TestOutboxTellsOfAStopBeforeTheNext(t *testing.T) {
	o := NewOutbox()
	var got []string
	say := func(s string) func() { return func() { got = append(got, s) } }
	first := o.hold(1)
	o.fill(first, say("stop 1"))
	o.Do(say("hook of stop 2"))
	second := o.hold(2)
	o.Do(say("after stop 2"))
	o.DoForStop(1, say("other hooks of stop 1"))
	o.DoForStop(2, say("other hooks of stop 2"))
	o.fill(second, say("stop 2"))
	o.wait()
	want := []string{"stop 1", "hook of stop 2", "other hooks of stop 1", "stop 2", "after stop 2", "other hooks of stop 2"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
