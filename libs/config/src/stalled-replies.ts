import { constants, type Http2Server, type ServerHttp2Stream } from 'node:http2';
import { CONNECTION_LIMITS } from './connection-limits';

/**
 * Resets (RST_STREAM, CANCEL) a stream whose reply has started and then taken no bytes for
 * CONNECTION_LIMITS.replyStall: a caller that stopped reading. node:http2's stream timeout counts
 * queued bytes the session sends as activity, so a slow reader keeps its stream; before the reply's
 * headers are sent the server is still producing it, and the timeout is only renewed.
 */
export function resetStalledReplies(server: Pick<Http2Server, 'on'>, stallMs: number = CONNECTION_LIMITS.replyStall.ms): void {
  server.on('stream', (stream: ServerHttp2Stream) => {
    stream.setTimeout(stallMs);
    stream.on('timeout', () => {
      if (!stream.headersSent) stream.setTimeout(stallMs);
      else if (!stream.closed) stream.close(constants.NGHTTP2_CANCEL);
    });
  });
}
