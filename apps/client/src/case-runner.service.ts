import { Inject, Injectable } from '@nestjs/common';
import { forkJoin, lastValueFrom, map, type Observable } from 'rxjs';
import { costBetween, processSampler, type ProcessCost } from '@bench/config';
import { verifyReply } from '@bench/samples';
import { GRPC_TRANSPORT, JSON_TRANSPORT, type Connection, type RowTransport, type TransportName } from './transports/row-transport';

/** One case as the bench asks for it: `requests` parallel requests of `rows` rows each. */
export interface CaseRequest {
  transport: TransportName;
  rows: number;
  requests: number;
  /** Untimed calls on the shared connection before the timed ones. */
  warmup: number;
  /** Timed calls. */
  runs: number;
  /** Also time one call on a brand-new connection (connection set-up included), before the warm-up. */
  cold: boolean;
}

/** Raw samples of one case; the bench summarizes them. */
export interface CaseRun {
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
  /** The client's CPU time and peak RSS over the timed calls. */
  client: ProcessCost | null;
  /** The same for the server that served them, as it reported itself; null if it could not say. */
  server: ProcessCost | null;
  /** Why `server` is null, when it is. */
  serverMetricsError: string | null;
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

@Injectable()
export class CaseRunner {
  private readonly transports: Record<TransportName, RowTransport>;
  private busy = false;

  constructor(@Inject(JSON_TRANSPORT) json: RowTransport, @Inject(GRPC_TRANSPORT) grpc: RowTransport) {
    this.transports = { json, grpc };
  }

  get isBusy(): boolean {
    return this.busy;
  }

  /** One timed call on the app's shared connection (the blog's four routes). */
  async timeOnce(transport: TransportName, rows: number, requests: number): Promise<TimedCall> {
    return this.exclusive(() => stage('timed', () => timeCall(this.transports[transport].shared(), rows, requests)));
  }

  /** Cold call, warm-up, then timed calls, returning every raw sample (the bench route). */
  async run(request: CaseRequest): Promise<CaseRun> {
    return this.exclusive(async () => {
      const transport = this.transports[request.transport];
      const { rows, requests } = request;
      let coldMs: number | null = null;
      if (request.cold) {
        const fresh = transport.openFresh();
        try {
          coldMs = (await stage('cold', () => timeCall(fresh, rows, requests))).elapsedMs;
        } finally {
          await fresh.close();
        }
      }
      const warmupMs: number[] = [];
      for (let i = 0; i < request.warmup; i++) {
        warmupMs.push((await stage('warmup', () => timeCall(transport.shared(), rows, requests))).elapsedMs);
      }
      const samplesMs: number[] = [];
      const sampler = processSampler();
      const serverBefore = await readQuietly(transport, true);
      transport.takeReplyBytes();
      const clientBefore = sampler.read(true);
      for (let i = 0; i < request.runs; i++) {
        samplesMs.push((await stage('timed', () => timeCall(transport.shared(), rows, requests))).elapsedMs);
      }
      const clientAfter = sampler.read(false);
      const replies = transport.takeReplyBytes();
      const serverAfter = await readQuietly(transport, false);
      const timed = request.runs > 0;
      return {
        transport: request.transport,
        rows,
        requests,
        coldMs,
        warmupMs,
        samplesMs,
        bytesPerResponse: replies.messages > 0 && Number.isFinite(replies.bytes) ? Math.round(replies.bytes / replies.messages) : null,
        rowsPerCall: rows * requests,
        client: timed ? costBetween(clientBefore, clientAfter) : null,
        server: timed && 'cpuUserMs' in serverBefore && 'cpuUserMs' in serverAfter ? costBetween(serverBefore, serverAfter) : null,
        serverMetricsError: 'error' in serverBefore ? serverBefore.error : 'error' in serverAfter ? serverAfter.error : null,
      };
    });
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

export class BusyError extends Error {
  override readonly name = 'BusyError';
  constructor() {
    super('another case is running in this client; run one case at a time');
  }
}

/** Server metrics are extra information: a server that cannot report them does not fail the case. */
async function readQuietly(transport: RowTransport, resetPeak: boolean) {
  try {
    return await transport.readServerMetrics(resetPeak);
  } catch (error) {
    return { error: `server metrics unavailable: ${describe(error)}` };
  }
}

async function stage<T>(name: CaseFailure['stage'], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new CaseFailure(name, describe(error));
  }
}

/**
 * The blog's measurement: fire `requests` requests at once (forkJoin when parallel), wait for every
 * reply, decoded. The timer covers exactly that; replies are checked after it stops.
 */
export async function timeCall(connection: Connection, rows: number, requests: number): Promise<TimedCall> {
  const calls: Observable<unknown>[] = Array.from({ length: requests }, () => connection.getSamples(rows));
  const reply$: Observable<unknown[]> = requests === 1 ? calls[0].pipe(map((reply) => [reply])) : forkJoin(calls);
  const started = performance.now();
  const replies = await lastValueFrom(reply$);
  const elapsedMs = performance.now() - started;
  for (const reply of replies) {
    const check = verifyReply(reply, rows);
    if (!check.ok) throw new Error(`wrong reply: ${check.reason}`);
  }
  return { elapsedMs, rowsReceived: rows * replies.length };
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) {
    const { code, details, message } = error as { code?: unknown; details?: unknown; message?: unknown };
    return [code !== undefined ? `code ${String(code)}` : '', String(details ?? message ?? JSON.stringify(error))]
      .filter(Boolean)
      .join(': ');
  }
  return String(error);
}
