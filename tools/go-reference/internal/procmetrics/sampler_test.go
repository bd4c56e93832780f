package procmetrics

import (
	"testing"
	"time"
)

func TestReadReportsThisProcess(t *testing.T) {
	s := New()
	first := s.Read(true)
	if first.RSSBytes <= 0 || first.PeakRSSBytes < first.RSSBytes || first.MaxRSSBytes <= 0 {
		t.Fatalf("implausible memory reading: %+v", first)
	}
	// Burn a little CPU and memory so the next reading moves.
	block := make([]byte, 32<<20)
	for i := range block {
		block[i] = byte(i)
	}
	deadline := time.Now().Add(30 * time.Millisecond)
	for time.Now().Before(deadline) {
	}
	s.AddBuild(3 * time.Millisecond)
	s.AddEncode(1500 * time.Microsecond)
	second := s.Read(false)
	if second.CPUUserMs+second.CPUSystemMs <= first.CPUUserMs+first.CPUSystemMs {
		t.Errorf("CPU time did not grow: %+v then %+v", first, second)
	}
	if second.PeakRSSBytes < first.RSSBytes+16<<20 {
		t.Errorf("peak did not see the 32 MiB block: %+v then %+v", first, second)
	}
	if second.BuildMs-first.BuildMs != 3 || second.EncodeMs-first.EncodeMs != 1.5 {
		t.Errorf("phases: %+v then %+v", first, second)
	}
	cost := CostBetween(first, second)
	if cost.PeakRSSBytes != second.PeakRSSBytes || cost.CPUUserMs != second.CPUUserMs-first.CPUUserMs {
		t.Errorf("CostBetween = %+v", cost)
	}
	_ = block[len(block)-1]
}
