package main

import (
	"context"
	"math"
	"time"

	"google.golang.org/grpc"

	"goreference/gen/metricspb"
	"goreference/gen/samplepb"
	"goreference/internal/grpccodec"
	"goreference/internal/harness"
	"goreference/internal/procmetrics"
	"goreference/internal/samples"
	"goreference/internal/settings"
)

// maxMessageBytes is the largest message the client accepts or sends (2^31-1, as in libs/proto).
const maxMessageBytes = math.MaxInt32

// protoReply is a decoded Samples message seen as a samples.Reply.
type protoReply struct{ msg *samplepb.Samples }

func (r protoReply) Count() int { return len(r.msg.GetSamples()) }

func (r protoReply) RowAt(i int) samples.Row {
	s := r.msg.Samples[i]
	return samples.Row{RowNum: int64(s.RowNum), ColumnA: s.ColumnA, ColumnB: s.ColumnB, ColumnC: s.ColumnC, ColumnD: s.ColumnD,
		ColumnE: s.ColumnE, ColumnF: s.ColumnF, ColumnG: s.ColumnG, ColumnH: s.ColumnH, ColumnI: s.ColumnI, ColumnJ: s.ColumnJ}
}

// grpcTransport is server-b over gRPC with google.golang.org/grpc: one long-lived ClientConn for the
// measured calls, another for metrics (so they never share the measured connection).
type grpcTransport struct {
	settings settings.Settings
	meter    harness.Meter
	codec    grpccodec.Metered
	shared   *grpc.ClientConn
	metrics  *grpc.ClientConn
	conn     harness.Connection
}

func newGRPCTransport(s settings.Settings) (*grpcTransport, error) {
	t := &grpcTransport{settings: s}
	t.codec = grpccodec.Metered{
		Match:   func(v any) bool { _, ok := v.(*samplepb.Samples); return ok },
		Decoded: func(bytes int, d time.Duration) { t.meter.Record(float64(bytes), d) },
	}
	var err error
	if t.shared, err = t.dial(); err != nil {
		return nil, err
	}
	if t.metrics, err = grpc.NewClient(s.ServerBURL, grpc.WithTransportCredentials(grpcCreds)); err != nil {
		return nil, err
	}
	t.conn = &grpcConn{client: samplepb.NewSampleServiceClient(t.shared)}
	return t, nil
}

// dial opens a ClientConn (lazily: it connects on its first call, so a fresh one's first call pays
// connection set-up). Its message limits are raised so 1,000,000 rows fit, and its codec is timed.
func (t *grpcTransport) dial() (*grpc.ClientConn, error) {
	return grpc.NewClient(t.settings.ServerBURL,
		grpc.WithTransportCredentials(grpcCreds),
		grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(maxMessageBytes),
			grpc.MaxCallSendMsgSize(maxMessageBytes),
			grpc.ForceCodecV2(t.codec),
		),
	)
}

func (t *grpcTransport) Name() string               { return "grpc" }
func (t *grpcTransport) Shared() harness.Connection { return t.conn }
func (t *grpcTransport) TakeReplies() harness.Tally { return t.meter.Take() }

func (t *grpcTransport) OpenFresh() harness.Connection {
	cc, err := t.dial()
	if err != nil {
		return failedConn{err}
	}
	return &grpcConn{client: samplepb.NewSampleServiceClient(cc), cc: cc}
}

func (t *grpcTransport) ReadServerMetrics(ctx context.Context, resetPeak bool) (procmetrics.Sample, error) {
	reply, err := metricspb.NewProcessMetricsClient(t.metrics).Read(ctx, &metricspb.ReadRequest{ResetPeak: resetPeak})
	if err != nil {
		return procmetrics.Sample{}, err
	}
	return procmetrics.Sample{CPUUserMs: reply.CpuUserMs, CPUSystemMs: reply.CpuSystemMs, RSSBytes: reply.RssBytes,
		PeakRSSBytes: reply.PeakRssBytes, MaxRSSBytes: reply.MaxRssBytes, BuildMs: reply.BuildMs, EncodeMs: reply.EncodeMs}, nil
}

func (t *grpcTransport) Close() {
	_ = t.shared.Close()
	_ = t.metrics.Close()
}

type grpcConn struct {
	client samplepb.SampleServiceClient
	cc     *grpc.ClientConn // set for a fresh connection, closed with it
}

func (c *grpcConn) FetchAll(ctx context.Context, rows, requests int) ([]samples.Reply, error) {
	param := &samplepb.GetSamplesParam{Count: int32(rows)}
	return fetchAll(requests, func() (samples.Reply, error) {
		msg, err := c.client.GetSamples(ctx, param) // ctx's deadline goes as grpc-timeout
		if err != nil {
			return nil, err
		}
		return protoReply{msg}, nil
	})
}

func (c *grpcConn) Close() {
	if c.cc != nil {
		_ = c.cc.Close()
	}
}

// failedConn is a connection that could not be opened: its calls fail with the reason.
type failedConn struct{ err error }

func (c failedConn) FetchAll(context.Context, int, int) ([]samples.Reply, error) { return nil, c.err }
func (c failedConn) Close()                                                      {}
