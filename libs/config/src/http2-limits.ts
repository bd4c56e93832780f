import type { CountLimit } from './count-limit';
/**
 * What one HTTP/2 connection may make a server hold: how many streams at once, and how many it may reset
 * before the server gives up on it. Applied to every HTTP/2 listener: server-b (grpc-js, Nest and bare;
 * grpc-go in the Go reference) and server-a's h2c and Connect listener (node:http2).
 */
export const HTTP2_LIMITS = Object.freeze({
  concurrentStreams: {
    count: 1_000,
    why:
      "the bench's widest legitimate use of one connection is the blog's ②-3, 1,000 calls at once; a wider hand-made run " +
      "(MAX_PARALLEL allows 10,000) waits at its own client for a free stream, as any gRPC client does against a server's limit; " +
      'grpc-js sets none, and 10,000 open streams on one connection grew server-b by ~508 MB (issue 47)',
  },
  resetFlood: {
    count: 1_000,
    why:
      "nghttp2 (node:http2's, since Node 18.18.2 and 20.8.1) lets a client reset 1,000 streams at once and 33 more a second, then " +
      'ends the connection with GOAWAY (INTERNAL_ERROR): a rapid-reset flood costs one connection, not the server; Node offers no ' +
      'option for it, so this record states what the tests hold it to rather than a value we pass',
  },
} satisfies Record<string, CountLimit>);
