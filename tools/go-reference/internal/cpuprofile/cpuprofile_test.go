package cpuprofile

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func send(t *testing.T, socket, line string) string {
	t.Helper()
	conn, err := net.Dial("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte(line + "\n")); err != nil {
		t.Fatal(err)
	}
	answer, _ := bufio.NewReader(conn).ReadString('\n')
	return strings.TrimSpace(answer)
}

func TestStartStopWritesAGzippedProfile(t *testing.T) {
	dir := t.TempDir()
	socket := filepath.Join(dir, "p.sock")
	t.Setenv(SocketEnv, socket)
	Serve("test")
	if got := send(t, socket, `{"op":"stop","file":"/tmp/x"}`); !strings.HasPrefix(got, "error: not profiling") {
		t.Fatalf("stop before start: %q", got)
	}
	for round := 0; round < 2; round++ {
		if got := send(t, socket, `{"op":"start","intervalUs":200}`); got != "ok" {
			t.Fatalf("start: %q", got)
		}
		if got := send(t, socket, `{"op":"start","intervalUs":200}`); !strings.HasPrefix(got, "error: already profiling") {
			t.Fatalf("second start: %q", got)
		}
		file := filepath.Join(dir, "out.pprof")
		if got := send(t, socket, `{"op":"stop","file":"`+file+`"}`); got != "ok" {
			t.Fatalf("stop: %q", got)
		}
		data, err := os.ReadFile(file)
		if err != nil || len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
			t.Fatalf("profile not gzipped: %v %d bytes", err, len(data))
		}
	}
	for _, bad := range []string{`nonsense`, `{"op":"start","intervalUs":0}`, `{"op":"stop","file":"relative"}`, `{"op":"other"}`} {
		if got := send(t, socket, bad); !strings.HasPrefix(got, "error:") {
			t.Fatalf("%s: %q", bad, got)
		}
	}
}
