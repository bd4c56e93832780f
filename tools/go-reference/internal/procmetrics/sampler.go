// Package procmetrics mirrors libs/config/src/process-sampler.ts: what a process says about its own
// cost (cumulative CPU, resident memory now, the windowed and lifetime peaks, and phase times).
package procmetrics

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// RSSSampleInterval is how often resident memory is sampled for the windowed peak.
const RSSSampleInterval = 20 * time.Millisecond

// Sample is one reading: the same fields, names and units as ProcessSample (and proto/metrics.proto).
type Sample struct {
	CPUUserMs    float64 `json:"cpuUserMs"`
	CPUSystemMs  float64 `json:"cpuSystemMs"`
	RSSBytes     float64 `json:"rssBytes"`
	PeakRSSBytes float64 `json:"peakRssBytes"`
	MaxRSSBytes  float64 `json:"maxRssBytes"`
	BuildMs      float64 `json:"buildMs"`
	EncodeMs     float64 `json:"encodeMs"`
}

// Cost is what a window between two readings cost: CPU used in it and the peak RSS seen in it.
type Cost struct {
	CPUUserMs    float64 `json:"cpuUserMs"`
	CPUSystemMs  float64 `json:"cpuSystemMs"`
	PeakRSSBytes float64 `json:"peakRssBytes"`
}

// CostBetween is costBetween: CPU differences, and the peak of the window that ends at after.
func CostBetween(before, after Sample) Cost {
	return Cost{
		CPUUserMs:    after.CPUUserMs - before.CPUUserMs,
		CPUSystemMs:  after.CPUSystemMs - before.CPUSystemMs,
		PeakRSSBytes: after.PeakRSSBytes,
	}
}

// Sampler samples this process's resident memory every 20 ms to keep the peak of the current window
// (the kernel's maxRSS is only a lifetime peak), and reads CPU time from getrusage.
type Sampler struct {
	mu      sync.Mutex
	peak    int64
	statm   *os.File
	page    int64
	buildNs atomic.Int64
	encNs   atomic.Int64
}

var (
	shared     *Sampler
	sharedOnce sync.Once
)

// Shared is the process's one sampler, started on first use (processSampler()).
func Shared() *Sampler {
	sharedOnce.Do(func() { shared = New() })
	return shared
}

// New starts a sampler; its ticker goroutine lives as long as the process.
func New() *Sampler {
	s := &Sampler{page: int64(os.Getpagesize())}
	if f, err := os.Open("/proc/self/statm"); err == nil {
		s.statm = f
	}
	s.peak = s.rss()
	go func() {
		for range time.Tick(RSSSampleInterval) {
			s.tick()
		}
	}()
	return s
}

// Read returns a reading; with resetPeak, a new peak window starts at the current RSS.
func (s *Sampler) Read(resetPeak bool) Sample {
	s.tick()
	var usage syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	rss := s.rss()
	s.mu.Lock()
	defer s.mu.Unlock()
	sample := Sample{
		CPUUserMs:    timevalMs(usage.Utime),
		CPUSystemMs:  timevalMs(usage.Stime),
		RSSBytes:     float64(rss),
		PeakRSSBytes: float64(max(s.peak, rss)),
		MaxRSSBytes:  float64(usage.Maxrss) * 1024, // kilobytes on Linux
		BuildMs:      float64(s.buildNs.Load()) / 1e6,
		EncodeMs:     float64(s.encNs.Load()) / 1e6,
	}
	if resetPeak {
		s.peak = rss
	}
	return sample
}

// AddBuild adds time spent building reply rows (cumulative, like CPU time: readers take differences).
func (s *Sampler) AddBuild(d time.Duration) { s.buildNs.Add(int64(d)) }

// AddEncode adds time spent serializing replies.
func (s *Sampler) AddEncode(d time.Duration) { s.encNs.Add(int64(d)) }

func (s *Sampler) tick() {
	rss := s.rss()
	s.mu.Lock()
	if rss > s.peak {
		s.peak = rss
	}
	s.mu.Unlock()
}

// rss reads the resident set size from /proc/self/statm (second field, in pages).
func (s *Sampler) rss() int64 {
	if s.statm == nil {
		return 0
	}
	var buf [128]byte
	n, err := s.statm.ReadAt(buf[:], 0)
	if n == 0 && err != nil {
		return 0
	}
	fields := bytes.Fields(buf[:n])
	if len(fields) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(string(fields[1]), 10, 64)
	if err != nil {
		return 0
	}
	return pages * s.page
}

func timevalMs(tv syscall.Timeval) float64 {
	return float64(tv.Sec)*1000 + float64(tv.Usec)/1000
}
