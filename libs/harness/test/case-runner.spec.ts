import type { ProcessSample } from '@bench/config';
import { buildRows } from '@bench/samples';
import { BusyError, CaseFailure, CallRunner, DeadlineExceeded, timeCall, withinDeadline } from '../src/case-runner';
import { MAX_RUN_CALLS, MAX_RUN_ROWS, parseCaseRequest } from '../src/case-request';
import { ReplyMeter, type Connection, type RowTransport, type TransportName } from '@bench/transports';

/** A transport with no network: replies are built in-process, phases and metrics are scripted. */
class FakeTransport implements RowTransport {
  readonly meter = new ReplyMeter();
  opened = 0;
  closed = 0;
  serverReads = 0;
  rows: (count: number) => unknown[] = buildRows;

  constructor(readonly name: TransportName) {}

  private connection(onClose = () => undefined): Connection {
    return {
      fetchAll: async (rows, requests) =>
        Array.from({ length: requests }, () => {
          this.meter.record(100 * rows, 0.5);
          return { samples: this.rows(rows) };
        }),
      close: async () => onClose(),
    };
  }

  shared(): Connection {
    return this.connection();
  }

  openFresh(): Connection {
    this.opened += 1;
    return this.connection(() => void (this.closed += 1));
  }

  takeReplies() {
    return this.meter.take();
  }

  /** Whether the fake server reports its GC pauses, as a Node server does (Go's send 0). */
  reportsGc = false;

  async readServerMetrics(): Promise<ProcessSample> {
    this.serverReads += 1;
    const n = this.serverReads;
    const gc = this.reportsGc ? { gcReported: true, gcMs: 20 * n, buildGcMs: 0.5 * n, encodeGcMs: 8 * n } : {};
    return { cpuUserMs: 10 * n, cpuSystemMs: n, rssBytes: 5e7, peakRssBytes: 6e7, maxRssBytes: 7e7, buildMs: 2 * n, encodeMs: 3 * n, ...gc };
  }
}

describe('CallRunner', () => {
  it('runs the cold call on a fresh connection, the warm-up, then the timed calls, with costs and phases', async () => {
    const json = new FakeTransport('json');
    const runner = new CallRunner({ json, grpc: new FakeTransport('grpc') });
    const run = await runner.run({ transport: 'json', rows: 10, requests: 3, warmup: 2, runs: 4, cold: true, deadlineMs: 5000 });
    expect(json.opened).toBe(1);
    expect(json.closed).toBe(1);
    expect(run).toMatchObject({ transport: 'json', rows: 10, requests: 3, rowsPerCall: 30, bytesPerResponse: 1000, serverMetricsError: null });
    expect(run.coldMs).toBeGreaterThanOrEqual(0);
    expect(run.warmupMs).toHaveLength(2);
    expect(run.samplesMs).toHaveLength(4);
    // Server phases are differences of its cumulative readings, per timed call; decode is 3 replies × 0.5 ms per call.
    expect(run.phases).toEqual({ serverBuildMs: 2 / 4, serverEncodeMs: 3 / 4, clientDecodeMs: 1.5, serverBuildGcMs: null, serverEncodeGcMs: null });
    expect(run.server).toEqual({ cpuUserMs: 10, cpuSystemMs: 1, peakRssBytes: 6e7 });
  });

  it("takes the GC pauses inside the server's phases per timed call, and its pauses over the calls, when it reports them", async () => {
    const json = new FakeTransport('json');
    json.reportsGc = true;
    const run = await new CallRunner({ json, grpc: new FakeTransport('grpc') }).run({ transport: 'json', rows: 10, requests: 3, warmup: 2, runs: 4, cold: false, deadlineMs: 5000 });
    expect(run.phases).toMatchObject({ serverBuildGcMs: 0.5 / 4, serverEncodeGcMs: 8 / 4 });
    expect(run.server).toEqual({ cpuUserMs: 10, cpuSystemMs: 1, peakRssBytes: 6e7, gcMs: 20 });
  });

  it('prepares without timing when runs is 0', async () => {
    const run = await new CallRunner({ json: new FakeTransport('json'), grpc: new FakeTransport('grpc') }).run({
      transport: 'grpc',
      rows: 1,
      requests: 1,
      warmup: 1,
      runs: 0,
      cold: false,
      deadlineMs: 5000,
    });
    expect(run).toMatchObject({ coldMs: null, samplesMs: [], phases: null, client: null, server: null, bytesPerResponse: null });
  });

  it('fails loudly, naming the stage, when a reply is wrong', async () => {
    const grpc = new FakeTransport('grpc');
    grpc.rows = (count) => buildRows(count).slice(1);
    const runner = new CallRunner({ json: new FakeTransport('json'), grpc });
    const failure = runner.run({ transport: 'grpc', rows: 5, requests: 1, warmup: 0, runs: 1, cold: true, deadlineMs: 5000 });
    await expect(failure).rejects.toBeInstanceOf(CaseFailure);
    await expect(failure).rejects.toThrow('cold call failed: wrong reply: expected 5 rows, got 4');
  });

  it('refuses a second case while one runs', async () => {
    const runner = new CallRunner({ json: new FakeTransport('json'), grpc: new FakeTransport('grpc') });
    const first = runner.run({ transport: 'json', rows: 1, requests: 1, warmup: 0, runs: 1, cold: false, deadlineMs: 5000 });
    await expect(runner.timeOnce('json', 1, 1, 5000)).rejects.toBeInstanceOf(BusyError);
    await first;
    await expect(runner.timeOnce('json', 1, 1, 5000)).resolves.toMatchObject({ rowsReceived: 1 });
  });

  it('runs a payload endpoint on its own transports and checks its replies with its own verifier', async () => {
    const blog = new FakeTransport('json');
    const orders = new FakeTransport('json');
    const checked: number[] = [];
    const verify = (_body: unknown, rows: number) => (checked.push(rows), { ok: true as const });
    const runner = new CallRunner({ json: blog, grpc: new FakeTransport('grpc') }, { orders: { transports: { json: orders, grpc: new FakeTransport('grpc') }, verify } });
    expect(runner.payloadNames).toEqual(['orders']);
    await runner.run({ transport: 'json', rows: 4, requests: 2, warmup: 0, runs: 1, cold: true, deadlineMs: 5000, payload: 'orders' });
    expect([orders.opened, blog.opened]).toEqual([1, 0]);
    expect(checked).toEqual([4, 4, 4, 4]);
    await expect(runner.timeOnce('json', 3, 1, 5000, 'orders')).resolves.toMatchObject({ rowsReceived: 3 });
    const failing = new CallRunner({ json: blog, grpc: blog }, { orders: { transports: { json: orders, grpc: orders }, verify: () => ({ ok: false, reason: 'no' }) } });
    await expect(failing.timeOnce('json', 1, 1, 5000, 'orders')).rejects.toThrow('wrong reply: no');
  });

  it('timeCall checks the number of replies', async () => {
    const connection: Connection = { fetchAll: async () => [], close: async () => undefined };
    await expect(timeCall(connection, 1, 2, 5000)).rejects.toThrow('expected 2 replies, got 0');
  });

  it('timeCall passes the deadline to the connection and fails a call that outlives it with DEADLINE_EXCEEDED', async () => {
    const given: number[] = [];
    const never: Connection = { fetchAll: (_rows, _requests, deadlineMs) => (given.push(deadlineMs), new Promise(() => undefined)), close: async () => undefined };
    const started = performance.now();
    await expect(timeCall(never, 1, 1, 50)).rejects.toBeInstanceOf(DeadlineExceeded);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(given).toEqual([50]);
    await expect(withinDeadline(Promise.resolve(7), 50)).resolves.toBe(7);
  });

  it('names the stage when a call of the case misses its deadline', async () => {
    const json = new FakeTransport('json');
    json.shared = () => ({ fetchAll: () => new Promise(() => undefined), close: async () => undefined });
    const runner = new CallRunner({ json, grpc: new FakeTransport('grpc') });
    await expect(runner.run({ transport: 'json', rows: 1, requests: 1, warmup: 1, runs: 1, cold: false, deadlineMs: 30 })).rejects.toThrow(
      'warmup call failed: DEADLINE_EXCEEDED: no complete reply within the call\'s deadline of 30 ms',
    );
  });
});

describe('parseCaseRequest', () => {
  const limits = { maxRows: 100, maxParallel: 10, callTimeoutMs: 9000 };

  it('applies defaults for warmup and cold', () => {
    expect(parseCaseRequest({ transport: 'json', rows: 5, requests: 2, runs: 3 }, limits)).toEqual({
      ok: true,
      value: { transport: 'json', rows: 5, requests: 2, warmup: 1, runs: 3, cold: true, deadlineMs: 9000 },
    });
  });

  it.each([
    [null, 'body', 'type'],
    [[1], 'body', 'type'],
    [{ transport: 'json', rows: 5, requests: 2, runs: 3, cold: 1 }, 'cold', 'type'],
    [{ transport: 'soap', rows: 5, requests: 2, runs: 3 }, 'transport', 'enum'],
    [{ transport: 'json', rows: 101, requests: 2, runs: 3 }, 'rows', 'max'],
    [{ transport: 'json', rows: 5, requests: 11, runs: 3 }, 'requests', 'max'],
    [{ transport: 'json', rows: 5, requests: 1, runs: -1 }, 'runs', 'min'],
    [{ transport: 'json', rows: 5, requests: 1, runs: 1, warmup: 1.5 }, 'warmup', 'integer'],
    [{ transport: 'json', rows: 5, requests: 1, runs: 1, deadlineMs: 0 }, 'deadlineMs', 'min'],
    [{ transport: 'json', rows: 5, requests: 1, runs: 1, deadlineMs: '5s' }, 'deadlineMs', 'integer'],
  ])('refuses %p naming %s (%s)', (body, field, rule) => {
    expect(parseCaseRequest(body, limits)).toMatchObject({ ok: false, error: { field, rule } });
  });

  it("takes the caller's deadline for each call", () => {
    expect(parseCaseRequest({ transport: 'json', rows: 5, requests: 2, runs: 3, deadlineMs: 1500 }, limits)).toMatchObject({ ok: true, value: { deadlineMs: 1500 } });
  });

  it('takes a known payload name and refuses others, or any where the client has none', () => {
    const body = { transport: 'grpc', rows: 5, requests: 1, runs: 1 };
    expect(parseCaseRequest({ ...body, payload: 'orders' }, limits, ['orders'])).toMatchObject({ ok: true, value: { payload: 'orders' } });
    expect(parseCaseRequest(body, limits, ['orders'])).toMatchObject({ ok: true, value: { transport: 'grpc' } });
    expect(parseCaseRequest({ ...body, payload: 'users' }, limits, ['orders'])).toMatchObject({ ok: false, error: { field: 'payload', rule: 'enum' } });
    expect(parseCaseRequest({ ...body, payload: 'orders' }, limits)).toMatchObject({ ok: false, error: { field: 'payload', message: expect.stringContaining('only the blog rows') } });
  });

  it('caps a request\'s total work (rows × requests × calls), naming the cap and its value', () => {
    const big = { maxRows: 1_000_000, maxParallel: 10_000, callTimeoutMs: 9000 };
    // The bench's largest: ①-3 as cold + warm-up + one timed run.
    expect(parseCaseRequest({ transport: 'json', rows: 1_000_000, requests: 1, warmup: 1, runs: 1 }, big)).toMatchObject({ ok: true });
    // The probe: 1,000,000 rows × 40 requests.
    const refused = parseCaseRequest({ transport: 'json', rows: 1_000_000, requests: 40, warmup: 0, runs: 1, cold: false }, big);
    expect(refused).toMatchObject({ ok: false, error: { field: 'body', rule: 'max' } });
    expect(!refused.ok && refused.error.message).toContain(`MAX_RUN_ROWS = ${MAX_RUN_ROWS}`);
    expect(!refused.ok && refused.error.message).toContain('1000000 × 40 × 1 = 40000000 rows');
  });

  it("caps a request's calls (requests × calls) too, so a run of small rows is bounded in time, naming the cap and the figure asked", () => {
    const big = { maxRows: 1_000_000, maxParallel: 10_000, callTimeoutMs: 9000 };
    // The bench's largest in calls: ②-3 as cold + warm-up.
    expect(parseCaseRequest({ transport: 'json', rows: 1, requests: 1_000, warmup: 1, runs: 0 }, big)).toMatchObject({ ok: true });
    expect(parseCaseRequest({ transport: 'json', rows: 1, requests: 1_000, warmup: 99, runs: 0 }, big)).toMatchObject({ ok: true });
    // Issue 47's probe: 1 row × 10,000 requests × 999 runs, under the rows cap, 21–73 minutes of calls.
    const refused = parseCaseRequest({ transport: 'grpc', rows: 1, requests: 10_000, warmup: 0, runs: 999, cold: false }, big);
    expect(refused).toMatchObject({ ok: false, error: { field: 'body', rule: 'max' } });
    expect(!refused.ok && refused.error.message).toContain(`MAX_RUN_CALLS = ${MAX_RUN_CALLS}`);
    expect(!refused.ok && refused.error.message).toContain('10000 × 999 = 9990000 calls');
  });
});

describe('CallRunner cancelled by its caller', () => {
  it('ends a run when its signal aborts, mid-call, and is free for the next run at once', async () => {
    const json = new FakeTransport('json');
    let release: () => void = () => undefined;
    const hanging: Connection = { fetchAll: () => new Promise((resolve) => (release = () => resolve([]))), close: async () => undefined };
    json.shared = () => hanging;
    const runner = new CallRunner({ json });
    const caller = new AbortController();
    const request = { transport: 'json' as const, rows: 1, requests: 1, warmup: 0, runs: 3, cold: false, deadlineMs: 60_000 };
    const first = runner.run(request, caller.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(runner.run(request)).rejects.toBeInstanceOf(BusyError);
    caller.abort(new Error('the caller went away'));
    await expect(first).rejects.toThrow('the caller went away');
    json.shared = () => new FakeTransport('json').shared();
    await expect(runner.run({ ...request, runs: 1 })).resolves.toMatchObject({ samplesMs: [expect.any(Number)] });
    release();
  });
});

describe('CallRunner when the server cannot be reached for its counters', () => {
  it('records why after the case deadline instead of waiting for a read that never answers (a blackholed path)', async () => {
    const json = new FakeTransport('json');
    json.readServerMetrics = () => new Promise<ProcessSample>(() => undefined);
    const runner = new CallRunner({ json });
    const run = await runner.run({ transport: 'json', rows: 1, requests: 1, warmup: 0, runs: 1, cold: false, deadlineMs: 50 });
    expect(run.samplesMs).toHaveLength(1);
    expect(run.server).toBeNull();
    expect(run.serverMetricsError).toMatch(/server metrics unavailable: .*50 ms/);
  });

  it('is free at once when its caller goes away during the read', async () => {
    const json = new FakeTransport('json');
    json.readServerMetrics = () => new Promise<ProcessSample>(() => undefined);
    const runner = new CallRunner({ json });
    const caller = new AbortController();
    const request = { transport: 'json' as const, rows: 1, requests: 1, warmup: 0, runs: 1, cold: false, deadlineMs: 60_000 };
    const first = runner.run(request, caller.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    caller.abort(new Error('the caller went away'));
    await expect(first).rejects.toThrow('the caller went away');
    json.readServerMetrics = new FakeTransport('json').readServerMetrics;
    await expect(runner.run(request)).resolves.toMatchObject({ samplesMs: [expect.any(Number)] });
  });
});
