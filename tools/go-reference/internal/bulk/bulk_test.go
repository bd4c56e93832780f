package bulk

import (
	"testing"

	"goreference/internal/validation"
)

var missingChunk = validation.Missing

func TestParseRequest(t *testing.T) {
	for _, c := range []struct {
		bytes, chunk any
		want         Request
	}{
		{int32(1), int32(0), Request{1, DefaultChunkBytes}},
		{"268435456", nil, Request{MaxBytes, DefaultChunkBytes}}, // nil: not given (validation.Missing)
		{int32(10), int32(3), Request{10, 3}},
		{int32(10), int32(MaxChunkBytes), Request{10, MaxChunkBytes}},
	} {
		chunk := c.chunk
		if chunk == nil {
			chunk = missingChunk
		}
		got, bad := ParseRequest(c.bytes, chunk)
		if bad != nil || got != c.want {
			t.Errorf("ParseRequest(%v, %v) = %v, %v; want %v", c.bytes, chunk, got, bad, c.want)
		}
	}
	for _, c := range []struct {
		bytes, chunk any
		field, rule  string
	}{
		{int32(0), int32(0), "bytes", "min"},
		{int32(-1), int32(0), "bytes", "min"},
		{"268435457", missingChunk, "bytes", "max"},
		{"", missingChunk, "bytes", "required"},
		{"1e3", missingChunk, "bytes", "integer"},
		{int32(1), int32(-1), "chunkBytes", "min"},
		{int32(1), int32(MaxChunkBytes + 1), "chunkBytes", "max"},
	} {
		_, bad := ParseRequest(c.bytes, c.chunk)
		if bad == nil || bad.Field != c.field || bad.Rule != c.rule {
			t.Errorf("ParseRequest(%v, %v): %v; want %s %s", c.bytes, c.chunk, bad, c.field, c.rule)
		}
	}
}
