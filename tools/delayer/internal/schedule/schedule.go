// Package schedule decides when each queued packet is released. It is pure (no netlink, no clock of
// its own) so its timing rules can be tested exactly.
package schedule

import (
	"errors"
	"math/rand/v2"
	"time"
)

// Schedule gives each packet its release time: arrival + delay (+ a uniform jitter in
// [-jitter, +jitter] when jitter > 0). Release times never go backwards, so packets leave in the
// order they arrived: one FIFO and one timer suffice, and no flow is ever reordered. With jitter this
// clamp makes a packet drawn early wait behind its predecessor (the jitter seen is correlated and its
// mean slightly above the delay), as on a real single queue.
type Schedule struct {
	delay  time.Duration
	jitter time.Duration
	rng    *rand.Rand
	last   time.Duration
}

// New checks the figures and returns a Schedule; seed makes jittered runs reproducible.
func New(delay, jitter time.Duration, seed uint64) (*Schedule, error) {
	if err := check(delay, jitter); err != nil {
		return nil, err
	}
	return &Schedule{delay: delay, jitter: jitter, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}, nil
}

func check(delay, jitter time.Duration) error {
	switch {
	case delay < 0:
		return errors.New("delay must be >= 0")
	case jitter < 0:
		return errors.New("jitter must be >= 0")
	case jitter > delay:
		return errors.New("jitter must not exceed the delay (a packet cannot leave before it arrived)")
	}
	return nil
}

// Set changes the delay and jitter for packets arriving from now on. Packets already held keep their
// release times, and a shorter delay cannot overtake them (release times still never go backwards).
func (s *Schedule) Set(delay, jitter time.Duration) error {
	if err := check(delay, jitter); err != nil {
		return err
	}
	s.delay, s.jitter = delay, jitter
	return nil
}

// ReleaseAt returns when a packet that arrived at `arrival` (monotonic time) is to be released.
func (s *Schedule) ReleaseAt(arrival time.Duration) time.Duration {
	at := arrival + s.delay
	if s.jitter > 0 {
		at += time.Duration(s.rng.Int64N(int64(2*s.jitter)+1)) - s.jitter
	}
	if at < s.last {
		at = s.last
	}
	s.last = at
	return at
}
