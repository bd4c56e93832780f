import { brokerHopsOf, brokerRow, brokerTables } from '../../src/analysis';
import type { Cell, NetworkRecord } from '../../src/model';
import { handMadeCell } from '../hand-made-cell';

// A recorded ②-1 cell through NATS (10 requests a call, 4 timed calls), its apps' CPU, and a direct json cell beside it.
const nats = handMadeCell({
  network: 'region',
  case: '②-1',
  transport: 'nest-nats',
  requests: 10,
  samplesMs: [41, 42, 43, 44],
  client: { cpuUserMs: 3, cpuSystemMs: 1, peakRssBytes: 1 },
  server: { cpuUserMs: 2, cpuSystemMs: 2, peakRssBytes: 1 },
  broker: { kind: 'nats', calls: 4, cpuMs: 0.8, peakRssBytes: 12_582_912, counters: { messagesIn: 80, messagesOut: 80, bytesIn: 9_600, bytesOut: 12_000, source: 'nats /varz in_msgs, out_msgs' } },
});
const json = handMadeCell({ network: 'region', case: '②-1', transport: 'json', requests: 10, samplesMs: [20, 21], client: { cpuUserMs: 1, cpuSystemMs: 0, peakRssBytes: 1 }, server: { cpuUserMs: 1, cpuSystemMs: 0, peakRssBytes: 1 } });
const region: NetworkRecord = {
  profile: { name: 'region', description: '20 ms RTT', oneWayDelayMs: 10, rateMbit: null, loss: 0 },
  calibration: { achieved: { tcpConnectRttMs: { median: 19.99 }, pingRttMs: null, throughput: { steadyMbit: 900 } }, brokerHops: { clientToBrokerMs: { median: 19.88 }, serverToBrokerMs: { median: 20.06 } } },
  delayerCpu: null,
  refused: null,
  brokers: { nats: { version: '2.9.10', address: '198.18.3.2:4222', placement: 'own namespace nbx-1-broker (198.18.3.2)', config: {} } },
};

describe("the brokers' rows (analysis/broker-rows.ts)", () => {
  it('gives messages and bytes per call, and CPU per 1,000 calls: the broker, the apps, and both together', () => {
    expect(brokerRow(nats, 'region')).toEqual({
      place: 'region',
      variant: 'blog',
      case: '②-1',
      transport: 'nest-nats',
      broker: 'nats',
      requests: 10,
      calls: 4,
      // 2 in and 2 out per request: a request and its reply, each in once and out once.
      messagesInPerCall: 20,
      messagesOutPerCall: 20,
      bytesInPerCall: 2_400,
      bytesOutPerCall: 3_000,
      brokerCpuMs: expect.closeTo(0.8, 9),
      brokerCpuPer1000CallsMs: expect.closeTo(200, 9),
      appsCpuPer1000CallsMs: 2_000,
      totalCpuPer1000CallsMs: expect.closeTo(2_200, 9),
      brokerPeakRssBytes: 12_582_912,
      source: 'nats /varz in_msgs, out_msgs',
    });
  });

  it("gives a direct transport its apps' CPU as the total, and a broker that was not read no total", () => {
    expect(brokerRow(json, 'region')).toMatchObject({ broker: null, calls: 2, appsCpuPer1000CallsMs: 1_000, totalCpuPer1000CallsMs: 1_000, messagesInPerCall: null });
    expect(brokerRow({ ...nats, broker: null }, 'region')).toMatchObject({ broker: 'unknown', brokerCpuPer1000CallsMs: null, totalCpuPer1000CallsMs: null });
  });

  it("reads each hop's RTT from the stage's calibration, none on loopback", () => {
    expect(brokerHopsOf(region)).toEqual({ clientToServerMs: 19.99, clientToBrokerMs: 19.88, serverToBrokerMs: 20.06 });
    expect(brokerHopsOf({ ...region, calibration: null })).toBeNull();
  });

  it('makes one table per network a cell went through a broker in, with its succeeded cells and the placements', () => {
    const failed: Cell = { ...nats, transport: 'nest-kafka', ok: false, error: 'too large' };
    const loopbackJson = handMadeCell({ network: 'loopback' });
    const tables = brokerTables([json, nats, failed, loopbackJson], { region });
    expect(tables.map((t) => t.network)).toEqual(['region']);
    expect(tables[0].rows.map((r) => r.transport)).toEqual(['json', 'nest-nats']);
    expect(tables[0].placements).toEqual({ nats: 'own namespace nbx-1-broker (198.18.3.2)' });
    expect(brokerTables([json, loopbackJson], { region })).toEqual([]);
  });
});
