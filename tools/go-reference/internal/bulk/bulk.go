// Package bulk mirrors libs/config/src/path-limits.ts: the limits of the path probe's bulk transfer
// (server-a's GET /path/bulk, server-b's PathProbe.Bulk) and the one rule both servers apply.
package bulk

import "goreference/internal/validation"

const (
	// MaxBytes is the largest transfer one request may ask for (256 MiB); the client's GET /bench/path reads it too.
	MaxBytes = 256 * 1024 * 1024
	// MaxChunkBytes is the largest chunk of PathProbe.Bulk's stream (4 MiB).
	MaxChunkBytes = 4 * 1024 * 1024
	// DefaultChunkBytes is the chunk of PathProbe.Bulk when the request leaves chunkBytes 0 (256 KiB).
	DefaultChunkBytes = 256 * 1024
)

// Request is a validated bulk transfer request.
type Request struct {
	Bytes      int
	ChunkBytes int
}

// ParseRequest validates a bulk transfer request as parseBulkRequest does: bytes 1 … MaxBytes;
// chunkBytes absent (validation.Missing) or 0 takes DefaultChunkBytes, else 1 … MaxChunkBytes.
func ParseRequest(bytes, chunkBytes any) (Request, *validation.FieldError) {
	n, bad := validation.ParseInt("bytes", bytes, validation.Range{Min: 1, Max: MaxBytes})
	if bad != nil {
		return Request{}, bad
	}
	switch chunkBytes {
	case validation.Missing, 0, int32(0):
		chunkBytes = DefaultChunkBytes
	}
	chunk, bad := validation.ParseInt("chunkBytes", chunkBytes, validation.Range{Min: 1, Max: MaxChunkBytes})
	if bad != nil {
		return Request{}, bad
	}
	return Request{Bytes: int(n), ChunkBytes: int(chunk)}, nil
}
