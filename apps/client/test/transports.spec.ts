import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DEFAULT_SETTINGS, GRPC_FLOW_CONTROL_WINDOW_BYTES, type NestVariant, type Settings } from '@bench/config';
import { parseCallSamples } from '@bench/harness';
import { buildRows, NDJSON_FROM_ROWS } from '@bench/samples';
import { startFakeGrpcServer, startFakeJsonServer, type FakeServer } from '@bench/testing';
import { AppModule } from '../src/app.module';

// The transports that complete the protocol × codec matrix (json-h2, proto-h1), through POST /bench/run,
// against protocol-level stand-ins for server-a's two listeners.
describe.each<NestVariant>(['blog', 'tuned'])('client: json-h2 and proto-h1 (%s)', (variant) => {
  let serverA: FakeServer;
  let serverAH2: FakeServer;
  let serverB: FakeServer;
  let client: INestApplication;

  beforeAll(async () => {
    [serverA, serverAH2, serverB] = await Promise.all([startFakeJsonServer(), startFakeJsonServer('h2c'), startFakeGrpcServer()]);
    const settings: Settings = {
      ...DEFAULT_SETTINGS,
      serverAUrl: serverA.url,
      serverAH2Url: serverAH2.url,
      serverBUrl: serverB.url,
      maxRows: Math.max(20_000, NDJSON_FROM_ROWS),
      maxParallel: 200,
      callTimeoutMs: 1_000,
      variant,
    };
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.register(settings)] }).compile();
    client = moduleRef.createNestApplication({ logger: false });
    await client.init();
  });
  afterAll(async () => {
    await client.close();
    await Promise.all([serverA.close(), serverAH2.close(), serverB.close()]);
  });

  const http = () => request(client.getHttpServer());

  it.each(['json-h2', 'proto-h1', 'connect-json', 'connect-proto', 'connect-grpc'])('POST /bench/run measures %s like every transport', async (transport) => {
    const run = (await http().post('/bench/run').send({ transport, rows: 100, requests: 3, warmup: 2, runs: 4 }).expect(200)).body;
    expect(parseCallSamples(run)).toEqual({ ok: true, value: run });
    expect(run).toMatchObject({ transport, rows: 100, requests: 3, rowsPerCall: 300, serverMetricsError: null });
    expect(run.samplesMs).toHaveLength(4);
    expect(run.coldMs).toBeGreaterThan(0);
    expect(run.server).toEqual({ cpuUserMs: expect.any(Number), cpuSystemMs: expect.any(Number), peakRssBytes: expect.any(Number), gcMs: expect.any(Number) });
    if (transport.startsWith('connect-')) {
      // connect-es encodes and decodes inside its calls: unknown, not 0.
      expect(run).toMatchObject({ bytesPerResponse: null, phases: { serverEncodeMs: null, clientDecodeMs: null } });
    } else {
      expect(run.bytesPerResponse).toBeGreaterThan(100 * 50);
      expect(run.phases.clientDecodeMs).toBeGreaterThan(0);
    }
  });

  it.each(['connect-json', 'connect-proto', 'connect-grpc'])('%s offers no compression, so its replies cross the wire as grpc-js sends them', async (transport) => {
    await http().post('/bench/run').send({ transport, rows: 2_000, requests: 1, warmup: 0, runs: 1 }).expect(200);
    const offered = [...serverAH2.lastConnectHeaders!.entries()].filter(([name]) => name.endsWith('accept-encoding'));
    expect(offered.map(([, value]) => value).join(',')).not.toMatch(/gzip|br/);
  });

  it.each(['json-h2', 'connect-json', 'connect-grpc'])('%s reads its HTTP/2 session windows back: 64 KiB by default, 16 MiB with http2-window', async (transport) => {
    const run = (await http().post('/bench/run').send({ transport, rows: 10, requests: 1, warmup: 0, runs: 1 }).expect(200)).body;
    const window = variant === 'tuned' ? GRPC_FLOW_CONTROL_WINDOW_BYTES : 65_535;
    expect(run.http2Windows).toEqual({ streamBytes: window, connectionBytes: window });
  });

  it('a protobuf body is smaller than the JSON body of the same rows, and the same size as gRPC', async () => {
    const run = async (transport: string) =>
      (await http().post('/bench/run').send({ transport, rows: 1000, requests: 1, warmup: 0, runs: 1, cold: false }).expect(200)).body.bytesPerResponse as number;
    const [json, jsonH2, protoH1, grpc] = [await run('json'), await run('json-h2'), await run('proto-h1'), await run('grpc')];
    expect(jsonH2).toBe(json);
    expect(protoH1).toBe(grpc);
    expect(protoH1).toBeLessThan(json);
  });

  const serverOf = (transport: string) => (transport === 'proto-h1' ? serverA : serverAH2);

  it.each(['json-h2', 'proto-h1', 'connect-proto'])('fails a case loudly (502) when %s sends the wrong rows', async (transport) => {
    const server = serverOf(transport);
    server.rows = (count) => buildRows(count).map((row, i) => (i === count - 1 ? { ...row, columnJ: 'tampered' } : row));
    try {
      const response = await http().post('/bench/run').send({ transport, rows: 5, requests: 1, warmup: 0, runs: 1 }).expect(502);
      expect(response.body.message).toContain('wrong reply: row 4 differs');
    } finally {
      server.rows = buildRows;
    }
  });

  it.each(['json-h2', 'proto-h1', 'connect-grpc'])('holds %s calls to the case deadline (502)', async (transport) => {
    const server = serverOf(transport);
    const heldMs = 3_000;
    server.delayMs = heldMs;
    const started = Date.now();
    try {
      const response = await http().post('/bench/run').send({ transport, rows: 1, requests: 1, warmup: 0, runs: 1, cold: false, deadlineMs: 300 }).expect(502);
      // Cut by the deadline, well before the server would have answered (a behaviour bound, generous for a loaded machine).
      expect(Date.now() - started).toBeLessThan(heldMs - 500);
      expect(response.body.message).toMatch(/DEADLINE_EXCEEDED|timeout of 300ms exceeded|deadline_exceeded/);
    } finally {
      server.delayMs = 0;
    }
    // The connection is still usable afterwards.
    await http().post('/bench/run').send({ transport, rows: 3, requests: 2, warmup: 0, runs: 1, cold: false }).expect(200);
    // connect-node logs "handler for rpc … failed" when the held reply meets the stream the client gave
    // up on, heldMs after the call: let that happen inside this test, not after the file (Jest exits 1 then).
    if (transport.startsWith('connect')) await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + heldMs + 500 - Date.now())));
  });

  // Tuning stream-json-replies: from NDJSON_FROM_ROWS rows on, the tuned client asks for json and json-h2
  // replies as an NDJSON stream (the stand-ins send one when asked) and checks it as it checks every reply.
  describe.each(['json', 'json-h2'])('%s replies of NDJSON_FROM_ROWS rows', (transport) => {
    const server = () => (transport === 'json' ? serverA : serverAH2);
    const big = { transport, rows: NDJSON_FROM_ROWS, requests: 2, warmup: 0, runs: 1, cold: false };

    it('are read whole and measured', async () => {
      const run = (await http().post('/bench/run').send(big).expect(200)).body;
      expect(run.bytesPerResponse).toBeGreaterThan(NDJSON_FROM_ROWS * 200);
      expect(run.phases.clientDecodeMs).toBeGreaterThan(0);
    });

    it('fail the case (502) when a row is missing', async () => {
      server().rows = (count) => buildRows(count - 1);
      try {
        const response = await http().post('/bench/run').send(big).expect(502);
        expect(response.body.message).toContain(`wrong reply: expected ${NDJSON_FROM_ROWS} rows, got ${NDJSON_FROM_ROWS - 1}`);
      } finally {
        server().rows = buildRows;
      }
    });

    it.each([
      ['cut inside a line', '{"rowNum":', /the body ended inside a line/],
      ['garbled', 'not json\n', /malformed NDJSON reply/],
    ])(variant === 'tuned' ? 'fail the case (502) when the stream is %s' : 'come as one JSON body, so a stream %s never reaches them', async (_what, tail, message) => {
      server().ndjsonTail = tail;
      try {
        if (variant === 'tuned') expect((await http().post('/bench/run').send(big).expect(502)).body.message).toMatch(message);
        else await http().post('/bench/run').send(big).expect(200);
      } finally {
        server().ndjsonTail = '';
      }
    });
  });

  it('refuses a transport no client serves with 400', async () => {
    const response = await http().post('/bench/run').send({ transport: 'json-h3', rows: 1, requests: 1, runs: 1 }).expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, field: 'transport', rule: 'enum' });
  });
});
