import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { logTicks, renderLogChart } from '../../src/export/html/log-chart';
import { httpCaller } from '@bench/transports';
import { UsageError } from '../../src/cli';
import { parseSuiteArgs, type SuiteOptionsSpec } from '../../src/suites/common/args';
import { runtimesOf } from '../../src/plan/run-options';
import { withOneRuntime } from '../../src/run/experiment-runtimes';
import { checkSuiteArgs } from '../../src/suites/common/suite-experiment';
import { defaultRuntime } from '../../src/plan/runtimes';
import { latencyHistogram, recordMs, summarizeHistogram } from '../../src/suites/common/hdr';
import { quantileCurve, summarizeLatencies } from '../../src/suites/common/latency';
import { rotate, timeSequentialCalls } from '../../src/suites/common/sequential';
import { htmlTable, markdownTable } from '../../src/suites/common/tables';
import { echoVerdict } from '../../src/suites/echo/render';
import { latencyVerdict } from '../../src/suites/latency/render';
import { loadVerdict } from '../../src/suites/load/render';
import { pingPongVerdict } from '../../src/suites/pingpong/render';
import type { LatencyCell } from '../../src/suites/latency/measure';
import type { LoadCell } from '../../src/suites/load/measure';
import type { PingPongCell } from '../../src/suites/pingpong/measure';
import type { EchoCell } from '../../src/suites/echo/measure';

type Demo = { calls: number; rounds: number };
const SPEC: SuiteOptionsSpec<Demo> = {
  suite: 'demo',
  about: 'a demo suite',
  options: { calls: { description: 'calls', min: 1, max: 100 }, rounds: { description: 'rounds', min: 1, max: 5 } },
  presets: { default: { calls: 50, rounds: 3 }, quick: { calls: 5, rounds: 1 } },
};

describe('suite options', () => {
  it('start from the profile and take overrides in both flag forms', () => {
    expect(parseSuiteArgs(SPEC, []).settings).toEqual({ calls: 50, rounds: 3 });
    expect(parseSuiteArgs(SPEC, ['--profile', 'quick']).settings).toEqual({ calls: 5, rounds: 1 });
    const networks = (argv: string[]) => parseSuiteArgs(SPEC, argv).networks.map((p) => p.name);
    expect(networks([])).toEqual(['loopback']);
    expect(networks(['--network', 'region'])).toEqual(['region']);
    expect(networks(['--network', 'veth,region,veth'])).toEqual(['veth', 'region']);
    expect(() => parseSuiteArgs(SPEC, ['--network', 'region,mars'])).toThrow(UsageError);
    expect(() => parseSuiteArgs(SPEC, ['--network', 'region,mars'])).toThrow(/"mars"/);
    expect(networks(['--network', 'region+mesh+names'])).toEqual(['region+names+mesh']);
    expect(() => parseSuiteArgs(SPEC, ['--network', 'loopback+mesh'])).toThrow(UsageError);
    const args = parseSuiteArgs(SPEC, ['--profile=quick', '--calls', '7', '--rounds=2', '--out', '/tmp/x']);
    expect({ ...args, networks: args.networks.map((p) => p.name), securities: args.securities.map((s) => s.name) }).toEqual({
      preset: 'quick',
      out: '/tmp/x',
      networks: ['loopback'],
      runtimes: [defaultRuntime()],
      securities: ['plain'],
      settings: { calls: 7, rounds: 2 },
      extras: {},
      cpuProfile: false,
    });
  });

  it.each([
    [['--calls', '0'], '--calls must be at least 1'],
    [['--calls', '101'], '--calls must be at most 100'],
    [['--calls', 'many'], '--calls must be a whole number'],
    [['--speed', '3'], 'unknown option --speed'],
    [['--profile', 'fast'], '--profile must be default or quick'],
    [['--calls'], '--calls needs a value'],
  ])('refuse %p with a message naming the problem', (argv, message) => {
    expect(() => parseSuiteArgs(SPEC, argv)).toThrow(UsageError);
    expect(() => parseSuiteArgs(SPEC, argv)).toThrow(message);
  });
});

describe('latency summaries', () => {
  const oneToHundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it('give type-7 percentiles, mean and extremes of known data', () => {
    const s = summarizeLatencies([...oneToHundred].reverse());
    expect(s).toMatchObject({ n: 100, meanMs: 50.5, minMs: 1, p50Ms: 50.5, maxMs: 100 });
    expect([s.p90Ms, s.p95Ms, s.p99Ms].map((v) => Number(v.toFixed(6)))).toEqual([90.1, 95.05, 99.01]);
  });

  it('reduce many samples to 201 quantiles from the minimum to the maximum', () => {
    const curve = quantileCurve(oneToHundred);
    expect(curve).toHaveLength(201);
    expect([curve[0], curve[100], curve[200]]).toEqual([1, 50.5, 100]);
    expect(curve.every((v, i) => i === 0 || v >= curve[i - 1])).toBe(true);
  });

  it('record into an HDR histogram at microsecond resolution with 3 significant digits', () => {
    const histogram = latencyHistogram();
    for (let ms = 1; ms <= 1000; ms++) recordMs(histogram, ms);
    const s = summarizeHistogram(histogram);
    expect(s.n).toBe(1000);
    expect(s.p50Ms).toBeCloseTo(500, 0);
    expect(s.p999Ms).toBeGreaterThanOrEqual(999);
    expect(s.maxMs).toBeCloseTo(1000, 0);
    expect(s.curveMs).toHaveLength(201);
    expect(s.hdrBase64.length).toBeGreaterThan(10);
  });
});

describe('sequential calls', () => {
  it('rotate the order of transports each round', () => {
    expect([0, 1, 2, 3].map((round) => rotate(['a', 'b', 'c'], round).join(''))).toEqual(['abc', 'bca', 'cab', 'abc']);
  });

  it('time every call and collect connect times from a scripted caller', async () => {
    let n = 0;
    const caller = { call: async () => (n++ === 0 ? 0.5 : undefined), close: async () => undefined };
    const run = await timeSequentialCalls(caller, 4);
    expect(run.latenciesMs).toHaveLength(4);
    expect(run.connectMs).toEqual([0.5]);
    expect(run.elapsedMs).toBeGreaterThanOrEqual(run.latenciesMs.reduce((a, b) => a + b, 0) - 1e-6);
  });
});

describe('HTTP/1.1 caller', () => {
  let server: http.Server;
  let url: string;
  let connections = 0;
  let reply = '{"id":42}';

  beforeAll(async () => {
    server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(reply));
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/lookup/json/42`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    connections = 0;
    reply = '{"id":42}';
  });

  const check = (body: Buffer) => {
    if ((JSON.parse(body.toString()) as { id: number }).id !== 42) throw new Error('wrong id');
  };

  it('with keep-alive, opens one connection and reports its connect time once', async () => {
    const caller = httpCaller({ url, method: 'GET', keepAlive: true, check, timeoutMs: 5000 });
    const connects = [];
    for (let i = 0; i < 5; i++) connects.push(await caller.call());
    await caller.close();
    expect(connections).toBe(1);
    expect(connects[0]).toBeGreaterThanOrEqual(0);
    expect(connects.slice(1)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('without keep-alive, opens and times a connection per call', async () => {
    const caller = httpCaller({ url, method: 'GET', keepAlive: false, check, timeoutMs: 5000 });
    const connects = [];
    for (let i = 0; i < 5; i++) connects.push(await caller.call());
    expect(connections).toBe(5);
    expect(connects.every((c) => typeof c === 'number' && c >= 0)).toBe(true);
  });

  it('rejects a reply that fails its check', async () => {
    reply = '{"id":7}';
    const caller = httpCaller({ url, method: 'GET', keepAlive: true, check, timeoutMs: 5000 });
    await expect(caller.call()).rejects.toThrow('wrong id');
    await caller.close();
  });
});

describe('suite rendering', () => {
  it('writes the same table as Markdown and HTML', () => {
    const table = { header: ['variant', 'ms'], numeric: [false, true], rows: [['a|b', '1.0']] };
    expect(markdownTable(table)).toBe('| variant | ms |\n| --- | ---: |\n| a\\|b | 1.0 |');
    expect(htmlTable(table)).toContain('<td class="num">1.0</td>');
  });

  it('draws log axes by decades, with 2 and 5 when the range is short', () => {
    expect(logTicks(3, 150_000)).toEqual([1, 10, 100, 1000, 10_000, 100_000, 1_000_000]);
    expect(logTicks(2, 30)).toEqual([1, 2, 5, 10, 20, 50, 100]);
    const svg = renderLogChart({ kind: 'k', caseId: 'c', subheading: '', label: 'l', xLabel: 'bytes', unit: 'ms', series: [{ id: 'a', points: [[100, 1], [1000, 2], [0, 5]] }] });
    expect(svg.match(/data-point="a"/g)).toHaveLength(2);
  });

  const summary = (p50Ms: number, meanMs = p50Ms, p95Ms = p50Ms) => ({ n: 10, meanMs, minMs: p50Ms, p50Ms, p90Ms: p95Ms, p95Ms, p99Ms: p95Ms, maxMs: p95Ms });
  const hdr = (p50Ms: number) => ({ ...summary(p50Ms), p999Ms: p50Ms, curveMs: [], hdrBase64: '' });

  it('says how the echo ranking compares with the published one', () => {
    const cell = (transport: string, jobsPerS: number): EchoCell => ({ transport, calls: 10, rounds: [], elapsedMs: 1, jobsPerS, latency: summary(1), curveMs: [] });
    expect(echoVerdict({ cells: [cell('grpc-unary', 1000), cell('grpc-bidi', 4000), cell('rest-json', 2000)], failures: [], streamCost: null })).toBe(
      'Fastest first: grpc-bidi 4,000/s, rest-json 2,000/s, grpc-unary 1,000/s (published order: grpc-bidi, grpc-unary, rest-protobuf, rest-json).',
    );
  });

  it('compares the migration’s “before” with gRPC as the authors did', () => {
    const cell = (transport: string, meanMs: number, p95Ms: number): LatencyCell => ({ transport, latency: summary(meanMs, meanMs, p95Ms), curveMs: [], firstCallMs: [1], connect: null });
    const verdict = latencyVerdict([cell('grpc', 1, 2), cell('protobuf-new-connection', 3, 8), cell('protobuf-keepalive', 1.5, 3)]);
    expect(verdict).toBe("HTTP/1.1 + protobuf with a new connection per call: mean 3.00× and p95 4.00× gRPC's (published 4× and 7×); with keep-alive: mean 1.50×, p95 1.50×.");
  });

  it('gives the ping-pong ratios across payloads', () => {
    const cell = (transport: string, payload: string, p50Ms: number, callsPerS: number): PingPongCell => ({ transport, payload, bytes: 100, elapsedMs: 1000, calls: callsPerS, callsPerS, payloadBytesPerS: 200 * callsPerS, latency: hdr(p50Ms) });
    const cells = [cell('grpc-unary', 'a', 1, 1000), cell('rest-json', 'a', 5, 200), cell('grpc-bidi', 'a', 0.4, 2500), cell('grpc-unary', 'b', 2, 500), cell('rest-json', 'b', 4, 250), cell('grpc-bidi', 'b', 1, 1000)];
    expect(pingPongVerdict(cells)).toBe(
      "Across payloads, REST JSON's median latency is 2.00–5.00× gRPC unary's (published: 5–10× up to p95); gRPC unary carries 2.00–5.00× REST's payload bytes/s (published ~3× small, ~2× large); the stream makes 2.00–2.50× the unary calls/s (published > 2×).",
    );
  });

  it('marks load cells where the generator was the bottleneck', () => {
    const cell = (target: LoadCell['target'], concurrency: number, requestsPerS: number, generatorBound: boolean): LoadCell => ({
      target, rows: 1, concurrency, calls: 1, elapsedMs: 1, requestsPerS, errors: 0, timeouts: 0, errorKinds: {}, latency: hdr(1), serverCpuShare: 1, serverRssBytes: 1, generatorCpuShare: generatorBound ? 1 : 0.2, generatorBound,
    });
    const verdict = loadVerdict([cell('http-json', 1, 100, false), cell('http-json', 10, 300, false), cell('grpc', 1, 50, false), cell('grpc', 10, 80, true)]);
    expect(verdict).toContain('1 row(s): JSON peaks at 300 req/s (10 in flight), gRPC at 80 req/s (10 in flight)');
    expect(verdict).toContain('1 of 4 cells had the load generator at ≥ 90% of a core');
  });

  it("names each Nest transport's peak beside JSON's and gRPC's", () => {
    const cell = (target: LoadCell['target'], concurrency: number, requestsPerS: number): LoadCell => ({
      target, rows: 1, concurrency, calls: 1, elapsedMs: 1, requestsPerS, errors: 0, timeouts: 0, errorKinds: {}, latency: hdr(1), serverCpuShare: 1, serverRssBytes: 1, generatorCpuShare: 0.2, generatorBound: false,
    });
    const verdict = loadVerdict([cell('http-json', 10, 300), cell('grpc', 10, 80), cell('nest-nats', 1, 40), cell('nest-nats', 10, 90), cell('nest-kafka', 10, 5)]);
    expect(verdict).toContain("1 row(s) through Nest's transports: nest-nats 90 req/s (10 in flight), nest-kafka 5 req/s (10 in flight)");
  });
});

describe('the suites\' --node', () => {
  it('is parsed like bench:all\'s, and each runtime\'s process gets exactly one', () => {
    expect(runtimesOf(['22', '24']).map((r) => r.name)).toEqual(['22', '24']);
    expect(() => runtimesOf(['21'])).toThrow(UsageError);
    expect(() => runtimesOf(['20'])).toThrow(/Node 20 left the --node axis/);
    expect(withOneRuntime(['--profile', 'quick', '--node', '22,24', '--out', 'x'], '22')).toEqual(['--profile', 'quick', '--out', 'x', '--node', '22']);
    expect(withOneRuntime(['--node=22,24'], '24')).toEqual(['--node', '24']);
  });
});

describe("the suites' --security", () => {
  const suite = (needsServers: boolean, usesStage = false, securesOwnApps = false) => ({ spec: SPEC, needsServers, usesStage, securesOwnApps, plan: () => ({}), run: async () => null, markdown: () => '', html: () => '' });

  it('takes plain, tls and mtls on a suite that calls the servers; refuses TLS where there is no connection to secure, or it cannot be had', () => {
    expect(() => checkSuiteArgs(suite(true), parseSuiteArgs(SPEC, ['--security', 'plain']))).not.toThrow();
    expect(() => checkSuiteArgs(suite(true), parseSuiteArgs(SPEC, ['--security', 'plain,tls,mtls']))).not.toThrow();
    expect(() => checkSuiteArgs(suite(false), parseSuiteArgs(SPEC, ['--security', 'mtls']))).toThrow(new UsageError('--security mtls: bench:demo calls no server, so it has no connection to secure'));
    expect(() => checkSuiteArgs(suite(false, true), parseSuiteArgs(SPEC, ['--security', 'tls']))).toThrow(new UsageError("--security tls: bench:demo's own apps listen in cleartext only; bench:demo takes --security plain"));
    // bench:service's replicas and its front proxy take the run's CA (securesOwnApps).
    expect(() => checkSuiteArgs(suite(false, true, true), parseSuiteArgs(SPEC, ['--security', 'plain,tls,mtls']))).not.toThrow();
    expect(() => checkSuiteArgs(suite(true), parseSuiteArgs(SPEC, ['--security', 'tls', '--network', 'region+mesh']))).toThrow(
      new UsageError("--network region+mesh with --security tls: the mesh's sidecars speak mTLS between them and plaintext to the apps; run it with --security plain"),
    );
    expect(() => parseSuiteArgs(SPEC, ['--security', 'ssl'])).toThrow(new UsageError('--security: unknown "ssl"; known: plain, tls, mtls'));
  });
});
