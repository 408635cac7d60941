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
	first := o.hold()
	o.Do(say("after first"))
	second := o.hold()
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
