package main

import (
	"encoding/binary"
	"testing"
	"time"
)

// packetMessage builds what the kernel sends for one queued packet: nlmsghdr + nfgenmsg + attributes.
func packetMessage(id uint32, stamp *[2]uint64) []byte {
	hdr := binary.BigEndian.AppendUint32(nil, id)
	hdr = append(hdr, 0x08, 0x00, 2) // hw_protocol (IPv4), hook (FORWARD)
	attrs := attr(nil, nfqaPacketHdr, hdr)
	attrs = attr(attrs, 5, be32(7)) // NFQA_IFINDEX_INDEV: ignored
	if stamp != nil {
		ts := binary.BigEndian.AppendUint64(nil, stamp[0])
		attrs = attr(attrs, nfqaTimestamp, binary.BigEndian.AppendUint64(ts, stamp[1]))
	}
	q := &nfq{queue: 4}
	msg := q.message(nfqnlMsgPacket, 0, attrs)
	return append([]byte(nil), msg...)
}

func TestParseMessagesReadsIdsAndStampsOfBackToBackMessages(t *testing.T) {
	b := append(packetMessage(41, &[2]uint64{1_700_000_000, 250_000}), packetMessage(42, nil)...)
	got := parseMessages(b, nil)
	if len(got) != 2 {
		t.Fatalf("parsed %d packets, want 2: %+v", len(got), got)
	}
	if got[0].id != 41 || got[0].stampNs != 1_700_000_000*1e9+250_000*1e3 {
		t.Fatalf("first packet %+v", got[0])
	}
	if got[1].id != 42 || got[1].stampNs != 0 {
		t.Fatalf("second packet %+v", got[1])
	}
}

func TestParseMessagesStopsAtATruncatedMessage(t *testing.T) {
	b := packetMessage(7, nil)
	if got := parseMessages(b[:len(b)-3], nil); len(got) != 0 {
		t.Fatalf("parsed %+v from a truncated message", got)
	}
}

func TestArrivalTakesEitherClockOfTheStampAndFallsBackToNow(t *testing.T) {
	d := &delayer{startMono: 1_000_000_000}
	realNow, monoNow := int64(1_700_000_000_000_000_000), int64(5_000_000_000)
	cases := []struct {
		name    string
		stamp   int64
		want    time.Duration
		stamped bool
	}{
		{"receive stamp (realtime), 3 ms ago", realNow - 3_000_000, time.Duration(monoNow - 3_000_000 - d.startMono), true},
		{"paced departure time (monotonic), 1 ms ago", monoNow - 1_000_000, time.Duration(monoNow - 1_000_000 - d.startMono), true},
		{"paced departure time in the future: now", monoNow + 2_000_000, time.Duration(monoNow - d.startMono), true},
		{"no stamp", 0, time.Duration(monoNow - d.startMono), false},
		{"a stamp on no clock of ours", 42, time.Duration(monoNow - d.startMono), false},
	}
	for _, c := range cases {
		got, stamped := d.arrival(c.stamp, realNow, monoNow)
		if got != c.want || stamped != c.stamped {
			t.Errorf("%s: got %v (stamped %v), want %v (stamped %v)", c.name, got, stamped, c.want, c.stamped)
		}
	}
}

func TestSlackIsATwentiethOfTheHoldAtMostOneMillisecond(t *testing.T) {
	for hold, want := range map[time.Duration]time.Duration{
		0:                      0,
		2 * time.Millisecond:   100 * time.Microsecond,
		20 * time.Millisecond:  time.Millisecond,
		160 * time.Millisecond: time.Millisecond,
	} {
		if got := slackFor(hold); got != want {
			t.Errorf("slackFor(%v) = %v, want %v", hold, got, want)
		}
	}
}

func TestSleepIsTimedFromTheLastReleaseSoPacketsDueMeanwhileWaitForTheNextWakeUp(t *testing.T) {
	const slack = time.Millisecond
	us := func(n int) time.Duration { return time.Duration(n) * time.Microsecond }
	cases := []struct {
		name              string
		at, now, released time.Duration
		want              time.Duration
	}{
		{"head due 3 µs after the release, now 10 µs after it: sleeps 3 µs", us(1003), us(1010), us(1000), us(3)},
		{"head due later: sleeps until it, plus the 10 µs since the release", us(1500), us(1010), us(1000), us(500)},
		{"a release long ago counts as a quarter of the slack ago: 100 µs overdue, sleeps 150 µs", us(8900), us(9000), us(1000), us(150)},
		{"overdue by more than a quarter of the slack: no sleep", us(5000), us(9000), us(1000), us(-3750)},
	}
	for _, c := range cases {
		if got := sleepFor(c.at, c.now, c.released, slack); got != c.want {
			t.Errorf("%s: sleepFor = %v, want %v", c.name, got, c.want)
		}
	}
}
