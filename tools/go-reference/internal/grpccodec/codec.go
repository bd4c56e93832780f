// Package grpccodec wraps gRPC's protobuf codec to time the (de)serialization of the payload under
// test, where the buffer already is (no second encode), like libs/proto's wrapped serializers.
package grpccodec

import (
	"time"

	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/proto" // registers the "proto" codec
	"google.golang.org/grpc/mem"
)

// Metered is grpc's own protobuf codec, observed for the messages Match selects.
type Metered struct {
	// Match selects the messages to observe (only the blog's reply: health and metrics are not the payload).
	Match func(v any) bool
	// Encoded is told each matched message's encoded size and the time Marshal took.
	Encoded func(bytes int, d time.Duration)
	// Decoded is told each matched message's encoded size and the time Unmarshal took.
	Decoded func(bytes int, d time.Duration)
	// KeepMalformed makes Unmarshal keep an undecodable message for Malformed to refuse (a server's
	// requests: malformed.go says why) instead of failing.
	KeepMalformed bool
}

var base = encoding.GetCodecV2("proto")

// Name is "proto": the wire format and content-subtype are gRPC's usual ones.
func (Metered) Name() string { return base.Name() }

func (c Metered) Marshal(v any) (mem.BufferSlice, error) {
	if parts, ok := v.(EncodedParts); ok {
		out := make(mem.BufferSlice, len(parts))
		for i, part := range parts {
			out[i] = mem.SliceBuffer(part)
		}
		return out, nil
	}
	if c.Encoded == nil || !c.Match(v) {
		return base.Marshal(v)
	}
	started := time.Now()
	out, err := base.Marshal(v)
	elapsed := time.Since(started)
	if err == nil {
		c.Encoded(out.Len(), elapsed)
	}
	return out, err
}

func (c Metered) Unmarshal(data mem.BufferSlice, v any) error {
	if c.KeepMalformed {
		if err := base.Unmarshal(data, v); err != nil && !keepMalformed(v, err) {
			return err
		}
		return nil
	}
	if c.Decoded == nil || !c.Match(v) {
		return base.Unmarshal(data, v)
	}
	size := data.Len()
	started := time.Now()
	err := base.Unmarshal(data, v)
	elapsed := time.Since(started)
	if err == nil {
		c.Decoded(size, elapsed)
	}
	return err
}
