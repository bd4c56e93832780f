package schedule

import (
	"testing"
	"time"
)

func TestConstantDelayReleasesEachPacketExactlyDelayAfterArrival(t *testing.T) {
	s, err := New(10*time.Millisecond, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, arrival := range []time.Duration{0, time.Microsecond, 5 * time.Millisecond, time.Second} {
		if got := s.ReleaseAt(arrival); got != arrival+10*time.Millisecond {
			t.Fatalf("arrival %v: released at %v, want %v", arrival, got, arrival+10*time.Millisecond)
		}
	}
}

func TestJitterStaysWithinBoundsAndNeverReorders(t *testing.T) {
	delay, jitter := 5*time.Millisecond, 2*time.Millisecond
	s, err := New(delay, jitter, 42)
	if err != nil {
		t.Fatal(err)
	}
	var last time.Duration
	spread := map[bool]bool{}
	for i := 0; i < 10_000; i++ {
		arrival := time.Duration(i) * 100 * time.Microsecond
		at := s.ReleaseAt(arrival)
		if at < last {
			t.Fatalf("packet %d released at %v before its predecessor at %v", i, at, last)
		}
		if at < arrival+delay-jitter {
			t.Fatalf("packet %d released %v after arrival, below delay-jitter", i, at-arrival)
		}
		// Only the order clamp may push a packet past delay+jitter, and never past its predecessor.
		if at > arrival+delay+jitter && at != last {
			t.Fatalf("packet %d released %v after arrival, above delay+jitter", i, at-arrival)
		}
		spread[at-arrival < delay] = true
		last = at
	}
	if !spread[true] || !spread[false] {
		t.Fatal("jitter drew only one side of the delay")
	}
}

func TestSameSeedSameJitter(t *testing.T) {
	a, _ := New(time.Millisecond, time.Millisecond, 7)
	b, _ := New(time.Millisecond, time.Millisecond, 7)
	for i := 0; i < 100; i++ {
		arrival := time.Duration(i) * time.Millisecond
		if x, y := a.ReleaseAt(arrival), b.ReleaseAt(arrival); x != y {
			t.Fatalf("packet %d: %v vs %v", i, x, y)
		}
	}
}

func TestNewRejectsImpossibleFigures(t *testing.T) {
	for _, c := range []struct{ delay, jitter time.Duration }{{-1, 0}, {0, -1}, {time.Millisecond, 2 * time.Millisecond}} {
		if _, err := New(c.delay, c.jitter, 1); err == nil {
			t.Fatalf("New(%v, %v) accepted", c.delay, c.jitter)
		}
	}
}

func TestFIFOReleasesInArrivalOrderOnlyWhenDue(t *testing.T) {
	var q FIFO
	if _, ok := q.Next(); ok {
		t.Fatal("empty FIFO has a head")
	}
	for i := uint32(1); i <= 5; i++ {
		q.Push(Held{ID: i, At: time.Duration(i) * time.Millisecond})
	}
	if d := q.PopDue(500 * time.Microsecond); d.Count != 0 {
		t.Fatalf("released %d packets before any was due", d.Count)
	}
	d := q.PopDue(3 * time.Millisecond)
	if d.Count != 3 || d.LastID != 3 {
		t.Fatalf("at 3 ms: released %d up to id %d, want 3 up to id 3", d.Count, d.LastID)
	}
	// Due at 1, 2 and 3 ms, released at 3 ms: 2 + 1 + 0 ms late.
	if d.LateSum != 3*time.Millisecond || d.LateMax != 2*time.Millisecond {
		t.Fatalf("lateness sum %v max %v, want 3ms and 2ms", d.LateSum, d.LateMax)
	}
	if at, ok := q.Next(); !ok || at != 4*time.Millisecond {
		t.Fatalf("next due at %v (%v), want 4ms", at, ok)
	}
	d = q.PopDue(time.Hour)
	if d.Count != 2 || d.LastID != 5 || q.Len() != 0 {
		t.Fatalf("released %d up to %d, %d left", d.Count, d.LastID, q.Len())
	}
}

func TestFIFOGrowsAcrossTheRingBoundaryKeepingOrder(t *testing.T) {
	var q FIFO
	id := uint32(0)
	// Fill and drain partly so the ring's head moves, then overfill so it must grow while wrapped.
	for i := 0; i < 1000; i++ {
		id++
		q.Push(Held{ID: id, At: time.Duration(id)})
	}
	q.PopDue(time.Duration(600))
	for i := 0; i < 3000; i++ {
		id++
		q.Push(Held{ID: id, At: time.Duration(id)})
	}
	want := uint32(601)
	for q.Len() > 0 {
		d := q.PopDue(time.Duration(want))
		if d.Count != 1 || d.LastID != want {
			t.Fatalf("popped %d up to %d, want exactly id %d", d.Count, d.LastID, want)
		}
		want++
	}
	if want != id+1 {
		t.Fatalf("drained up to %d, pushed %d", want-1, id)
	}
}

func TestIDWrapAroundKeepsFIFOOrder(t *testing.T) {
	var q FIFO
	ids := []uint32{^uint32(0) - 1, ^uint32(0), 0, 1}
	for i, id := range ids {
		q.Push(Held{ID: id, At: time.Duration(i)})
	}
	d := q.PopDue(time.Duration(3))
	if d.Count != 4 || d.LastID != 1 {
		t.Fatalf("released %d up to id %d, want 4 up to id 1", d.Count, d.LastID)
	}
}

func TestSetChangesTheDelayOfLaterPacketsWithoutOvertakingHeldOnes(t *testing.T) {
	s, _ := New(10*time.Millisecond, 0, 1)
	first := s.ReleaseAt(0) // due at 10 ms
	if err := s.Set(time.Millisecond, 0); err != nil {
		t.Fatal(err)
	}
	// Arrives at 1 ms: 1 ms delay would put it at 2 ms, before the held packet; it waits behind it.
	if got := s.ReleaseAt(time.Millisecond); got != first {
		t.Fatalf("released at %v, want %v (behind the held packet)", got, first)
	}
	if got := s.ReleaseAt(20 * time.Millisecond); got != 21*time.Millisecond {
		t.Fatalf("released at %v, want 21ms", got)
	}
	if err := s.Set(time.Millisecond, 2*time.Millisecond); err == nil {
		t.Fatal("jitter above the delay accepted")
	}
}
