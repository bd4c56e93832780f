import { renderCsv, renderReport } from '../../src/export';
import { brokerTerminalLines, describeWarmUp, renderBrokersSection } from '../../src/export/brokers';
import type { NetworkRecord, RunDocument } from '../../src/model';
import { handMadeCell } from '../hand-made-cell';

// Recorded readings: a ①-1 cell through Redis on loopback (cmdstat_publish counts the request's and the
// reply's PUBLISH; Redis counts no deliveries), beside a direct grpc cell.
const redis = handMadeCell({
  network: 'loopback',
  case: '①-1',
  transport: 'nest-redis',
  rows: 1,
  samplesMs: [1.3, 1.4, 1.5, 1.2, 1.6],
  client: { cpuUserMs: 4, cpuSystemMs: 1, peakRssBytes: 1 },
  server: { cpuUserMs: 3, cpuSystemMs: 2, peakRssBytes: 1 },
  broker: { kind: 'redis', calls: 5, cpuMs: 0.5, peakRssBytes: 10_485_760, counters: { messagesIn: 10, messagesOut: null, bytesIn: 2_345, bytesOut: 1_890, source: 'redis INFO: commandstats cmdstat_publish calls' } },
});
const grpc = handMadeCell({ network: 'loopback', case: '①-1', transport: 'grpc', rows: 1, client: { cpuUserMs: 2, cpuSystemMs: 1, peakRssBytes: 1 }, server: { cpuUserMs: 2, cpuSystemMs: 1, peakRssBytes: 1 } });
const loopback: NetworkRecord = {
  profile: { name: 'loopback', description: 'loopback', oneWayDelayMs: 0, rateMbit: null, loss: 0 },
  calibration: null,
  delayerCpu: null,
  refused: null,
  brokers: { redis: { version: '7.0.15', address: '127.0.0.1:40001', placement: 'loopback, beside the apps', config: {} } },
};
const doc = {
  schemaVersion: 3,
  incomplete: false,
  settings: { startedAt: '2026-11-29T00:00:00Z', cases: ['①-1'], transports: ['grpc', 'nest-redis'], runs: 5, warmup: 1, clientUrl: null },
  provenance: { gitCommit: 'abc', gitDirty: false, hostname: 'h', loadAverage: [0], memoryReclaim: null, bench: { node: 'v24' }, arguments: [], networks: { loopback } },
  results: [grpc, redis],
} as unknown as RunDocument;

describe("the brokers' exports", () => {
  it("results.md: a table per network, its hops, the broker's counters per call and CPU per 1,000 calls beside the apps'", () => {
    const md = renderBrokersSection(doc.results, doc.provenance.networks).join('\n');
    expect(md).toContain("## The brokers' own counters and CPU per cell");
    expect(md).toContain('### loopback');
    expect(md).toContain('no broker hop delay');
    expect(md).toContain('redis: loopback, beside the apps');
    // 10 publishes over 5 calls; out not counted (–); 0.5 ms over 5 calls = 100 ms per 1,000; apps 2,000; both 2,100.
    expect(md).toMatch(/\| blog \| ①-1 \| nest-redis \| redis \| 5 \| 2\.00 \| – \| 469 \| 378 \| 0\.500 \| 100 \| 2,000 \| 2,100 \| 10\.0 MiB \|/);
    expect(md).toMatch(/\| blog \| ①-1 \| grpc \| none \(direct\) \| 3 \|  \|  \|  \|  \|  \|  \| 2,000 \| 2,000 \|  \|/);
    expect(md).toContain('- redis: redis INFO: commandstats cmdstat_publish calls');
    expect(renderBrokersSection([grpc], doc.provenance.networks)).toEqual([]);
  });

  it("results.csv: the broker's columns on its summary row, the apps' CPU per 1,000 calls on every one", () => {
    const [header, ...lines] = renderCsv(doc.results, doc.provenance.networks).trim().split('\n');
    const columns = header.split(',');
    const summaries = lines.filter((l) => l.startsWith('summary')).map((l) => Object.fromEntries(l.split(',').map((v, i) => [columns[i], v])));
    const [g, r] = summaries;
    expect(r).toMatchObject({ transport: 'nest-redis', broker: 'redis', broker_calls: '5', broker_messages_in: '10', broker_messages_out: '', broker_messages_in_per_call: '2', broker_cpu_ms: '0.5', broker_cpu_per_1000_calls_ms: '100', apps_cpu_per_1000_calls_ms: '2000', apps_and_broker_cpu_per_1000_calls_ms: '2100', broker_peak_rss_bytes: '10485760', client_broker_rtt_ms: '' });
    expect(g).toMatchObject({ transport: 'grpc', broker: '', apps_cpu_per_1000_calls_ms: '2000', apps_and_broker_cpu_per_1000_calls_ms: '2000' });
  });

  it('the terminal: a line per brokered cell', () => {
    expect(brokerTerminalLines(doc.results, doc.provenance.networks)).toEqual(['loopback blog ①-1 nest-redis via redis: 2.00 in / – out messages per call; CPU per 1,000 calls: apps 2,000 + broker 100 = 2,100 ms']);
  });

  it('report.html: a table per network in a section of its own, listed in the contents', () => {
    const html = renderReport(doc);
    expect(html).toContain('<section id="brokers" data-section="brokers">');
    expect(html).toContain('data-table="brokers-loopback"');
    expect(html).toContain('href="#brokers"');
    expect(html).toMatch(/data-transport="nest-redis"><td>blog<\/td><td>①-1<\/td><td>nest-redis<\/td><td>redis<\/td>/);
  });

  it("says what warming each Kafka instance took, or why it was not warmed", () => {
    const warm = { ms: 9494, rounds: 370, records: 37_000, joinMs: 67.2, firstMedianMs: 132.85, lastMedianMs: 7.23, batchMediansMs: [132.85, 7.23], settled: true };
    expect(describeWarmUp('kafka', warm)).toBe('kafka: 37,000 records in 370 rounds, 9.5 s, a round 132.85 → 7.23 ms (medians of its batches), settled');
    expect(describeWarmUp('kafka', { ...warm, settled: false })).toContain('not settled within its bound');
    const requests = { ms: 6100, rounds: 160, calls: 1760, joinMs: 3012, firstMedianMs: 38.1, lastMedianMs: 21.4, batchMediansMs: [38.1, 21.4], settled: true };
    expect(describeWarmUp('kafka', { ...warm, requests })).toBe(
      'kafka: 37,000 records in 370 rounds, 9.5 s, a round 132.85 → 7.23 ms (medians of its batches), settled; then 1,760 Nest requests in 160 rounds, 6.1 s, a round 38.1 → 21.4 ms, settled',
    );
    // Judged on the broker's CPU per request where its process could be read.
    expect(describeWarmUp('kafka', { ...warm, requests: { ...requests, brokerCpuPerCallMs: [14.8, 9.1, 4.2] } })).toContain(
      "then 1,760 Nest requests in 160 rounds, 6.1 s, a round 38.1 → 21.4 ms, the broker's CPU per request 14.8 → 4.2 ms (judged on it), settled",
    );
    expect(describeWarmUp('kafka+kafka-max-message', { skipped: 'BENCH_KAFKA_WARM_UP=off' })).toBe('kafka+kafka-max-message: not warmed (BENCH_KAFKA_WARM_UP=off)');
  });
});
