import type { ProcessSample } from '@bench/config';
import { deadlineHeader, isNdjson } from '@bench/samples';
import type { Connection, Http2Windows, ReplyTally, RowTransport } from '../contract';
import { Http2Session, wholeBody } from '../common/http2-session';
import { ReplyMeter } from '../common/reply-meter';
import { readStreamedRows, streamHeaders } from '../common/streamed-rows';
import type { JsonH2Options } from './options';

/**
 * Transport json-h2: server-a's JSON rows over HTTP/2 cleartext, parsed with JSON.parse and timed, as
 * every JSON transport does. The blog's route, the blog's rows; only the protocol differs from `json`.
 * With `streaming` (tuning stream-json-replies), large replies are asked for as NDJSON and parsed as
 * they arrive, as `json` does.
 */
export class JsonH2Transport implements RowTransport {
  readonly name = 'json-h2' as const;
  private readonly meter = new ReplyMeter();
  private readonly session: Http2Session;
  private readonly sharedConnection: Connection;

  constructor(private readonly options: JsonH2Options) {
    this.session = this.newSession();
    this.sharedConnection = this.connect(this.session, async () => undefined);
  }

  private newSession(): Http2Session {
    const { origin, windowBytes, tls, sessions, lookup } = this.options;
    return new Http2Session(origin, windowBytes, tls, sessions, lookup);
  }

  shared(): Connection {
    return this.sharedConnection;
  }

  openFresh(): Connection {
    const session = this.newSession();
    return this.connect(session, () => session.close());
  }

  takeReplies(): ReplyTally {
    return this.meter.take();
  }

  http2Windows(): Http2Windows | null {
    return this.session.windows();
  }

  /** Called on shutdown: an open session would keep the process alive. */
  close(): Promise<void> {
    return this.session.close();
  }

  async readServerMetrics(resetPeak: boolean): Promise<ProcessSample> {
    const { status, body } = await this.session.get(`/metrics?resetPeak=${resetPeak}`, 5_000);
    if (status !== 200) throw new Error(`HTTP ${status}: ${body.toString('utf8').slice(0, 200)}`);
    return JSON.parse(body.toString('utf8')) as ProcessSample;
  }

  private connect(session: Http2Session, close: () => Promise<void>): Connection {
    const { routePrefix, streaming } = this.options;
    const one = async (rows: number, deadlineMs: number): Promise<unknown> => {
      const { status, contentType, body: stream } = await session.open(`${routePrefix}${rows}`, deadlineMs, { ...streamHeaders(streaming, rows), ...deadlineHeader(deadlineMs) });
      if (status === 200 && streaming !== null && isNdjson(contentType)) return readStreamedRows(stream, streaming.field, this.meter);
      const body = await wholeBody(stream);
      if (status !== 200) throw new Error(`HTTP ${status}: ${body.toString('utf8').slice(0, 200)}`);
      const text = body.toString('utf8');
      const started = performance.now();
      const value: unknown = JSON.parse(text);
      this.meter.record(body.length, performance.now() - started);
      return value;
    };
    return {
      fetchAll: (rows, requests, deadlineMs) => Promise.all(Array.from({ length: requests }, () => one(rows, deadlineMs))),
      close,
    };
  }
}
