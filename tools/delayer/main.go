// Command delayer holds every packet of a netfilter queue for a fixed one-way delay, then accepts it.
// It runs inside the stage's router namespace, behind `iptables -A FORWARD -j NFQUEUE --queue-num N`:
// the only way to delay packets on kernels without the netem qdisc.
//
// Protocol with the stage (stdout, one JSON object per line): {"event":"ready",…} once bound to the
// queue, {"event":"stats",…} on SIGUSR1, {"event":"exit",…} on SIGTERM/SIGINT before exiting 0.
// On stdin, a line `delay <duration> <jitter>` (e.g. `delay 950us 0s`) changes the delay of packets
// arriving from then on, answered by {"event":"delay",…} (or {"event":"error",…}): the stage tunes the
// delay against the RTT it measures without dropping the queue.
// Errors go to stderr with exit status 1 (usage: 2).
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

type options struct {
	queue          uint
	delay, jitter  time.Duration
	seed           uint64
	maxQueueLen    uint
	readBuffer     int
	exitWithParent bool
}

func parseOptions(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("delayer", flag.ContinueOnError)
	fs.UintVar(&o.queue, "queue", 0, "netfilter queue number to read (iptables --queue-num)")
	fs.DurationVar(&o.delay, "delay", 0, "one-way delay given to every packet (e.g. 10ms, 950us)")
	fs.DurationVar(&o.jitter, "jitter", 0, "uniform jitter in [-jitter, +jitter] around the delay; order is kept")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the jitter's random draws")
	fs.UintVar(&o.maxQueueLen, "max-queue-len", 65536, "packets the kernel may hold for us (beyond: dropped and counted)")
	fs.IntVar(&o.readBuffer, "read-buffer", 8<<20, "netlink receive buffer in bytes (forced as root)")
	fs.BoolVar(&o.exitWithParent, "exit-with-parent", false, "exit when the process that started us dies (even by SIGKILL)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.queue > 65535 {
		return o, fmt.Errorf("--queue %d: must be 0..65535", o.queue)
	}
	return o, nil
}

func main() {
	o, err := parseOptions(os.Args[1:])
	if err != nil {
		if err != flag.ErrHelp {
			fmt.Fprintln(os.Stderr, "delayer:", err)
		}
		os.Exit(2)
	}
	if o.exitWithParent {
		// A bench killed with SIGKILL runs no cleanup: the kernel then stops us.
		parent := os.Getppid()
		if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0, 0, 0); err != nil {
			fail("prctl(PR_SET_PDEATHSIG): %v", err)
		}
		if os.Getppid() != parent {
			os.Exit(0)
		}
	}
	if err := run(o); err != nil {
		fail("%v", err)
	}
}

func run(o options) error {
	// Collect garbage only past 64 MiB: the loop allocates nothing per packet, and a collection must
	// wait for the loop's raw sleeps to end (up to 200 ms when idle) before it can stop the world.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(64 << 20)
	d, err := newDelayer(o)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fatal := make(chan error, 1)
	if err := d.bind(); err != nil {
		return err
	}
	defer d.close()
	go d.serve(ctx, fatal)
	emit("ready", d.snapshot())
	go readCommands(d)

	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGUSR1, syscall.SIGTERM, syscall.SIGINT)
	for {
		select {
		case s := <-signals:
			if s == syscall.SIGUSR1 {
				emit("stats", d.snapshot())
				continue
			}
			cancel()
			emit("exit", d.snapshot())
			return nil
		case err := <-fatal:
			emit("exit", d.snapshot())
			return err
		}
	}
}

// readCommands applies `delay <duration> <jitter>` lines from stdin. EOF just ends it: the parent
// closing our stdin is not a reason to stop delaying.
func readCommands(d *delayer) {
	lines := bufio.NewScanner(os.Stdin)
	for lines.Scan() {
		var delayText, jitterText string
		if n, _ := fmt.Sscanf(lines.Text(), "delay %s %s", &delayText, &jitterText); n != 2 {
			emitError(fmt.Sprintf("unknown command %q (expected: delay <duration> <jitter>)", lines.Text()))
			continue
		}
		delay, err1 := time.ParseDuration(delayText)
		jitter, err2 := time.ParseDuration(jitterText)
		if err := errors.Join(err1, err2); err != nil {
			emitError(err.Error())
			continue
		}
		if err := d.setDelay(delay, jitter); err != nil {
			emitError(err.Error())
			continue
		}
		emit("delay", d.snapshot())
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "delayer: "+format+"\n", args...)
	os.Exit(1)
}
