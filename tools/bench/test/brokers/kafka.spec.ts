import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { brokerMissing, startBrokers, warmKafka, type Broker } from '../../src/brokers';
import { parseJmx, serverProperties } from '../../src/brokers/kafka';
import { roundsUntilSettled, settledAfter, WARM_UP_BATCH, WARM_UP_IN_FLIGHT, WARM_UP_REQUESTS, WARM_UP_WINDOW } from '../../src/brokers/kafka/warm-up';
import { describeNeeding } from '../needs';

describe("Kafka's broker", () => {
  it("reads JmxTool's one-time CSV", () => {
    const out = 'Trying to connect to JMX url: service:jmx:rmi:///jndi/rmi://127.0.0.1:1/jmxrmi.\n"time","kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec:Count"\n1764360000000,42\n';
    expect(parseJmx(out).get('kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec:Count')).toBe('42');
  });

  it('is one KRaft node on the run address, its log in the run folder', () => {
    const properties = serverProperties('198.18.3.2', 9092, 9093, '/tmp/run/data');
    expect(properties).toContain('controller.quorum.voters=1@198.18.3.2:9093');
    expect(properties).toContain('advertised.listeners=PLAINTEXT://198.18.3.2:9092');
    expect(properties).toContain('log.dirs=/tmp/run/data');
    expect(properties).toContain('offsets.topic.replication.factor=1');
  });

  it("keeps the defaults untouched, and with kafka-max-message raises the record, replica fetch and request limits together", () => {
    expect(serverProperties('127.0.0.1', 9092, 9093, '/d')).not.toMatch(/message\.max\.bytes|socket\.request\.max\.bytes/);
    const tuned = serverProperties('127.0.0.1', 9092, 9093, '/d', ['kafka-max-message']);
    for (const key of ['message.max.bytes', 'replica.fetch.max.bytes', 'socket.request.max.bytes']) expect(tuned).toContain(`${key}=${512 * 1024 * 1024}`);
  });
});

describe("Kafka's warm-up: when its round trip has settled", () => {
  it('is settled once a window of batches’ medians is no more than 10 % below the window before, never before two windows', () => {
    const flat = Array.from({ length: 2 * WARM_UP_WINDOW }, () => 9);
    expect(settledAfter(flat.slice(1))).toBe(false);
    expect(settledAfter(flat)).toBe(true);
    // A plateau between falls is not the end: 32 ms after 45 is still falling.
    expect(settledAfter([...Array(WARM_UP_WINDOW).fill(45), ...Array(WARM_UP_WINDOW).fill(32)])).toBe(false);
    expect(settledAfter([...Array(WARM_UP_WINDOW).fill(45), ...Array(WARM_UP_WINDOW).fill(32), ...Array(WARM_UP_WINDOW).fill(30)])).toBe(true);
    expect(settledAfter([133, 45, 7.8, 7.2], 2, 0.9)).toBe(false);
    expect(settledAfter([7.8, 7.2, 6.8, 7.2], 2, 0.9)).toBe(true);
  });
});

describe("Kafka's warm-up: a phase's rounds", () => {
  const rules = { source: settledAfter.toString(), window: 2, fall: 0.9 };

  it('runs rounds in batches until the batches\' medians settle, and keeps every batch\'s median', async () => {
    const times = [50, 40, 30, 20, 10, 10, 10, 10, 10, 10, 10, 10];
    let next = 0;
    const rounds = await roundsUntilSettled(async () => times[next++] ?? 10, 2, 60_000, rules);
    // Batches' medians (the upper of two): 50, 30, 10, … settled once two batches' are no more than 10 % below the two before.
    expect(rounds).toEqual({ rounds: 12, firstMedianMs: 50, lastMedianMs: 10, batchMediansMs: [50, 30, 10, 10, 10, 10], settled: true });
  });

  it("judges a gauge's figure per batch instead of the medians: flat round times go on while the broker's CPU per request still falls", async () => {
    const cpu = [15, 12, 9, 6, 4, 4, 4, 4];
    let batch = -1;
    const gauge = { begin: () => void batch++, end: () => cpu[batch] ?? 4 };
    const rounds = await roundsUntilSettled(async () => 20, 2, 60_000, rules, gauge);
    // The medians were flat from the start (20, 20: settled after two windows); the gauge settles at 4 after 6, 4 … only after 8 batches.
    expect(rounds).toEqual({ rounds: 16, firstMedianMs: 20, lastMedianMs: 20, batchMediansMs: Array(8).fill(20), settled: true, batchGauges: cpu });
  });

  it('falls back to the medians when the gauge cannot be read', async () => {
    const rounds = await roundsUntilSettled(async () => 20, 2, 60_000, rules, { begin: () => undefined, end: () => null });
    expect(rounds).toEqual({ rounds: 8, firstMedianMs: 20, lastMedianMs: 20, batchMediansMs: [20, 20, 20, 20], settled: true, batchGauges: [] });
  });

  it('stops once its bound has passed, recorded as not settled', async () => {
    let ms = 100;
    const round = () => new Promise<number>((resolve) => setTimeout(() => resolve((ms -= 1)), 5));
    const rounds = await roundsUntilSettled(round, 3, 1, rules);
    expect(rounds).toEqual({ rounds: 3, firstMedianMs: 98, lastMedianMs: 98, batchMediansMs: [98], settled: false });
  });
});

describeNeeding("Kafka's warm-up through a real broker", [brokerMissing('kafka')], () => {
  jest.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbx-kafka-warm-'));
  let kafka: Broker | undefined;
  afterAll(async () => {
    await kafka?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('produces and consumes rounds of records until their round trip settles by its own rule, and says what it did', async () => {
    [kafka] = await startBrokers(['kafka'], { dir });
    const warm = await warmKafka(kafka.url, kafka.pid);
    expect(warm.rounds).toBe(warm.batchMediansMs.length * WARM_UP_BATCH);
    expect(warm.records).toBe(warm.rounds * WARM_UP_IN_FLIGHT);
    expect(warm.batchMediansMs.length).toBeGreaterThanOrEqual(warm.settled ? 2 * WARM_UP_WINDOW : 1);
    expect(warm.settled).toBe(settledAfter(warm.batchMediansMs));
    expect([warm.firstMedianMs, warm.lastMedianMs]).toEqual([warm.batchMediansMs[0], warm.batchMediansMs.at(-1)]);
    // Then requests through Nest's own Kafka client and server: one alone and WARM_UP_REQUESTS at once a round, all answered.
    const requests = warm.requests!;
    expect(requests.rounds).toBe(requests.batchMediansMs.length * WARM_UP_BATCH);
    expect(requests.calls).toBe(requests.rounds * (1 + WARM_UP_REQUESTS));
    // Judged on the broker's own CPU per request, read from /proc over each batch.
    expect(requests.brokerCpuPerCallMs).toHaveLength(requests.batchMediansMs.length);
    expect(requests.brokerCpuPerCallMs!.every((ms) => ms >= 0)).toBe(true);
    expect(requests.settled).toBe(settledAfter(requests.brokerCpuPerCallMs!));
    expect([requests.firstMedianMs, requests.lastMedianMs]).toEqual([requests.batchMediansMs[0], requests.batchMediansMs.at(-1)]);
  });
});
