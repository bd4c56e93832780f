// Package cpuprofile is the Go side of the bench's --cpu-profile (tools/bench/src/run/cpu-profile-agent.ts
// is the Node side): runtime/pprof's CPU profiler, started and stopped by the bench over a Unix socket so
// that it samples the timed calls only. The protocol, one command per connection, a line each way:
//
//	{"op":"start","intervalUs":200}  → "ok"   the profiler runs from here, into a temp file
//	{"op":"stop","file":"/abs/x"}    → "ok"   it stops; the profile (pprof, gzipped protobuf) is at x, whole
//
// Anything else, or a failure, answers "error: <why>".
package cpuprofile

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
)

// SocketEnv names the socket to listen on (CPU_PROFILE_SOCKET_ENV in cpu-profile-agent.ts); unset: nothing runs.
const SocketEnv = "BENCH_CPU_PROFILE_SOCKET"

type command struct {
	Op         string `json:"op"`
	IntervalUs int    `json:"intervalUs"`
	File       string `json:"file"`
}

// profiler runs one profile at a time, into a temp file that a stop renames into place.
type profiler struct {
	mu   sync.Mutex
	temp *os.File
}

// withoutStderr runs f with the process's standard error pointed at /dev/null: StartCPUProfile sets its
// own rate of 100 Hz, which the runtime refuses (keeping the rate set before it) with a line on standard
// error each time (golang/go#79900); the apps' logs are read for their last lines when they fail.
func withoutStderr(f func() error) error {
	saved, err := syscall.Dup(2)
	if err != nil {
		return f()
	}
	defer syscall.Close(saved)
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return f()
	}
	defer null.Close()
	if err := syscall.Dup3(int(null.Fd()), 2, 0); err != nil {
		return f()
	}
	defer syscall.Dup3(saved, 2, 0)
	return f()
}

func (p *profiler) start(intervalUs int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.temp != nil {
		return errors.New("already profiling")
	}
	if intervalUs <= 0 {
		return fmt.Errorf("intervalUs must be positive, got %d", intervalUs)
	}
	temp, err := os.CreateTemp("", "bench-cpu-*.pprof")
	if err != nil {
		return err
	}
	// The rate first (StartCPUProfile's own 100 Hz is refused while it holds); its profile still states
	// 100 Hz as its period, which the bench corrects from the interval it asked for.
	runtime.SetCPUProfileRate(1_000_000 / intervalUs)
	if err := withoutStderr(func() error { return pprof.StartCPUProfile(temp) }); err != nil {
		runtime.SetCPUProfileRate(0)
		temp.Close()
		os.Remove(temp.Name())
		return err
	}
	p.temp = temp
	return nil
}

func (p *profiler) stop(file string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.temp == nil {
		return errors.New("not profiling")
	}
	pprof.StopCPUProfile()
	temp := p.temp
	p.temp = nil
	if err := temp.Close(); err != nil {
		os.Remove(temp.Name())
		return err
	}
	// A rename across file systems fails: the temp file is then copied beside its target first.
	if err := os.Rename(temp.Name(), file); err != nil {
		defer os.Remove(temp.Name())
		data, readErr := os.ReadFile(temp.Name())
		if readErr != nil {
			return readErr
		}
		beside := filepath.Join(filepath.Dir(file), "."+filepath.Base(file)+".tmp")
		if err := os.WriteFile(beside, data, 0o644); err != nil {
			return err
		}
		return os.Rename(beside, file)
	}
	return nil
}

func (p *profiler) run(line string) error {
	var c command
	if err := json.Unmarshal([]byte(line), &c); err != nil {
		return fmt.Errorf("not a command: %v", err)
	}
	switch {
	case c.Op == "start":
		return p.start(c.IntervalUs)
	case c.Op == "stop" && strings.HasPrefix(c.File, "/"):
		return p.stop(c.File)
	default:
		return fmt.Errorf("not a command: %.80s", line)
	}
}

// Serve listens on the socket SocketEnv names, if any, and answers the bench's commands until the process exits.
func Serve(name string) {
	path := strings.TrimSpace(os.Getenv(SocketEnv))
	if path == "" {
		return
	}
	os.Unsetenv(SocketEnv)
	os.Remove(path)
	listener, err := net.Listen("unix", path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: cpu profile socket %s: %v\n", name, path, err)
		return
	}
	p := &profiler{}
	go func() {
		for {
			conn, err := listener.Accept()
			if err != nil {
				return
			}
			go answer(p, conn)
		}
	}()
}

func answer(p *profiler, conn net.Conn) {
	defer conn.Close()
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return
	}
	if err := p.run(strings.TrimSpace(line)); err != nil {
		fmt.Fprintf(conn, "error: %v\n", err)
		return
	}
	fmt.Fprint(conn, "ok\n")
}
