import { costBetween, processSampler, reportsGc, type ProcessCost, type ProcessSample } from '@bench/config';
import { verifyReply, type ReplyCheck } from '@bench/samples';
import { measurePath, type PathOptions, type PathReport } from './path-probe';
import { takeTlsError, takeTlsHandshakes, watchingTlsHandshakes, type TlsHandshakes } from './tls-handshakes';
import type { Connection, Http2Windows, RowTransport, TransportName, Transports } from '@bench/transports';

/** Checks one decoded reply of `rows` rows (or items). */
export type ReplyVerifier = (body: unknown, rows: number) => ReplyCheck;

/** A payload endpoint beside the blog's: its transports and how its replies are checked. */
export interface PayloadEndpoint {
  transports: Transports;
  verify: ReplyVerifier;
}

/** One case as the bench asks for it: `requests` parallel requests of `rows` rows each. */
export interface CaseRequest {
  transport: TransportName;
  rows: number;
  requests: number;
  /** Untimed calls on the shared connection before the timed ones. */
  warmup: number;
  /** Timed calls (0: only the cold call and warm-up, to prepare interleaved repetitions). */
  runs: number;
  /** Also time one call on a brand-new connection (connection set-up included), before the warm-up. */
  cold: boolean;
  /** A payload endpoint's name (libs/payloads); absent: the blog's rows. */
  payload?: string;
  /** Deadline of each call (all its parallel requests together), in ms; the bench derives it from the case. */
  deadlineMs: number;
}

/** Where a timed call's time went, per call, as far as the processes can tell. */
export interface Phases {
  /** Server: building the rows (both servers run the same generator). */
  serverBuildMs: number | null;
  /** Server: serializing the reply (JSON.stringify or protobuf encode). */
  serverEncodeMs: number | null;
  /** Client: decoding the replies (JSON.parse or protobuf decode). */
  clientDecodeMs: number | null;
  /**
   * Of the server's build and encode, V8's garbage-collection pauses that fell inside them: whether a
   * young-generation collection lands in a phase can move it by half (absent: older documents; null: a
   * server that does not report its pauses, e.g. Go's, or a phase not measured).
   */
  serverBuildGcMs?: number | null;
  serverEncodeGcMs?: number | null;
}

/** Raw samples of one case; the bench summarizes them. */
export interface CallSamples {
  transport: TransportName;
  rows: number;
  requests: number;
  coldMs: number | null;
  warmupMs: number[];
  samplesMs: number[];
  /** Encoded bytes of one reply body (JSON text or protobuf message), measured on the timed calls. */
  bytesPerResponse: number | null;
  /** Rows received and checked in each timed call (rows × requests). */
  rowsPerCall: number;
  /** Phase times per timed call, averaged over the timed calls. */
  phases: Phases | null;
  /** The client's CPU time and peak RSS over the timed calls. */
  client: ProcessCost | null;
  /** The same for the server that served them, as it reported itself; null if it could not say. */
  server: ProcessCost | null;
  /** Why `server` is null, when it is. */
  serverMetricsError: string | null;
  /**
   * HTTP/2 transports whose client can read its session: the receive windows the shared connection
   * had during the timed calls (absent or null: not HTTP/2, or not readable, e.g. inside grpc-js).
   */
  http2Windows?: Http2Windows | null;
  /**
   * Under TLS: the handshakes of the cold call (its fresh connection's) and of the timed calls (a client
   * that reopens connections mid-run handshakes again, resuming a cached session or not). Absent in cleartext.
   */
  tls?: { cold: TlsHandshakes | null; timed: TlsHandshakes | null };
}

export interface TimedCall {
  elapsedMs: number;
  rowsReceived: number;
}

/** A call that failed or returned the wrong rows, with the stage it happened in. */
export class CaseFailure extends Error {
  override readonly name = 'CaseFailure';
  constructor(
    readonly stage: 'cold' | 'warmup' | 'timed',
    message: string,
  ) {
    super(`${stage} call failed: ${message}`);
  }
}

/** A second case asked of a client already running one. */
export class BusyError extends Error {
  override readonly name = 'BusyError';
  constructor() {
    super('another case (or path measurement) is running in this client; run one at a time');
  }
}

/** A call that had no complete reply within its deadline (the transports' own timeouts, or this wall). */
export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
  constructor(deadlineMs: number) {
    super(`DEADLINE_EXCEEDED: no complete reply within the call's deadline of ${deadlineMs} ms`);
  }
}

/**
 * Resolves as `work` does, or rejects with DeadlineExceeded once `deadlineMs` has passed. The
 * transports also pass the deadline to their libraries, which cancel their requests; this is the
 * wall that holds whatever a library does (a timeout that restarts on every byte, a stuck decoder).
 */
export function withinDeadline<T>(work: Promise<T>, deadlineMs: number): Promise<T> {
  const wall = deadlineWall(deadlineMs);
  return Promise.race([work, wall.reached]).finally(wall.clear);
}

/**
 * A promise that rejects with DeadlineExceeded after `deadlineMs`, and the way to cancel it. `unref`:
 * the wall alone does not keep the process alive (a read left behind by an abandoned run).
 */
function deadlineWall(deadlineMs: number, unref = false): { reached: Promise<never>; clear: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const reached = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(deadlineMs)), deadlineMs);
    if (unref) timer.unref();
  });
  return { reached, clear: () => clearTimeout(timer) };
}

/**
 * The blog's measurement: fire `requests` requests at once, wait for every reply, decoded. The timer
 * covers exactly that; replies are checked after it stops, so a wrong answer fails loudly.
 */
export async function timeCall(
  connection: Connection,
  rows: number,
  requests: number,
  deadlineMs: number,
  verify: ReplyVerifier = verifyReply,
): Promise<TimedCall> {
  // The wall's timer is set before the clock starts and cleared after it stops: only the race is timed.
  const wall = deadlineWall(deadlineMs);
  let replies: unknown[];
  let elapsedMs: number;
  try {
    const started = performance.now();
    replies = await Promise.race([connection.fetchAll(rows, requests, deadlineMs), wall.reached]);
    elapsedMs = performance.now() - started;
  } finally {
    wall.clear();
  }
  if (replies.length !== requests) throw new Error(`wrong reply: expected ${requests} replies, got ${replies.length}`);
  for (const reply of replies) {
    const check = verify(reply, rows);
    if (!check.ok) throw new Error(`wrong reply: ${check.reason}`);
  }
  return { elapsedMs, rowsReceived: rows * replies.length };
}

type MaybeSample = ProcessSample | { error: string };

/**
 * Runs cases for one client process: cold call, warm-up, timed calls, and the costs around them.
 * Shared by every client variant (Nest, bare, tuned), so they measure exactly alike.
 */
export class CallRunner {
  private busy = false;

  private readonly endpoints: ReadonlyMap<string | undefined, PayloadEndpoint>;

  constructor(transports: Transports, payloads: Readonly<Record<string, PayloadEndpoint>> = {}) {
    this.endpoints = new Map<string | undefined, PayloadEndpoint>([[undefined, { transports, verify: verifyReply }], ...Object.entries(payloads)]);
  }

  /** The payload endpoints this runner can call, by name (POST /bench/run's `payload`). */
  get payloadNames(): string[] {
    return [...this.endpoints.keys()].filter((name): name is string => name !== undefined);
  }

  /** The transports the blog's rows are served over by this client (POST /bench/run's `transport`). */
  get transportNames(): TransportName[] {
    return Object.keys(this.endpoint(undefined).transports) as TransportName[];
  }

  /** One timed call on the shared connection (the blog's four routes, and the same for a payload). */
  timeOnce(transport: TransportName, rows: number, requests: number, deadlineMs: number, payload?: string): Promise<TimedCall> {
    const { transports, verify } = this.endpoint(payload);
    const served = servedTransport(transports, transport, payload);
    return this.exclusive(() => stage('timed', () => timeCall(served.shared(), rows, requests, deadlineMs, verify)));
  }

  /**
   * Cold call, warm-up, then timed calls, returning every raw sample (the bench route). When `signal`
   * aborts (the caller of the run went away) the run ends at once with the signal's reason and the
   * runner is free for the next: the call in flight then settles on its own, by its deadline at most.
   */
  run(request: CaseRequest, signal?: AbortSignal): Promise<CallSamples> {
    const { transports, verify } = this.endpoint(request.payload);
    const transport = servedTransport(transports, request.transport, request.payload);
    return this.exclusive(async () => {
      const { rows, requests, runs, deadlineMs } = request;
      let coldMs: number | null = null;
      takeTlsHandshakes();
      let coldTls: TlsHandshakes | null = null;
      if (request.cold) {
        const fresh = transport.openFresh();
        try {
          coldMs = (await unlessAborted(signal, () => stage('cold', () => timeCall(fresh, rows, requests, deadlineMs, verify)))).elapsedMs;
          coldTls = takeTlsHandshakes();
        } finally {
          // An abandoned run does not wait for the fresh connection's call in flight to settle before closing it.
          if (signal?.aborted) void fresh.close().catch(() => undefined);
          else await fresh.close();
        }
      }
      const warmupMs: number[] = [];
      for (let i = 0; i < request.warmup; i++) {
        warmupMs.push((await unlessAborted(signal, () => stage('warmup', () => timeCall(transport.shared(), rows, requests, deadlineMs, verify)))).elapsedMs);
      }

      const sampler = processSampler();
      const serverBefore = await unlessAborted(signal, () => readQuietly(transport, true, deadlineMs));
      transport.takeReplies();
      const clientBefore = sampler.read(true);
      takeTlsHandshakes();
      const samplesMs: number[] = [];
      for (let i = 0; i < runs; i++) {
        samplesMs.push((await unlessAborted(signal, () => stage('timed', () => timeCall(transport.shared(), rows, requests, deadlineMs, verify)))).elapsedMs);
      }
      const clientAfter = sampler.read(false);
      const timedTls = takeTlsHandshakes();
      const replies = transport.takeReplies();
      const serverAfter = await unlessAborted(signal, () => readQuietly(transport, false, deadlineMs));

      const timed = runs > 0;
      const unseen = new Set(transport.unmeasured ?? []);
      const server = timed && !('error' in serverBefore) && !('error' in serverAfter) ? [serverBefore, serverAfter] : null;
      const gcIn = (field: 'buildGcMs' | 'encodeGcMs', measured: boolean) => (server && measured && reportsGc(server[1]) ? ((server[1][field] ?? 0) - (server[0][field] ?? 0)) / runs : null);
      return {
        transport: request.transport,
        rows,
        requests,
        coldMs,
        warmupMs,
        samplesMs,
        // A streamed reply is several messages: bytes are per reply (request), not per message.
        bytesPerResponse: replies.messages > 0 && Number.isFinite(replies.bytes) ? Math.round(replies.bytes / (requests * runs)) : null,
        rowsPerCall: rows * requests,
        phases: timed
          ? {
              serverBuildMs: server ? (server[1].buildMs - server[0].buildMs) / runs : null,
              serverEncodeMs: server && !unseen.has('serverEncodeMs') ? (server[1].encodeMs - server[0].encodeMs) / runs : null,
              clientDecodeMs: replies.messages > 0 && Number.isFinite(replies.decodeMs) && !unseen.has('clientDecodeMs') ? replies.decodeMs / runs : null,
              serverBuildGcMs: gcIn('buildGcMs', true),
              serverEncodeGcMs: gcIn('encodeGcMs', !unseen.has('serverEncodeMs')),
            }
          : null,
        client: timed ? costBetween(clientBefore, clientAfter) : null,
        server: server ? costBetween(server[0], server[1]) : null,
        serverMetricsError: 'error' in serverBefore ? serverBefore.error : 'error' in serverAfter ? serverAfter.error : null,
        ...(transport.http2Windows ? { http2Windows: transport.http2Windows() } : {}),
        ...(watchingTlsHandshakes() ? { tls: { cold: coldTls, timed: timedTls } } : {}),
      };
    });
  }

  /**
   * The client's path to each server (GET /bench/path), under the same one-at-a-time rule as a run: its
   * 8 MiB transfers would share the sockets and the CPU of a run's timed calls and disturb them unseen.
   */
  path(options: PathOptions): Promise<PathReport> {
    return this.exclusive(() => measurePath(options));
  }

  private endpoint(payload: string | undefined): PayloadEndpoint {
    const endpoint = this.endpoints.get(payload);
    if (!endpoint) throw new Error(`unknown payload ${JSON.stringify(payload)}; this client serves ${this.payloadNames.join(', ') || 'no payload endpoints'}`);
    return endpoint;
  }

  /** One case at a time: parallel runs would share sockets, CPU and byte meters and corrupt each other. */
  private async exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.busy) throw new BusyError();
    this.busy = true;
    try {
      return await work();
    } finally {
      this.busy = false;
    }
  }
}

/** `work()`'s result, or the signal's reason as soon as it aborts (before or while `work` runs). */
function unlessAborted<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  if (!signal) return work();
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    work()
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', abort));
  });
}

/** A transport this client does not serve, asked for anyway. */
export class UnservedTransport extends Error {
  override readonly name = 'UnservedTransport';
  readonly status = 400;
}

function servedTransport(transports: Transports, name: TransportName, payload: string | undefined): RowTransport {
  const transport = transports[name];
  if (transport) return transport;
  const what = payload === undefined ? "the blog's rows" : `payload ${payload}`;
  throw new UnservedTransport(`transport ${name} is not served by this client for ${what}; it serves ${Object.keys(transports).join(', ')}`);
}

/** Server metrics are extra information: a server that cannot report them does not fail the case. */
/**
 * The server's counters, or why not, within the case's deadline: a metrics read across a dead path
 * (a blackhole) has no deadline of its own and would keep the runner busy, and every next case would
 * be refused as a second run (409), long after its caller gave up.
 */
async function readQuietly(transport: RowTransport, resetPeak: boolean, deadlineMs: number): Promise<MaybeSample> {
  const wall = deadlineWall(deadlineMs, true);
  try {
    return await Promise.race([transport.readServerMetrics(resetPeak), wall.reached]);
  } catch (error) {
    return { error: `server metrics unavailable: ${describeError(error)}` };
  } finally {
    wall.clear();
  }
}

async function stage<T>(name: CaseFailure['stage'], work: () => Promise<T>): Promise<T> {
  takeTlsError();
  try {
    return await work();
  } catch (error) {
    // A TLS refusal reaches some libraries only as a closed socket (undici: "other side closed"): say what TLS said.
    const tls = takeTlsError();
    const said = describeError(error);
    throw new CaseFailure(name, tls && !said.includes(tls) ? `${said} (TLS: ${tls})` : said);
  }
}

/** A readable sentence for errors of every shape (Error, gRPC status objects, plain values). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) {
    const { code, details, message } = error as { code?: unknown; details?: unknown; message?: unknown };
    return [code !== undefined ? `code ${String(code)}` : '', String(details ?? message ?? JSON.stringify(error))]
      .filter(Boolean)
      .join(': ');
  }
  return String(error);
}
