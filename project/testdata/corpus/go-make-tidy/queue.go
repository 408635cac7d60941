package queue

// Queue is a FIFO of ints.
type Queue struct{ items []int }
