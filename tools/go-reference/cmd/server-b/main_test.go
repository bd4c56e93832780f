package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"

	"goreference/gen/healthpb"
	"goreference/gen/metricspb"
	"goreference/gen/pathpb"
	"goreference/gen/samplepb"
	"goreference/internal/limits"
	"goreference/internal/procmetrics"
	"goreference/internal/samples"
)

func TestBuildRowsMatchTheGenerator(t *testing.T) {
	rows := BuildRows(0, 3)
	if len(rows) != 3 {
		t.Fatalf("len %d", len(rows))
	}
	for i, row := range rows {
		want := samples.BuildRow(i)
		got := samples.Row{RowNum: int64(row.RowNum), ColumnA: row.ColumnA, ColumnB: row.ColumnB, ColumnC: row.ColumnC,
			ColumnD: row.ColumnD, ColumnE: row.ColumnE, ColumnF: row.ColumnF, ColumnG: row.ColumnG, ColumnH: row.ColumnH,
			ColumnI: row.ColumnI, ColumnJ: row.ColumnJ}
		if got != want {
			t.Errorf("row %d = %+v; want %+v", i, got, want)
		}
	}
	if chunk := BuildRows(10_000, 10_002); len(chunk) != 2 || chunk[1].RowNum != 10_001 || chunk[1].ColumnJ != "columnJ10001" {
		t.Fatalf("chunk %v", chunk)
	}
}

// serveTCP runs server-b on a free loopback port with the given handshake limit; its address.
func serveTCP(t *testing.T, handshake time.Duration) string {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server := newServer(50, procmetrics.New(), handshake, insecure.NewCredentials())
	go func() { _ = server.Serve(listener) }()
	t.Cleanup(server.Stop)
	return listener.Addr().String()
}

func dial(t *testing.T, maxRows int) *grpc.ClientConn {
	t.Helper()
	listener := bufconn.Listen(1 << 20)
	server := newServer(maxRows, procmetrics.New(), limits.Handshake, insecure.NewCredentials())
	go func() { _ = server.Serve(listener) }()
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(context.Context, string) (net.Conn, error) { return listener.Dial() }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = conn.Close()
		server.Stop()
	})
	return conn
}

func TestGetSamples(t *testing.T) {
	conn := dial(t, 50)
	client := samplepb.NewSampleServiceClient(conn)
	reply, err := client.GetSamples(context.Background(), &samplepb.GetSamplesParam{Count: 2})
	if err != nil {
		t.Fatal(err)
	}
	if want := (&samplepb.Samples{Samples: BuildRows(0, 2)}); !proto.Equal(reply, want) {
		t.Fatalf("reply %v", reply)
	}
	for _, c := range []struct {
		count int32
		rule  string
	}{{0, "[count: min]"}, {-1, "[count: min]"}, {51, "[count: max]"}} {
		_, err := client.GetSamples(context.Background(), &samplepb.GetSamplesParam{Count: c.count})
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), c.rule) {
			t.Errorf("count %d: %v", c.count, err)
		}
	}
}

// GetSamplesStream is called by name, so this test compiles whether or not the proto declares it.
func TestGetSamplesStreamSendsChunks(t *testing.T) {
	conn := dial(t, 100_000)
	desc := &grpc.StreamDesc{StreamName: "GetSamplesStream", ServerStreams: true}
	stream, err := conn.NewStream(context.Background(), desc, "/sample.SampleService/GetSamplesStream")
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.SendMsg(&samplepb.GetSamplesParam{Count: 25_000}); err != nil {
		t.Fatal(err)
	}
	if err := stream.CloseSend(); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	next := 0
	for {
		msg := &samplepb.Samples{}
		err := stream.RecvMsg(msg)
		if err == io.EOF {
			break
		}
		if status.Code(err) == codes.Unimplemented {
			t.Skip("proto/sample.proto declares no GetSamplesStream")
		}
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(msg.Samples))
		if msg.Samples[0].RowNum != int32(next) {
			t.Fatalf("chunk starts at %d; want %d", msg.Samples[0].RowNum, next)
		}
		next += len(msg.Samples)
	}
	if len(sizes) != 3 || sizes[0] != 10_000 || sizes[2] != 5_000 {
		t.Fatalf("chunks %v", sizes)
	}
}

func TestHealthAndMetrics(t *testing.T) {
	conn := dial(t, 50)
	health, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil || health.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health %v %v", health, err)
	}
	metrics := metricspb.NewProcessMetricsClient(conn)
	before, err := metrics.Read(context.Background(), &metricspb.ReadRequest{ResetPeak: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := samplepb.NewSampleServiceClient(conn).GetSamples(context.Background(), &samplepb.GetSamplesParam{Count: 50}); err != nil {
		t.Fatal(err)
	}
	after, err := metrics.Read(context.Background(), &metricspb.ReadRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if after.BuildMs <= before.BuildMs || after.EncodeMs <= before.EncodeMs || after.RssBytes <= 0 || after.MaxRssBytes <= 0 {
		t.Fatalf("metrics before %v after %v", before, after)
	}
}

// bulkChunks is the sizes of PathProbe.Bulk's chunks, and the status it ended with.
func bulkChunks(t *testing.T, conn *grpc.ClientConn, req *pathpb.BulkRequest) ([]int, error) {
	t.Helper()
	// A 4 MiB chunk is a message a little over gRPC's default 4 MiB receive limit.
	stream, err := pathpb.NewPathProbeClient(conn).Bulk(context.Background(), req, grpc.MaxCallRecvMsgSize(8<<20))
	if err != nil {
		return nil, err
	}
	var sizes []int
	for {
		chunk, err := stream.Recv()
		if err == io.EOF {
			return sizes, nil
		}
		if err != nil {
			return sizes, err
		}
		if len(bytes.Trim(chunk.Data, "\x00")) != 0 {
			t.Fatalf("chunk %d is not all zeros", len(sizes))
		}
		sizes = append(sizes, len(chunk.Data))
	}
}

func TestPathProbeBulk(t *testing.T) {
	conn := dial(t, 50)
	for _, c := range []struct {
		bytes, chunkBytes int32
		want              []int
	}{
		{1_000_000, 300_000, []int{300_000, 300_000, 300_000, 100_000}},
		{600_000, 0, []int{262_144, 262_144, 75_712}}, // chunkBytes 0: 256 KiB
		{1, 0, []int{1}},
		{8, 8, []int{8}},
		{4_194_305, 4_194_304, []int{4_194_304, 1}},
	} {
		sizes, err := bulkChunks(t, conn, &pathpb.BulkRequest{Bytes: c.bytes, ChunkBytes: c.chunkBytes})
		if err != nil {
			t.Fatalf("%d/%d: %v", c.bytes, c.chunkBytes, err)
		}
		total := 0
		for _, n := range sizes {
			total += n
		}
		if total != int(c.bytes) || !slices.Equal(sizes, c.want) {
			t.Errorf("%d/%d: chunks %v (total %d); want %v", c.bytes, c.chunkBytes, sizes, total, c.want)
		}
	}
	for _, c := range []struct {
		bytes, chunkBytes int32
		rule              string
	}{
		{0, 0, "[bytes: min]"},
		{-5, 0, "[bytes: min]"},
		{268_435_457, 0, "[bytes: max]"},
		{10, -1, "[chunkBytes: min]"},
		{10, 4_194_305, "[chunkBytes: max]"},
	} {
		sizes, err := bulkChunks(t, conn, &pathpb.BulkRequest{Bytes: c.bytes, ChunkBytes: c.chunkBytes})
		msg := status.Convert(err).Message()
		if status.Code(err) != codes.InvalidArgument || !strings.HasSuffix(msg, c.rule) || len(sizes) != 0 {
			t.Errorf("%d/%d: %v (%d chunks)", c.bytes, c.chunkBytes, err, len(sizes))
		}
	}
	_, err := bulkChunks(t, conn, &pathpb.BulkRequest{Bytes: 268_435_457})
	if want := "bytes must be at most 268435456, got 268435457 [bytes: max]"; status.Convert(err).Message() != want {
		t.Errorf("message %q; want %q", status.Convert(err).Message(), want)
	}
}

// A client that stops reading mid-transfer ends the stream: the server's Send fails, the handler returns.
func TestPathProbeBulkCancelled(t *testing.T) {
	conn := dial(t, 50)
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := pathpb.NewPathProbeClient(conn).Bulk(ctx, &pathpb.BulkRequest{Bytes: 256 << 20, ChunkBytes: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); err != nil {
		t.Fatal(err)
	}
	cancel()
	for {
		if _, err = stream.Recv(); err != nil {
			break
		}
	}
	if status.Code(err) != codes.Canceled {
		t.Fatalf("after cancel: %v", err)
	}
	// The connection is still usable: the server's handler has not kept it busy.
	if _, err := bulkChunks(t, conn, &pathpb.BulkRequest{Bytes: 10}); err != nil {
		t.Fatal(err)
	}
}

// The client's path probe sends its pings back to back on a connection with no stream; every one is
// answered (grpc-go's default enforcement would GOAWAY with "too_many_pings" after the third).
func TestManyPingsAreAnswered(t *testing.T) {
	conn, err := net.Dial("tcp", serveTCP(t, limits.Handshake))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, http2.ClientPreface); err != nil {
		t.Fatal(err)
	}
	framer := http2.NewFramer(conn, conn)
	if err := framer.WriteSettings(); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		data := [8]byte{byte(i)}
		if err := framer.WritePing(false, data); err != nil {
			t.Fatal(err)
		}
		for acked := false; !acked; {
			frame, err := framer.ReadFrame()
			if err != nil {
				t.Fatalf("ping %d: %v", i, err)
			}
			switch f := frame.(type) {
			case *http2.SettingsFrame:
				if !f.IsAck() {
					_ = framer.WriteSettingsAck()
				}
			case *http2.PingFrame:
				acked = f.IsAck() && f.Data == data
			case *http2.GoAwayFrame:
				t.Fatalf("ping %d: GOAWAY %v %q", i, f.ErrCode, f.DebugData())
			}
		}
	}
}
