package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"delayer/internal/schedule"
)

// slackFor is how late the kernel may wake the delayer past a packet's release time (the thread's
// timer slack): the wake-ups of packets due within it merge into one, with one read of what arrived
// meanwhile and one batch verdict. A twentieth of the hold, at most 1 ms: each packet then leaves
// 0 to slack late, and the stage measures the RTT it achieves and tunes the hold to it, so the mean
// of this lateness cancels and what stays is a spread of ± half the slack (± 2.5 % of region's RTT,
// ± 0.3 % of wan's), well inside the calibration's tolerance. Wake-ups, not packets, are most of the
// delayer's cost when packets come one by one: under ②-3 at region (requests ~45 µs apart) 1 ms
// against 200 µs cut its CPU per packet from 5.7–5.9 to 3.0–3.7 µs.
func slackFor(hold time.Duration) time.Duration {
	return min(time.Millisecond, hold/20)
}

// delayer runs one loop on one OS thread: sleep until the head of the FIFO is due (or, with nothing
// held, until a packet arrives), read every packet announced meanwhile, accept every due packet with
// one batch verdict. A packet's arrival is the kernel's receive timestamp, not the moment we read it,
// so packets arriving while others are held need no wake-up of their own.
type delayer struct {
	o       options
	q       *nfq
	stampFd int
	// startMono is CLOCK_MONOTONIC at start, read once by a system call; start is Go's clock at the
	// same moment. Later readings come from time.Now (the vDSO, no system call): under ②-3 at region
	// two clock_gettime system calls per read were a tenth of the delayer's CPU.
	startMono int64
	start     time.Time

	mu    sync.Mutex
	sched *schedule.Schedule
	fifo  schedule.FIFO
	c     counters
}

func newDelayer(o options) (*delayer, error) {
	sched, err := schedule.New(o.delay, o.jitter, o.seed)
	if err != nil {
		return nil, err
	}
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return &delayer{o: o, sched: sched, startMono: ts.Nano(), start: time.Now(), stampFd: -1}, nil
}

// clocks reads CLOCK_REALTIME and CLOCK_MONOTONIC (both in ns), the two clocks a kernel stamp can be on.
func (d *delayer) clocks() (realNs, monoNs int64) {
	t := time.Now()
	return t.UnixNano(), d.startMono + int64(t.Sub(d.start))
}

// setDelay changes the delay of packets arriving from now on.
func (d *delayer) setDelay(delay, jitter time.Duration) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.sched.Set(delay, jitter); err != nil {
		return err
	}
	d.o.delay, d.o.jitter = delay, jitter
	return nil
}

// now is monotonic time since start: the one clock for arrivals and releases.
func (d *delayer) now() time.Duration {
	return time.Since(d.start)
}

// bind opens the queue and switches receive timestamps on.
func (d *delayer) bind() error {
	q, err := openQueue(uint16(d.o.queue), uint32(d.o.maxQueueLen), d.o.readBuffer)
	if err != nil {
		return fmt.Errorf("open netfilter queue %d: %w", d.o.queue, err)
	}
	d.q = q
	if d.stampFd, err = enableRxTimestamps(); err != nil {
		// Not fatal: packets without a stamp are timed from when they are read (counted as unstamped).
		fmt.Fprintf(os.Stderr, "delayer: receive timestamps unavailable (%v): timing packets as they are read\n", err)
	}
	return nil
}

// arrival maps a packet's kernel stamp to our clock. A stamp is CLOCK_REALTIME when the router's
// receive path set it, or the sender's CLOCK_MONOTONIC departure time when TCP paced the packet
// (the kernel keeps such a delivery time across namespaces); either is within moments of now. One
// that is neither, or none, counts as arriving now.
func (d *delayer) arrival(stampNs, realNow, monoNow int64) (time.Duration, bool) {
	const past, ahead = int64(2 * time.Second), int64(50 * time.Millisecond)
	mono := int64(0)
	switch {
	case stampNs == 0:
		return time.Duration(monoNow - d.startMono), false
	case stampNs > realNow-past && stampNs < realNow+ahead:
		mono = monoNow - (realNow - stampNs)
	case stampNs > monoNow-past && stampNs < monoNow+ahead:
		mono = stampNs
	default:
		return time.Duration(monoNow - d.startMono), false
	}
	return time.Duration(min(mono, monoNow) - d.startMono), true
}

// serve runs the loop until ctx ends; a queue that cannot be read any more is reported on fatal.
//
// Its system calls are raw (the Go scheduler is not told): the thread is locked and holds its P while
// it sleeps, so no other thread has to take over, and the runtime's monitor, which polls every 20 µs
// while some thread is inside a system call it was told of, stays asleep. Profiled under ②-3 at
// region, that monitor and its hand-offs took a fifth of the delayer's CPU. The other goroutines
// (signals, stdin) run on the second P.
func (d *delayer) serve(ctx context.Context, fatal chan<- error) {
	runtime.LockOSThread()
	r := newReader()
	batch := make([]queued, 0, batchSlots)
	slack := time.Duration(-1)
	released := time.Duration(0) // when the last release read the clock
	for ctx.Err() == nil {
		d.mu.Lock()
		at, held := d.fifo.Next()
		want := slackFor(d.o.delay)
		d.mu.Unlock()
		if want != slack {
			// Per thread, and the hold can change (setDelay): set on this thread whenever it does.
			slack = want
			_ = unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(max(1, slack.Nanoseconds())), 0, 0, 0) // best effort
		}
		if !held {
			// Nothing held: wait for the next packet (waking now and then to notice the end).
			d.q.waitReadable(unix.NsecToTimespec(int64(200 * time.Millisecond)))
		} else if wait := sleepFor(at, d.now(), released, slack); wait > 0 {
			sleep(unix.NsecToTimespec(int64(wait)))
		}
		if err := d.drain(r, batch); err != nil {
			if ctx.Err() == nil {
				select {
				case fatal <- fmt.Errorf("reading the queue: %w", err):
				default:
				}
			}
			return
		}
		released = d.release()
	}
}

// sleepFor is how long to sleep for a head due at `at`. Timed from the last release's clock reading
// (if within a quarter of the slack), not from now: packets that came due while that release ran
// would otherwise each cost a loop of their own (a read and a verdict for one or two packets; under
// ②-3 at region two loops in five). They leave with the next wake-up instead, at most a quarter of
// the slack later, and never before they are due (the sleep starts now and lasts at least at − now).
func sleepFor(at, now, released, slack time.Duration) time.Duration {
	return at - max(released, now-slack/4)
}

// drain reads every packet announced so far and gives each its release time.
func (d *delayer) drain(r *reader, batch []queued) error {
	for {
		var (
			err  error
			read int
		)
		batch, read, err = d.q.read(r, batch[:0])
		switch {
		case errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR):
			return nil
		case errors.Is(err, unix.ENOBUFS):
			// The socket overflowed: those packets stay queued in the kernel until a later batch
			// verdict (ids up to it) accepts them. Counted, not fatal.
			d.mu.Lock()
			d.c.overruns++
			d.mu.Unlock()
			continue
		case err != nil:
			return err
		}
		realNow, monoNow := d.clocks()
		d.mu.Lock()
		for _, p := range batch {
			arrived, stamped := d.arrival(p.stampNs, realNow, monoNow)
			if !stamped {
				d.c.unstamped++
			}
			d.fifo.Push(schedule.Held{ID: p.id, At: d.sched.ReleaseAt(arrived)})
			d.c.received++
		}
		d.c.reads++
		d.c.maxHeld = max(d.c.maxHeld, d.fifo.Len())
		d.mu.Unlock()
		if read < batchSlots {
			return nil // the socket is empty: no need for one more call to hear EAGAIN
		}
	}
}

// release accepts every due packet with one batch verdict, and returns the clock reading it used.
func (d *delayer) release() time.Duration {
	now := d.now()
	d.mu.Lock()
	due := d.fifo.PopDue(now)
	if due.Count > 0 {
		d.c.add(due)
	}
	d.mu.Unlock()
	if due.Count == 0 {
		return now
	}
	if err := d.q.acceptUpTo(due.LastID); err != nil {
		d.mu.Lock()
		d.c.verdictErrors++
		first := d.c.verdictErrors == 1
		d.mu.Unlock()
		if first {
			fmt.Fprintf(os.Stderr, "delayer: verdict for packets up to id %d: %v\n", due.LastID, err)
		}
	}
	return now
}

func (d *delayer) close() {
	if d.q != nil {
		d.q.close()
	}
	if d.stampFd >= 0 {
		unix.Close(d.stampFd)
	}
}
