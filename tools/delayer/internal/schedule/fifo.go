package schedule

import "time"

// Held is one packet waiting in the delayer: the kernel's packet id and its release time.
type Held struct {
	ID uint32
	At time.Duration
}

// FIFO holds packets in arrival order (a growable ring). Release times are non-decreasing along it
// (Schedule guarantees that), so the head is always the next packet due.
type FIFO struct {
	items      []Held
	head, size int
}

// Len is the number of packets held.
func (q *FIFO) Len() int { return q.size }

// Push appends a packet at the tail.
func (q *FIFO) Push(h Held) {
	if q.size == len(q.items) {
		q.grow()
	}
	q.items[(q.head+q.size)%len(q.items)] = h
	q.size++
}

// Next returns the release time of the head, and false when empty.
func (q *FIFO) Next() (time.Duration, bool) {
	if q.size == 0 {
		return 0, false
	}
	return q.items[q.head].At, true
}

// Due is what PopDue released: how many packets, the id of the last one, and how late they left
// (now − their release time), summed and at most, so the delayer can report its own precision.
type Due struct {
	Count   int
	LastID  uint32
	LateSum time.Duration
	LateMax time.Duration
}

// PopDue removes every packet due at `now`. One batch verdict for Due.LastID releases them all: the
// kernel accepts every queued id up to it, and ids are handed out in arrival order (the kernel
// compares them modulo 2^32, so wrap-around is safe).
func (q *FIFO) PopDue(now time.Duration) Due {
	var d Due
	for q.size > 0 && q.items[q.head].At <= now {
		h := q.items[q.head]
		late := now - h.At
		d.Count++
		d.LastID = h.ID
		d.LateSum += late
		d.LateMax = max(d.LateMax, late)
		q.head = (q.head + 1) % len(q.items)
		q.size--
	}
	return d
}

func (q *FIFO) grow() {
	n := 2 * len(q.items)
	if n == 0 {
		n = 1024
	}
	items := make([]Held, n)
	for i := 0; i < q.size; i++ {
		items[i] = q.items[(q.head+i)%len(q.items)]
	}
	q.items, q.head = items, 0
}
