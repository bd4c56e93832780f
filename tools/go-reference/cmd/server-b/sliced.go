package main

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"goreference/gen/samplepb"
	"goreference/internal/grpccodec"
	"goreference/internal/samples"
)

// sampleServiceDesc is samplepb's service description with GetSamples answered by getSamplesHandler:
// the generated handler must return a *samplepb.Samples, which grpc-go encodes in one piece after
// the handler returned, past any check for the call's deadline.
func sampleServiceDesc() *grpc.ServiceDesc {
	desc := samplepb.SampleService_ServiceDesc
	desc.Methods = append([]grpc.MethodDesc(nil), desc.Methods...)
	for i := range desc.Methods {
		if desc.Methods[i].MethodName == "GetSamples" {
			desc.Methods[i].Handler = getSamplesHandler
		}
	}
	return &desc
}

// getSamplesHandler is the generated unary handler, calling reply (which may return Encoded bytes).
func getSamplesHandler(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
	in := new(samplepb.GetSamplesParam)
	if err := dec(in); err != nil {
		return nil, err
	}
	s := srv.(*sampleService)
	handle := func(ctx context.Context, req any) (any, error) { return s.reply(ctx, req.(*samplepb.GetSamplesParam)) }
	if interceptor == nil {
		return handle(ctx, in)
	}
	return interceptor(ctx, in, &grpc.UnaryServerInfo{Server: srv, FullMethod: samplepb.SampleService_GetSamples_FullMethodName}, handle)
}

// reply is GetSamples' answer: up to samples.WholeReplyMaxRows rows built in one piece and encoded by
// the codec as the blog's server did; above, in the same order (all rows built, then encoded) but a
// slice of samples.ReplySliceRows at a time, checking between slices whether the call's deadline
// (grpc-timeout) passed or the caller cancelled, and then stopping. The parts are the whole message's
// bytes: a repeated field is its elements' records one after another.
func (s *sampleService) reply(ctx context.Context, param *samplepb.GetSamplesParam) (any, error) {
	count, err := s.count(param)
	if err != nil {
		return nil, err
	}
	if count <= samples.WholeReplyMaxRows {
		started := time.Now()
		rows := BuildRows(0, count)
		s.sampler.AddBuild(time.Since(started))
		return &samplepb.Samples{Samples: rows}, nil
	}
	rows := make([]*samplepb.Sample, 0, count)
	for start := 0; start < count; start += samples.ReplySliceRows {
		if err := ctx.Err(); err != nil {
			return nil, abandon(ctx, "GetSamples", count, start)
		}
		started := time.Now()
		rows = append(rows, BuildRows(start, min(count, start+samples.ReplySliceRows))...)
		s.sampler.AddBuild(time.Since(started))
	}
	encoded := make(grpccodec.EncodedParts, 0, (count+samples.ReplySliceRows-1)/samples.ReplySliceRows)
	for start := 0; start < count; start += samples.ReplySliceRows {
		if err := ctx.Err(); err != nil {
			return nil, abandon(ctx, "GetSamples", count, start)
		}
		started := time.Now()
		part, err := proto.Marshal(&samplepb.Samples{Samples: rows[start:min(count, start+samples.ReplySliceRows)]})
		s.sampler.AddEncode(time.Since(started))
		if err != nil {
			return nil, err
		}
		encoded = append(encoded, part)
	}
	return encoded, nil
}

// deadlineSkew: a client cancels its stream at its own deadline, which reaches the server a little
// before the server's timer for the same grpc-timeout (started when the request arrived) fires; a
// cancel that close to the deadline is the deadline.
const deadlineSkew = 50 * time.Millisecond

// abandon logs a reply stopped after `done` rows and is the status the call ends with (its caller
// no longer reads it: DEADLINE_EXCEEDED or CANCELLED).
func abandon(ctx context.Context, method string, count, done int) error {
	why := "the call was cancelled"
	if deadline, ok := ctx.Deadline(); ok && (ctx.Err() == context.DeadlineExceeded || time.Until(deadline) < deadlineSkew) {
		why = "the call's deadline passed (grpc-timeout)"
	}
	samples.NoteAbandoned(fmt.Sprintf("server-b %s reply of %d rows (after %d)", method, count, done), why)
	return status.FromContextError(ctx.Err()).Err()
}
