package main

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"

	"goreference/gen/healthpb"
	"goreference/gen/metricspb"
	"goreference/gen/samplepb"
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

func dial(t *testing.T, maxRows int) *grpc.ClientConn {
	t.Helper()
	listener := bufconn.Listen(1 << 20)
	server := newServer(maxRows, procmetrics.New())
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
