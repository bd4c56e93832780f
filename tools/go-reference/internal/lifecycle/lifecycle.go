// Package lifecycle mirrors libs/config lifecycle.ts and listen-error.ts: start-up failures that name
// the variable to change, and a clean stop (exit 0) on SIGTERM or SIGINT.
package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"goreference/internal/settings"
)

// ShutdownGrace is how long a process may take to finish in-flight work after SIGTERM/SIGINT.
const ShutdownGrace = 10 * time.Second

// Fail prints "<name>: <message>" on stderr and exits 1, as the Node apps do on a start-up error.
func Fail(name string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	os.Exit(1)
}

// LoadSettings reads the environment, or stops the process with a message naming the variable.
func LoadSettings(name string) settings.Settings {
	s, err := settings.Load(os.Getenv)
	if err != nil {
		Fail(name, err)
	}
	return s
}

// ExplainListenError turns a failed listen into a sentence naming the port and the variable that sets it.
func ExplainListenError(err error, variable string, port int, host string) error {
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return fmt.Errorf("port %d on %s is already in use: stop what holds it or set %s to a free port", port, host, variable)
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return fmt.Errorf("cannot bind %s:%d: the address is not on this machine (check HOST)", host, port)
	default:
		return fmt.Errorf("cannot listen on %s:%d (%s): %v", host, port, variable, err)
	}
}

// StopOnSignals blocks until SIGTERM or SIGINT, then runs close (given ShutdownGrace to finish) and
// exits: 0 after a clean close, 1 if close failed or was still busy when the grace period ended.
func StopOnSignals(name string, close func(ctx context.Context) error) {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	sig := <-signals
	signal.Stop(signals)
	signalName := "SIGTERM"
	if sig == syscall.SIGINT {
		signalName = "SIGINT"
	}
	fmt.Printf("%s: %s, shutting down\n", name, signalName)
	ctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- close(ctx) }()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			fmt.Printf("%s: shutdown failed: %v\n", name, err)
			os.Exit(1)
		}
		if err == nil {
			os.Exit(0)
		}
	case <-ctx.Done():
	}
	fmt.Printf("%s: still busy after %d s, exiting anyway\n", name, int(ShutdownGrace/time.Second))
	os.Exit(1)
}

// ParentPipeEnv names the descriptor of a pipe whose other end the parent (the bench) holds
// (PARENT_PIPE_ENV in lifecycle.ts). When the parent dies, however it dies, the kernel closes its end.
const ParentPipeEnv = "BENCH_PARENT_FD"

// ExitWithParent exits when the process that started this one is gone, if it asked for that
// (ParentPipeEnv): a server outliving its bench keeps ports, CPU and memory the next run would measure against.
func ExitWithParent(name string) {
	text := strings.TrimSpace(os.Getenv(ParentPipeEnv))
	if text == "" {
		return
	}
	fd, err := strconv.Atoi(text)
	if err != nil || fd < 3 {
		Fail(name, fmt.Errorf("%s must be a file descriptor number of 3 or more, got %q", ParentPipeEnv, text))
	}
	os.Unsetenv(ParentPipeEnv)
	pipe := os.NewFile(uintptr(fd), "parent-pipe")
	go func() {
		// The parent never writes: a read returns only at end-of-file (or an error), when its end is closed.
		_, _ = io.Copy(io.Discard, pipe)
		fmt.Fprintf(os.Stderr, "%s: the process that started it is gone (its pipe closed); exiting\n", name)
		os.Exit(1)
	}()
}
