package queue

// Queue is a FIFO of ints.
type Queue struct{ items []int }

// Push adds v at the back.
func (q *Queue) Push(v int) { q.items = append(q.items, v) }

// Pop takes the front, false when the queue is empty.
func (q *Queue) Pop() (int, bool) {
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}
