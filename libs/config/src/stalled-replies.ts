import { constants, type Http2Server, type ServerHttp2Stream } from 'node:http2';
import { CONNECTION_LIMITS } from './connection-limits';

/**
 * Resets (RST_STREAM, CANCEL) a stream whose reply has bytes queued that its caller has taken none of
 * for CONNECTION_LIMITS.replyStall: a caller that stopped reading. node:http2's stream timeout counts
 * queued bytes the session sends as activity, so a slow reader keeps its stream. With nothing queued
 * (a reply still being produced, a bidirectional stream waiting for its caller's next message) the
 * timeout is only renewed.
 */
export function resetStalledReplies(server: Pick<Http2Server, 'on'>, stallMs: number = CONNECTION_LIMITS.replyStall.ms): void {
  server.on('stream', (stream: ServerHttp2Stream) => {
    stream.setTimeout(stallMs);
    stream.on('timeout', () => {
      if (stream.bufferSize === 0) stream.setTimeout(stallMs);
      else if (!stream.closed) stream.close(constants.NGHTTP2_CANCEL);
    });
  });
}
