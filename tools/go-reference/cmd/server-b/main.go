// server-b (Go reference): the blog's gRPC service on google.golang.org/grpc. Same contract
// (proto/sample.proto), rows, validation, health check, metrics, path probe (proto/path.proto) and
// shutdown as apps/bare/src/server-b.ts, seen from outside.
package main

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	_ "google.golang.org/grpc/encoding/gzip" // accepted: grpc-go inflates a request into at most its receive limit
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"

	"goreference/gen/healthpb"
	"goreference/gen/metricspb"
	"goreference/gen/pathpb"
	"goreference/gen/samplepb"
	"goreference/internal/bulk"
	"goreference/internal/cpuprofile"
	"goreference/internal/grpccodec"
	"goreference/internal/lifecycle"
	"goreference/internal/limits"
	"goreference/internal/procmetrics"
	"goreference/internal/samples"
	"goreference/internal/security"
	"goreference/internal/validation"
)

const name = "server-b"

// StreamChunkRows is the rows per message of GetSamplesStream (STREAM_CHUNK_ROWS in libs/samples).
const StreamChunkRows = 10_000

// BuildRows is rows start … end-1 as protobuf messages, equal to samples.BuildRow(i). The messages
// live in one slice (one allocation for all of them) and each row's strings share one allocation.
func BuildRows(start, end int) []*samplepb.Sample {
	n := max(0, end-start)
	slab := make([]samplepb.Sample, n)
	out := make([]*samplepb.Sample, n)
	for k := range slab {
		i := start + k
		v := samples.Values(i)
		s := &slab[k]
		s.RowNum = int32(i)
		s.ColumnA, s.ColumnB, s.ColumnC, s.ColumnD, s.ColumnE = v[0], v[1], v[2], v[3], v[4]
		s.ColumnF, s.ColumnG, s.ColumnH, s.ColumnI, s.ColumnJ = v[5], v[6], v[7], v[8], v[9]
		out[k] = s
	}
	return out
}

type sampleService struct {
	samplepb.UnimplementedSampleServiceServer
	countRange validation.Range
	sampler    *procmetrics.Sampler
}

// invalidArgument is INVALID_ARGUMENT naming the field and the rule it broke (as libs/validation's).
func invalidArgument(bad *validation.FieldError) error {
	return status.Errorf(codes.InvalidArgument, "%s [%s: %s]", bad.Message, bad.Field, bad.Rule)
}

func (s *sampleService) count(param *samplepb.GetSamplesParam) (int, error) {
	count, bad := validation.ParseInt("count", param.GetCount(), s.countRange)
	if bad != nil {
		return 0, invalidArgument(bad)
	}
	return int(count), nil
}

// GetSamplesStream sends the same rows as messages of StreamChunkRows rows, each built just before
// it is sent, until the call's deadline passes or it is cancelled (present when proto/sample.proto
// declares it; harmless otherwise).
func (s *sampleService) GetSamplesStream(param *samplepb.GetSamplesParam, stream grpc.ServerStreamingServer[samplepb.Samples]) error {
	count, err := s.count(param)
	if err != nil {
		return err
	}
	for start := 0; start < count; start += StreamChunkRows {
		if err := stream.Context().Err(); err != nil {
			return abandon(stream.Context(), "GetSamplesStream", count, start)
		}
		started := time.Now()
		rows := BuildRows(start, min(start+StreamChunkRows, count))
		s.sampler.AddBuild(time.Since(started))
		if err := stream.Send(&samplepb.Samples{Samples: rows}); err != nil {
			return err
		}
	}
	return nil
}

// pathService is the path probe's bulk transfer: the client times it to measure its path's throughput
// (GET /bench/path), as it does with server-a's GET /path/bulk.
type pathService struct {
	pathpb.UnimplementedPathProbeServer
}

// Bulk streams `bytes` zero bytes in chunks of at most `chunkBytes`, all cut from one zeroed buffer
// (a memset, not a serializer's work; Send has copied a message into its frame when it returns).
func (pathService) Bulk(req *pathpb.BulkRequest, stream grpc.ServerStreamingServer[pathpb.BulkChunk]) error {
	r, bad := bulk.ParseRequest(req.GetBytes(), req.GetChunkBytes())
	if bad != nil {
		return invalidArgument(bad)
	}
	zeros := make([]byte, min(r.ChunkBytes, r.Bytes))
	chunk := &pathpb.BulkChunk{}
	ctx := stream.Context()
	for sent := 0; sent < r.Bytes; {
		if err := ctx.Err(); err != nil {
			return status.FromContextError(err).Err()
		}
		n := min(r.ChunkBytes, r.Bytes-sent)
		chunk.Data = zeros[:n]
		if err := stream.Send(chunk); err != nil {
			return err
		}
		sent += n
	}
	return nil
}

type healthService struct {
	healthpb.UnimplementedHealthServer
}

func (healthService) Check(context.Context, *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
}

type metricsService struct {
	metricspb.UnimplementedProcessMetricsServer
	sampler *procmetrics.Sampler
}

func (m metricsService) Read(_ context.Context, req *metricspb.ReadRequest) (*metricspb.ProcessSample, error) {
	s := m.sampler.Read(req.GetResetPeak())
	return &metricspb.ProcessSample{CpuUserMs: s.CPUUserMs, CpuSystemMs: s.CPUSystemMs, RssBytes: s.RSSBytes,
		PeakRssBytes: s.PeakRSSBytes, MaxRssBytes: s.MaxRSSBytes, BuildMs: s.BuildMs, EncodeMs: s.EncodeMs}, nil
}

// refuseMalformed answers INVALID_ARGUMENT to a unary call whose request could not be decoded.
func refuseMalformed(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if err := grpccodec.Malformed(req); err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

// refuseMalformedStream is refuseMalformed for streaming calls: checked as the handler receives its request.
func refuseMalformedStream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	return handler(srv, checkedStream{ss})
}

type checkedStream struct{ grpc.ServerStream }

func (s checkedStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	return grpccodec.Malformed(m)
}

// newServer is server-b's services on a grpc.Server (not yet serving): requests up to
// limits.GRPCRequestBytes once inflated (gzip is accepted: grpc-go inflates into at most the limit,
// then RESOURCE_EXHAUSTED), replies up to limits.ReplyBytes, a connection's TLS handshake, HTTP/2
// preface and SETTINGS within handshake, at most limits.HTTP2ConcurrentStreams streams open on one
// connection (more are refused, REFUSED_STREAM), an idle connection closed after limits.HTTP2Idle.
func newServer(maxRows int, sampler *procmetrics.Sampler, handshake time.Duration, creds credentials.TransportCredentials) *grpc.Server {
	codec := grpccodec.Metered{
		Match:         func(v any) bool { _, ok := v.(*samplepb.Samples); return ok },
		Encoded:       func(_ int, d time.Duration) { sampler.AddEncode(d) },
		KeepMalformed: true,
	}
	server := grpc.NewServer(
		grpc.Creds(creds),
		grpc.MaxRecvMsgSize(limits.GRPCRequestBytes),
		grpc.MaxSendMsgSize(limits.ReplyBytes),
		grpc.ForceServerCodecV2(codec),
		grpc.UnaryInterceptor(refuseMalformed),
		grpc.StreamInterceptor(refuseMalformedStream),
		grpc.ConnectionTimeout(handshake),
		grpc.MaxConcurrentStreams(limits.HTTP2ConcurrentStreams),
		grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionIdle: limits.HTTP2Idle}),
		// HTTP/2 PINGs are answered however often they come, as grpc-js answers them: the client's path
		// probe sends GET /bench/path's `samples` pings back to back on a connection with no stream,
		// which grpc-go's default policy (5 min between pings, none without a stream) would end with a
		// GOAWAY (ENHANCE_YOUR_CALM, "too_many_pings") after the third.
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: time.Nanosecond, PermitWithoutStream: true}),
	)
	server.RegisterService(sampleServiceDesc(), &sampleService{countRange: validation.Range{Min: 1, Max: int64(maxRows)}, sampler: sampler})
	healthpb.RegisterHealthServer(server, healthService{})
	metricspb.RegisterProcessMetricsServer(server, metricsService{sampler: sampler})
	pathpb.RegisterPathProbeServer(server, pathService{})
	return server
}

func main() {
	lifecycle.ExitWithParent(name)
	cpuprofile.Serve(name)
	s := lifecycle.LoadSettings(name)
	sampler := procmetrics.Shared()
	creds := insecure.NewCredentials()
	if s.Security.TLS() {
		config, err := s.Security.ServerConfig(name, []string{"h2"})
		if err != nil {
			lifecycle.Fail(name, err)
		}
		creds = security.RefusalCredentials(credentials.NewTLS(config), name)
	}
	server := newServer(s.MaxRows, sampler, s.Handshake(), creds)
	address := net.JoinHostPort(s.Host, strconv.Itoa(s.ServerBPort))
	ln, err := net.Listen("tcp", address)
	if err != nil {
		lifecycle.Fail(name, lifecycle.ExplainListenError(err, "SERVER_B_PORT", s.ServerBPort, s.Host))
	}
	go func() {
		if err := server.Serve(ln); err != nil {
			lifecycle.Fail(name, err)
		}
	}()
	fmt.Printf("%s (go google.golang.org/grpc, %s) listening on %s\n", name, s.Security.Mode, address)
	lifecycle.StopOnSignals(name, func(ctx context.Context) error {
		done := make(chan struct{})
		go func() {
			server.GracefulStop()
			close(done)
		}()
		select {
		case <-done:
			return nil
		case <-ctx.Done():
			server.Stop()
			return ctx.Err()
		}
	})
}
