package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	nfqueue "github.com/florianl/go-nfqueue/v2"
	"github.com/mdlayher/netlink"
	"golang.org/x/sys/unix"

	"delayer/internal/schedule"
)

// delayer joins the queue (kernel → hook → FIFO) to the release loop (FIFO → batch verdict).
type delayer struct {
	o     options
	nf    *nfqueue.Nfqueue
	start time.Time
	wake  chan struct{}

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
	return &delayer{o: o, sched: sched, start: time.Now(), wake: make(chan struct{}, 1)}, nil
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
func (d *delayer) now() time.Duration { return time.Since(d.start) }

// bind opens the queue: metadata-only copies (the payload never leaves the kernel), GSO packets kept
// whole (no software segmentation just to queue them), no fail-open (a full queue drops, and the
// kernel counts it: a silent pass-through would hide that the delay was not applied).
func (d *delayer) bind(ctx context.Context, fatal chan<- error) error {
	nf, err := nfqueue.Open(&nfqueue.Config{
		NfQueue:      uint16(d.o.queue),
		MaxQueueLen:  uint32(d.o.maxQueueLen),
		MaxPacketLen: 0,
		Copymode:     nfqueue.NfQnlCopyMeta,
		Flags:        nfqueue.NfQaCfgFlagGSO,
		AfFamily:     unix.AF_INET,
		WriteTimeout: time.Second,
	})
	if err != nil {
		return fmt.Errorf("open netfilter queue: %w (root, in the router namespace?)", err)
	}
	if err := nf.Con.SetReadBuffer(d.o.readBuffer); err != nil {
		return fmt.Errorf("netlink read buffer: %w", err)
	}
	d.nf = nf
	onError := func(err error) int {
		if ctx.Err() != nil {
			return 1
		}
		var opErr *netlink.OpError
		if errors.As(err, &opErr) && errors.Is(opErr.Err, unix.ENOBUFS) {
			// The socket overflowed: those packets stay queued in the kernel until a later batch
			// verdict (ids up to it) accepts them. Counted, not fatal.
			d.mu.Lock()
			d.c.overruns++
			d.mu.Unlock()
			return 0
		}
		if errors.As(err, &opErr) && (opErr.Timeout() || opErr.Temporary()) {
			return 0
		}
		select {
		case fatal <- fmt.Errorf("reading the queue: %w", err):
		default:
		}
		return 1
	}
	if err := nf.RegisterWithErrorFunc(ctx, d.onPacket, onError); err != nil {
		return fmt.Errorf("bind netfilter queue %d: %w", d.o.queue, err)
	}
	return nil
}

func (d *delayer) onPacket(a nfqueue.Attribute) int {
	if a.PacketID == nil {
		return 0
	}
	arrival := d.now()
	d.mu.Lock()
	d.fifo.Push(schedule.Held{ID: *a.PacketID, At: d.sched.ReleaseAt(arrival)})
	d.c.received++
	d.c.maxHeld = max(d.c.maxHeld, d.fifo.Len())
	wasEmpty := d.fifo.Len() == 1
	d.mu.Unlock()
	if wasEmpty {
		select {
		case d.wake <- struct{}{}:
		default:
		}
	}
	return 0
}

// releaseLoop sleeps until the head is due, then accepts every due packet with one batch verdict.
// It sleeps with nanosleep on a thread of its own: Go's timers wait in epoll with millisecond
// granularity, which would add up to 1 ms to each sub-millisecond wait; the kernel's high-resolution
// timers wake within tens of microseconds (the thread's timer slack is set to 1 ns: the default 50 µs
// lets the kernel defer the wake-up to batch it with others). Packets arriving meanwhile are due
// later (FIFO), so no wake-up is needed for them.
func (d *delayer) releaseLoop(ctx context.Context) {
	runtime.LockOSThread()
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0) // best effort: only precision depends on it
	for ctx.Err() == nil {
		d.mu.Lock()
		at, ok := d.fifo.Next()
		if !ok {
			d.mu.Unlock()
			select {
			case <-d.wake:
			case <-ctx.Done():
			}
			continue
		}
		now := d.now()
		if wait := at - now; wait > 0 {
			d.mu.Unlock()
			ts := unix.NsecToTimespec(int64(wait))
			_ = unix.Nanosleep(&ts, nil) // EINTR: the loop recomputes the wait
			continue
		}
		due := d.fifo.PopDue(now)
		d.c.add(due)
		d.mu.Unlock()
		if err := d.nf.SetVerdictBatch(due.LastID, nfqueue.NfAccept); err != nil {
			d.mu.Lock()
			d.c.verdictErrors++
			first := d.c.verdictErrors == 1
			d.mu.Unlock()
			if first {
				fmt.Fprintf(os.Stderr, "delayer: verdict for packets up to id %d: %v\n", due.LastID, err)
			}
		}
	}
}
