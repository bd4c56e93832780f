package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	_ "google.golang.org/grpc/encoding/gzip"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"goreference/gen/healthpb"
	"goreference/gen/samplepb"
	"goreference/internal/grpccodec"
	"goreference/internal/limits"
	"goreference/internal/procmetrics"
	"goreference/internal/samples"
	"goreference/internal/validation"
)

// rawCodec sends and receives message bytes as they are, so a test can send what no generated client would.
type rawCodec struct{}

func (rawCodec) Name() string { return "proto" }
func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(*v.(*[]byte))}, nil
}
func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	*v.(*[]byte) = data.Materialize()
	return nil
}

// countWithPadding is a GetSamplesParam of count 1 followed by an unknown field of padding bytes.
func countWithPadding(padding int) []byte {
	msg := protowire.AppendTag(nil, 1, protowire.VarintType)
	msg = protowire.AppendVarint(msg, 1)
	msg = protowire.AppendTag(msg, 15, protowire.BytesType)
	return protowire.AppendBytes(msg, make([]byte, padding))
}

func invokeRaw(conn *grpc.ClientConn, method string, request []byte, opts ...grpc.CallOption) error {
	var reply []byte
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return conn.Invoke(ctx, method, &request, &reply, append(opts, grpc.ForceCodecV2(rawCodec{}))...)
}

func TestReceiveLimitIsTheNodeServersOne(t *testing.T) {
	if limits.GRPCRequestBytes != 2_097_184 {
		t.Fatalf("GRPCRequestBytes %d; REQUEST_LIMITS.grpc is 2,097,184", limits.GRPCRequestBytes)
	}
	conn := dial(t, 50)
	if err := invokeRaw(conn, samplepb.SampleService_GetSamples_FullMethodName, countWithPadding(1<<20)); err != nil {
		t.Fatalf("a 1 MiB request (under the limit): %v", err)
	}
	err := invokeRaw(conn, samplepb.SampleService_GetSamples_FullMethodName, countWithPadding(limits.GRPCRequestBytes))
	if status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("a request over the limit: %v", err)
	}
}

// grpc-go applies the receive limit to the inflated message, reading at most limit+1 bytes of it.
func TestGzipBombIsResourceExhausted(t *testing.T) {
	conn := dial(t, 50)
	bomb := countWithPadding(20 << 20) // 20 MiB of zeros: ~20 KB of gzip
	err := invokeRaw(conn, samplepb.SampleService_GetSamples_FullMethodName, bomb, grpc.UseCompressor("gzip"))
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(status.Convert(err).Message(), "decompression") {
		t.Fatalf("gzip bomb: %v", err)
	}
	// gzip is accepted under the limit.
	if err := invokeRaw(conn, samplepb.SampleService_GetSamples_FullMethodName, countWithPadding(1<<20), grpc.UseCompressor("gzip")); err != nil {
		t.Fatalf("gzip request under the limit: %v", err)
	}
}

func TestUndecodableRequestsAreInvalidArgument(t *testing.T) {
	conn := dial(t, 50)
	// A varint field's tag with no value: undecodable as any message.
	undecodable := []byte{0x08}
	for _, method := range []string{samplepb.SampleService_GetSamples_FullMethodName, "/grpc.health.v1.Health/Check", "/bench.metrics.ProcessMetrics/Read"} {
		err := invokeRaw(conn, method, undecodable)
		if status.Code(err) != codes.InvalidArgument || !strings.HasSuffix(status.Convert(err).Message(), "[request: type]") {
			t.Errorf("%s: %v", method, err)
		}
	}
	for _, method := range []string{"/bench.path.PathProbe/Bulk", samplepb.SampleService_GetSamplesStream_FullMethodName} {
		stream, err := conn.NewStream(context.Background(), &grpc.StreamDesc{ServerStreams: true}, method, grpc.ForceCodecV2(rawCodec{}))
		if err != nil {
			t.Fatal(err)
		}
		if err := stream.SendMsg(&undecodable); err != nil {
			t.Fatal(err)
		}
		_ = stream.CloseSend()
		var reply []byte
		err = stream.RecvMsg(&reply)
		if status.Code(err) == codes.Unimplemented {
			continue // proto/sample.proto declares no GetSamplesStream
		}
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("%s: %v", method, err)
		}
	}
	if _, err := samplepb.NewSampleServiceClient(conn).GetSamples(context.Background(), &samplepb.GetSamplesParam{Count: 1}); err != nil {
		t.Fatalf("a good request after them: %v", err)
	}
}

func TestSlicedReplyIsTheWholeMessage(t *testing.T) {
	s := &sampleService{countRange: validation.Range{Min: 1, Max: 40_000}, sampler: procmetrics.New()}
	count := samples.WholeReplyMaxRows + samples.ReplySliceRows + 7
	got, err := s.reply(context.Background(), &samplepb.GetSamplesParam{Count: int32(count)})
	if err != nil {
		t.Fatal(err)
	}
	parts, ok := got.(grpccodec.EncodedParts)
	if !ok || len(parts) != 4 {
		t.Fatalf("reply %T with %d parts; want Encoded in 4", got, len(parts))
	}
	whole, _ := proto.Marshal(&samplepb.Samples{Samples: BuildRows(0, count)})
	if !bytes.Equal(bytes.Join(parts, nil), whole) {
		t.Fatal("the parts joined are not the whole message's bytes")
	}
	reply, err := samplepb.NewSampleServiceClient(dial(t, 40_000)).GetSamples(context.Background(), &samplepb.GetSamplesParam{Count: int32(count)},
		grpc.MaxCallRecvMsgSize(limits.ReplyBytes))
	if err != nil || len(reply.Samples) != count || reply.Samples[count-1].ColumnJ != "columnJ"+strconv.Itoa(count-1) {
		t.Fatalf("over the wire: %d rows, %v", len(reply.GetSamples()), err)
	}
}

func waitAbandoned(t *testing.T, before int64) {
	t.Helper()
	if !samples.AwaitAbandoned(before, 2*time.Second) {
		t.Fatal("the server did not abandon the reply within 2 s")
	}
}

func healthWithin2s(t *testing.T, conn *grpc.ClientConn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatalf("health: %v", err)
	}
}

func TestAReplyStopsAtItsDeadline(t *testing.T) {
	conn := dial(t, 1_000_000)
	before := samples.AbandonedReplies()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := samplepb.NewSampleServiceClient(conn).GetSamples(ctx, &samplepb.GetSamplesParam{Count: 1_000_000})
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("GetSamples: %v", err)
	}
	waitAbandoned(t, before)
	healthWithin2s(t, conn)
}

func TestAReplyStopsWhenCancelled(t *testing.T) {
	conn := dial(t, 1_000_000)
	before := samples.AbandonedReplies()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := samplepb.NewSampleServiceClient(conn).GetSamples(ctx, &samplepb.GetSamplesParam{Count: 1_000_000})
	if status.Code(err) != codes.Canceled {
		t.Fatalf("GetSamples: %v", err)
	}
	waitAbandoned(t, before)
	healthWithin2s(t, conn)
}

// A connection that sends half the HTTP/2 preface is dropped after the handshake limit; one that
// finished its handshake is kept past it.
func TestHalfAPrefaceIsDropped(t *testing.T) {
	address := serveTCP(t, 300*time.Millisecond)
	half, err := net.Dial("tcp", address)
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	_, _ = io.WriteString(half, http2.ClientPreface[:10])
	_ = half.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err = io.Copy(io.Discard, half)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("a half-sent preface kept its connection for 10 s")
	}

	whole, err := net.Dial("tcp", address)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	_ = whole.SetDeadline(time.Now().Add(10 * time.Second))
	_, _ = io.WriteString(whole, http2.ClientPreface)
	framer := http2.NewFramer(whole, whole)
	_ = framer.WriteSettings()
	time.Sleep(800 * time.Millisecond)
	data := [8]byte{7}
	if err := framer.WritePing(false, data); err != nil {
		t.Fatal(err)
	}
	for {
		frame, err := framer.ReadFrame()
		if err != nil {
			t.Fatalf("a connection past its handshake was dropped: %v", err)
		}
		if ping, ok := frame.(*http2.PingFrame); ok && ping.IsAck() && ping.Data == data {
			return
		}
	}
}
