package grpccodec

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// grpc-go answers a request its codec cannot decode with INTERNAL ("failed to unmarshal the received
// message") before any handler or interceptor sees it, where the contract (docs/reliability.md) says
// undecodable bytes are the caller's mistake: INVALID_ARGUMENT. So a server codec with KeepMalformed
// never fails: it leaves the message empty, noting why in an unknown field of its own, and an
// interceptor (Malformed) answers INVALID_ARGUMENT, as the bare server's never-throwing deserializer does.

// malformedField is the field number that carries the decode error: the largest protobuf allows, far
// from any field our protos declare. A caller that sends it itself gets INVALID_ARGUMENT: its choice.
const malformedField protowire.Number = protowire.MaxValidNumber

// keepMalformed empties v and records err in its unknown fields.
func keepMalformed(v any, err error) bool {
	m, ok := v.(proto.Message)
	if !ok {
		return false
	}
	proto.Reset(m)
	mark := protowire.AppendTag(nil, malformedField, protowire.BytesType)
	mark = protowire.AppendString(mark, err.Error())
	m.ProtoReflect().SetUnknown(mark)
	return true
}

// Malformed is INVALID_ARGUMENT naming the message type and the decode error when v was undecodable
// (as the bare server's "request is not a valid GetSamplesParam message: … [request: type]"), or nil.
func Malformed(v any) error {
	m, ok := v.(proto.Message)
	if !ok {
		return nil
	}
	unknown := m.ProtoReflect().GetUnknown()
	for len(unknown) > 0 {
		number, kind, n := protowire.ConsumeTag(unknown)
		if n < 0 {
			return nil
		}
		unknown = unknown[n:]
		if number == malformedField && kind == protowire.BytesType {
			why, m2 := protowire.ConsumeString(unknown)
			if m2 >= 0 {
				return status.Errorf(codes.InvalidArgument, "request is not a valid %s message: %s [request: type]",
					m.ProtoReflect().Descriptor().Name(), why)
			}
		}
		skip := protowire.ConsumeFieldValue(number, kind, unknown)
		if skip < 0 {
			return nil
		}
		unknown = unknown[skip:]
	}
	return nil
}
