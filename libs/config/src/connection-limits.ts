/** A time limit as data: its value and why it is that value (docs/reliability.md, "Requests and connections"). */
export interface TimeLimit {
  ms: number;
  why: string;
}

/**
 * How long every listener waits for a connection to say what it wants, and to stay useful. The apps
 * read the handshake limit from Settings (HANDSHAKE_TIMEOUT_MS, so a test can make it short); these
 * are the defaults and the limits that are not settings.
 */
export const CONNECTION_LIMITS = Object.freeze({
  handshake: {
    ms: 10_000,
    why:
      'a caller sends the HTTP/2 preface and SETTINGS, or an HTTP/1.1 request head, in one round trip as it connects; ' +
      "10 s is 5x the longest time one of our apps blocks its event loop (JSON-encoding a 1,000,000-row reply, ~2 s here), " +
      'so a connection is dropped only when the caller stopped, and a half-open one costs at most 10 s',
  },
  request: {
    ms: 30_000,
    why:
      'an HTTP/1.1 request, head and body, must arrive within it: the largest body (2 MiB, REQUEST_LIMITS.http) takes well under ' +
      "a second on any link the bench uses; Node's default is 300 s, during which a stalled body holds its buffer",
  },
  http2Idle: {
    ms: 300_000,
    why:
      'an HTTP/2 session (gRPC, h2c, Connect) with no stream for 5 min is closed with GOAWAY, so a caller that went away without ' +
      "closing costs its buffers for 5 min, not forever; longer than any pause inside a run (a visit's quiet wait, a set idling " +
      'between visits), and GOAWAY lets a client that comes back open a new connection instead of failing a call',
  },
  goawayGrace: {
    ms: 30_000,
    why:
      'an HTTP/2 session whose caller sent GOAWAY is destroyed this long after: node:http2 otherwise keeps it, and its buffers, ' +
      'for as long as one of its streams waits for a body the server stopped reading (a request refused at its size limit) and ' +
      'the caller keeps the TCP connection open; 30 s lets a caller that is leaving gracefully receive the replies it still waits for',
  },
  deadlineGrace: {
    ms: 1_000,
    why:
      "an HTTP/2 stream (gRPC, Connect) still open this long after its call's deadline is reset: grpc-js and connect-es queue " +
      'the deadline status behind a reply the caller has not read, and keep that reply until it reads or disconnects; 1 s lets ' +
      'a caller that is reading receive the status itself (its own deadline ended its wait already)',
  },
  replyStall: {
    ms: 30_000,
    why:
      'an HTTP/2 reply (gRPC, Connect, json-h2) whose caller has taken none of its queued bytes for this long is reset: a one-message ' +
      "reply is produced whole before its first byte (its length comes first), so a caller that never reads and sent no deadline " +
      'would keep it (150 MB at 1,000,000 rows) until it disconnects; as CONNECTION_LIMITS.request, far longer than any pause ' +
      "of a reading caller (the client decodes a 1,000,000-row reply in ~2 s, and reads the next as it decodes)",
  },
  checkEvery: {
    ms: 1_000,
    why: "how often node:http looks for connections past their head or request timeout (Node's default 30 s would add up to 30 s to each)",
  },
} satisfies Record<string, TimeLimit>);
