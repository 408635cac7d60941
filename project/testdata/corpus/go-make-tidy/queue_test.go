package queue

import "testing"

func TestFIFO(t *testing.T) {
	var q Queue
	q.Push(1)
	q.Push(2)
	if v, ok := q.Pop(); !ok || v != 1 {
		t.Fatalf("Pop = %d, %v; want 1, true", v, ok)
	}
	if v, ok := q.Pop(); !ok || v != 2 {
		t.Fatalf("Pop = %d, %v; want 2, true", v, ok)
	}
	if _, ok := q.Pop(); ok {
		t.Fatal("Pop of an empty queue succeeded")
	}
}
