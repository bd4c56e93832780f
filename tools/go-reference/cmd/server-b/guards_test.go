package main

import (
	"io"
	"net"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"goreference/internal/hostile"
	"goreference/internal/limits"
	"goreference/internal/procmetrics"
)

// Issue 47: server-b holds an unfinished TLS handshake, a stream count and a reset flood on one
// connection to the policy every listener has (limits.Handshake, limits.HTTP2ConcurrentStreams).

// serveWith runs server-b on a free loopback port with the given handshake limit and credentials.
func serveWith(t *testing.T, handshake time.Duration, creds credentials.TransportCredentials) string {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server := newServer(50, procmetrics.New(), handshake, creds)
	go func() { _ = server.Serve(listener) }()
	t.Cleanup(server.Stop)
	return listener.Addr().String()
}

func TestAnUnfinishedTLSHandshakeIsDropped(t *testing.T) {
	const handshake = 300 * time.Millisecond
	hostile.DroppedAtTheLimit(t, serveWith(t, handshake, credentials.NewTLS(hostile.SelfSigned(t, "h2"))), handshake)
}

// rawConn is a connection speaking HTTP/2 frames directly, its SETTINGS exchanged.
func rawConn(t *testing.T, address string) (*http2.Framer, uint32) {
	t.Helper()
	conn, err := net.Dial("tcp", address)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	_, _ = io.WriteString(conn, http2.ClientPreface)
	framer := http2.NewFramer(conn, conn)
	_ = framer.WriteSettings()
	for {
		frame, err := framer.ReadFrame()
		if err != nil {
			t.Fatal(err)
		}
		if settings, ok := frame.(*http2.SettingsFrame); ok && !settings.IsAck() {
			advertised, _ := settings.Value(http2.SettingMaxConcurrentStreams)
			_ = framer.WriteSettingsAck()
			return framer, advertised
		}
	}
}

func grpcHead() []byte {
	var block []byte
	encoder := hpack.NewEncoder(&sliceWriter{&block})
	for _, f := range [][2]string{{":method", "POST"}, {":scheme", "http"}, {":path", "/grpc.health.v1.Health/Check"}, {":authority", "x"}, {"content-type", "application/grpc"}, {"te", "trailers"}} {
		_ = encoder.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	return block
}

type sliceWriter struct{ b *[]byte }

func (w *sliceWriter) Write(p []byte) (int, error) { *w.b = append(*w.b, p...); return len(p), nil }

// healthy: a new connection's health check answers.
func healthy(t *testing.T, address string) {
	t.Helper()
	conn, err := grpc.NewClient(address, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	healthWithin2s(t, conn)
}

// grpc-go sends no GOAWAY for resets (it has no reset rate limit); it runs at most
// HTTP2ConcurrentStreams handlers per connection, so the flood costs that connection, and the
// server stays ready.
func TestAResetFloodLeavesTheServerReady(t *testing.T) {
	address := serveWith(t, limits.Handshake, insecure.NewCredentials())
	framer, _ := rawConn(t, address)
	head := grpcHead()
	go func() {
		for {
			if _, err := framer.ReadFrame(); err != nil {
				return
			}
		}
	}()
	for id := uint32(1); id < 2*20_000; id += 2 {
		if err := framer.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: head, EndHeaders: true}); err != nil {
			break // the server ended the connection: what a flood should cost
		}
		if err := framer.WriteRSTStream(id, http2.ErrCodeCancel); err != nil {
			break
		}
	}
	healthy(t, address)
}

func TestStreamsPastTheLimitAreRefused(t *testing.T) {
	const streams = 10_000
	address := serveWith(t, limits.Handshake, insecure.NewCredentials())
	framer, advertised := rawConn(t, address)
	if advertised != limits.HTTP2ConcurrentStreams {
		t.Fatalf("SETTINGS_MAX_CONCURRENT_STREAMS %d; want %d", advertised, limits.HTTP2ConcurrentStreams)
	}
	head := grpcHead()
	refused := make(chan int)
	go func() {
		count := 0
		defer func() { refused <- count }()
		for {
			frame, err := framer.ReadFrame()
			if err != nil {
				return
			}
			if rst, ok := frame.(*http2.RSTStreamFrame); ok && rst.ErrCode == http2.ErrCodeRefusedStream {
				if count++; count == streams-limits.HTTP2ConcurrentStreams {
					return
				}
			}
		}
	}()
	for id := uint32(1); id < 2*streams; id += 2 {
		if err := framer.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: head, EndHeaders: true}); err != nil {
			t.Fatal(err)
		}
	}
	if got := <-refused; got < streams-limits.HTTP2ConcurrentStreams {
		t.Fatalf("%d of %d streams refused; the limit is %d", got, streams, limits.HTTP2ConcurrentStreams)
	}
	healthy(t, address)
}
