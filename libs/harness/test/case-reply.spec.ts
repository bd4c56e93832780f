import { parseCallSamples } from '../src/case-reply';
import type { CallSamples } from '../src/case-runner';

const RUN: CallSamples = {
  transport: 'grpc',
  rows: 10,
  requests: 2,
  coldMs: 4.5,
  warmupMs: [1.2],
  samplesMs: [1, 2.5],
  bytesPerResponse: 420,
  rowsPerCall: 20,
  phases: { serverBuildMs: 0.1, serverEncodeMs: null, clientDecodeMs: 0.2 },
  client: { cpuUserMs: 3, cpuSystemMs: 1, peakRssBytes: 1e8 },
  server: null,
  serverMetricsError: 'server metrics unavailable: connection refused',
};

describe('parseCallSamples (the reply of POST /bench/run)', () => {
  it('takes a reply as CallSamples declares it, the nullable fields null too', () => {
    expect(parseCallSamples(JSON.parse(JSON.stringify(RUN)))).toEqual({ ok: true, value: RUN });
    const empty = { ...RUN, coldMs: null, samplesMs: [], bytesPerResponse: null, phases: null, client: null, serverMetricsError: null };
    expect(parseCallSamples(empty)).toEqual({ ok: true, value: empty });
  });

  it.each([
    ['a list', [RUN], 'reply', 'reply must be an object, got [{'],
    ['an unknown transport', { ...RUN, transport: 'xml' }, 'transport', 'transport must be one of json, grpc, json-h2, proto-h1, connect-json, connect-proto, connect-grpc, nest-tcp, nest-redis, nest-nats, nest-rmq, nest-mqtt, nest-kafka, got "xml"'],
    ['no rows', { ...RUN, rows: undefined }, 'rows', 'rows must be a finite number, got nothing'],
    ['a sample that is text', { ...RUN, samplesMs: [1, '2'] }, 'samplesMs[1]', 'samplesMs[1] must be a finite number, got "2"'],
    ['a negative cold call', { ...RUN, coldMs: -1 }, 'coldMs', 'coldMs must be at least 0, got -1'],
    ['fractional bytes', { ...RUN, bytesPerResponse: 1.5 }, 'bytesPerResponse', 'bytesPerResponse must be a whole number, got 1.5'],
    ['a phase that is text', { ...RUN, phases: { ...RUN.phases, serverBuildMs: 'fast' } }, 'phases.serverBuildMs', 'phases.serverBuildMs must be a finite number'],
    ['a cost without its RSS', { ...RUN, client: { cpuUserMs: 1, cpuSystemMs: 1 } }, 'client.peakRssBytes', 'client.peakRssBytes must be a finite number, got nothing'],
    ['an error that is not text', { ...RUN, serverMetricsError: 7 }, 'serverMetricsError', 'serverMetricsError must be a string, got 7'],
  ])('refuses %s, naming the field', (_what, body, field, message) => {
    const result = parseCallSamples(body);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.field).toBe(field);
      expect(result.error.message).toContain(message);
    }
  });
});
