// Package limits mirrors libs/config's message-limits.ts and connection-limits.ts: what a caller can
// make a Go process read, inflate or hold open, each value with its reason (docs/reliability.md,
// "Requests and connections").
package limits

import (
	"math"
	"time"
)

// echoRequestBytes is the echo suites' largest request (ECHO_MAX_CONTENT, 1 MiB, plus its framing):
// the Go servers do not serve echo, but they take the Node servers' limits, so one client can drive
// either and a caller meets one contract.
const echoRequestBytes = 1_048_576 + 16

// margin: a limit twice the largest legitimate request never refuses a caller that follows the
// contract and still refuses a body a thousand times larger after reading at most twice that.
const margin = 2

// GRPCRequestBytes is server-b's gRPC receive limit, after decompression (REQUEST_LIMITS.grpc,
// 2,097,184 bytes): every request server-b takes (a count, a byte size, a flag) is under 16 bytes.
const GRPCRequestBytes = margin * echoRequestBytes

// HTTPRequestBytes is server-a's request body limit, uncompressed (REQUEST_LIMITS.http): its routes
// are GETs; a body is read and dropped up to this size, and refused with 413 above it.
const HTTPRequestBytes = margin * echoRequestBytes

// ControlRequestBytes is the client's POST /bench/run body limit (REQUEST_LIMITS.control): one case
// request of about ten fields, under 1 KiB.
const ControlRequestBytes = 64 * 1024

// ReplyBytes is the largest reply the servers send and the client accepts (REPLY_LIMIT): MAX_ROWS of
// the blog's rows are ~156 MB of protobuf; 2^31-1 is the largest every gRPC implementation accepts.
const ReplyBytes = math.MaxInt32

// Handshake is how long a listener waits for an HTTP/1.1 request head or the HTTP/2 preface and
// SETTINGS (CONNECTION_LIMITS.handshake; HANDSHAKE_TIMEOUT_MS overrides it): a caller sends them in
// one round trip as it connects, so a half-open connection costs at most this.
const Handshake = 10 * time.Second

// Request is how long a whole HTTP/1.1 request, head and body, may take to arrive
// (CONNECTION_LIMITS.request): the largest body (2 MiB) takes well under a second on any link the
// bench uses. Once it has arrived, the reply is not bound by it.
const Request = 30 * time.Second

// HTTP2Idle is how long server-b keeps an HTTP/2 connection with no call before closing it with
// GOAWAY (CONNECTION_LIMITS.http2Idle): longer than any pause inside a run, and a client that comes
// back opens a new connection instead of failing a call.
const HTTP2Idle = 5 * time.Minute

// HTTP2ConcurrentStreams is how many streams server-b lets one connection have open at once
// (HTTP2_LIMITS.concurrentStreams): the bench's widest legitimate use of a connection is the blog's
// ②-3, 1,000 calls at once; a wider run waits at its own client for a free stream. grpc-go's default
// is 2^32-1, and its rapid-reset defence (CVE-2023-44487) is to run at most this many handlers per
// connection, reading no further frames until one ends: a reset flood is paced by it, not refused.
const HTTP2ConcurrentStreams = 1_000

// HTTPIdle is how long server-a and the client keep an idle HTTP/1.1 keep-alive connection: 65 s,
// the Node apps' long-keep-alive tuning (KEEP_ALIVE_MS), longer than ClientPoolIdle so the client,
// not the server, closes an idle connection (no request races a server's close).
const HTTPIdle = 65 * time.Second

// ClientPoolIdle is how long the Go client's pool keeps an idle connection to server-a: 60 s, as the
// tuned Node client's pool (undici keepAliveTimeout).
const ClientPoolIdle = 60 * time.Second
