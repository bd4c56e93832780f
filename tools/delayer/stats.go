package main

import (
	"encoding/json"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"delayer/internal/schedule"
)

// counters are the delayer's own account of its work, reported so the bench can attribute CPU and
// check precision (how late packets left) without trusting the configuration.
type counters struct {
	received, released, verdicts int64
	overruns, verdictErrors      int64
	// reads of the queue's socket, and packets that came without a usable kernel timestamp (timed
	// from when they were read instead)
	reads, unstamped int64
	maxHeld          int
	lateSum, lateMax time.Duration
}

func (c *counters) add(d schedule.Due) {
	c.released += int64(d.Count)
	c.verdicts++
	c.lateSum += d.LateSum
	c.lateMax = max(c.lateMax, d.LateMax)
}

// Snapshot is the JSON line written on ready, on SIGUSR1 and on exit.
type Snapshot struct {
	Event         string  `json:"event"`
	PID           int     `json:"pid"`
	Queue         uint    `json:"queue"`
	DelayUs       float64 `json:"delayUs"`
	JitterUs      float64 `json:"jitterUs"`
	Received      int64   `json:"received"`
	Released      int64   `json:"released"`
	Held          int     `json:"held"`
	MaxHeld       int     `json:"maxHeld"`
	Verdicts      int64   `json:"verdicts"`
	Overruns      int64   `json:"overruns"`
	VerdictErrors int64   `json:"verdictErrors"`
	Reads         int64   `json:"reads"`
	Unstamped     int64   `json:"unstamped"`
	LateMeanUs    float64 `json:"lateMeanUs"`
	LateMaxUs     float64 `json:"lateMaxUs"`
	CPUUserUs     float64 `json:"cpuUserUs"`
	CPUSystemUs   float64 `json:"cpuSystemUs"`
	UptimeS       float64 `json:"uptimeS"`
}

func (d *delayer) snapshot() Snapshot {
	var ru unix.Rusage
	_ = unix.Getrusage(unix.RUSAGE_SELF, &ru)
	d.mu.Lock()
	defer d.mu.Unlock()
	c := d.c
	s := Snapshot{
		PID: os.Getpid(), Queue: d.o.queue,
		DelayUs: us(d.o.delay), JitterUs: us(d.o.jitter),
		Received: c.received, Released: c.released, Held: d.fifo.Len(), MaxHeld: c.maxHeld,
		Verdicts: c.verdicts, Overruns: c.overruns, VerdictErrors: c.verdictErrors, Reads: c.reads, Unstamped: c.unstamped,
		LateMaxUs:   us(c.lateMax),
		CPUUserUs:   float64(ru.Utime.Nano()) / 1e3,
		CPUSystemUs: float64(ru.Stime.Nano()) / 1e3,
		UptimeS:     d.now().Seconds(),
	}
	if c.released > 0 {
		s.LateMeanUs = us(c.lateSum) / float64(c.released)
	}
	return s
}

func emitError(message string) {
	line, _ := json.Marshal(map[string]string{"event": "error", "error": message})
	emitMu.Lock()
	defer emitMu.Unlock()
	os.Stdout.Write(append(line, '\n'))
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

var emitMu sync.Mutex

func emit(event string, s Snapshot) {
	s.Event = event
	line, _ := json.Marshal(s)
	emitMu.Lock()
	defer emitMu.Unlock()
	os.Stdout.Write(append(line, '\n'))
}
