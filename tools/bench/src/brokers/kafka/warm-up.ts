// Kafka's broker runs on a JVM that warms up over its first minutes: a Kafka cell measured early in a run
// was ~3× slower than the same cell later (docs/brokers.md, runs 2026-11-29T02-22-23Z and …T02-25-45Z), so
// the ablation's Kafka factors measured the cell's place in the run. Before a run's first timed visit each
// Kafka instance is warmed with untimed round trips (a record produced, then consumed, through KafkaJS as
// Nest's transport uses it) until its round trip settles, judged against its own first rounds.
import { spawn } from 'node:child_process';
import type { KafkaWarmUp } from '../../model';

/** Rounds per batch: the round trip is judged on each batch's median. */
export const WARM_UP_BATCH = 10;
/** Records in flight in one round: enough requests for the broker's JIT to compile its produce and fetch paths within seconds (one record at a time, the round trip is KafkaJS's polling and stays flat while the broker is still cold). */
export const WARM_UP_IN_FLIGHT = 100;
/**
 * Settled: the median of the last WARM_UP_WINDOW batches' medians has stopped falling, no more than
 * WARM_UP_FALL below that of the window before it. A tighter rule (the last 4 batches within 15 % of each
 * other) stopped on a plateau at 22–32 ms a round while the round went on falling to ~7 ms (run
 * 2026-11-29T03-59-25Z and the warm-up alone), so two whole windows are compared.
 */
export const WARM_UP_WINDOW = 8;
export const WARM_UP_FALL = 0.9;
/** The most a warm-up may take (a bound, never the target): a broker still falling then is recorded as not settled. */
export const WARM_UP_BOUND_MS = 120_000;

/** Whether the batch medians so far have settled: the last `window` no more than `fall` below the `window` before. Self-contained: its source runs in warmKafkaOnce. */
export function settledAfter(batchMediansMs: readonly number[], window = WARM_UP_WINDOW, fall = WARM_UP_FALL): boolean {
  if (batchMediansMs.length < 2 * window) return false;
  const medianOf = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return medianOf(batchMediansMs.slice(-window)) >= fall * medianOf(batchMediansMs.slice(-2 * window, -window));
}

/**
 * Self-contained (requires inside, the settle rule passed in as source) so that it runs as `node -e`,
 * here or in the broker's namespace: produces `inFlight` 1 KB records at once, each its own request, and
 * waits for its consumer to receive them all, round after round, until `settled(batchMedians)` or
 * `boundMs`; resolves with what it did.
 */
export async function warmKafkaOnce(kafkajsPath: string, broker: string, batch: number, inFlight: number, boundMs: number, settle: { source: string; window: number; fall: number }): Promise<KafkaWarmUp> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Kafka, logLevel } = require(kafkajsPath) as typeof import('kafkajs');
  const rule = new Function(`return (${settle.source})`)() as (medians: number[], window: number, fall: number) => boolean;
  const settled = (medians: number[]) => rule(medians, settle.window, settle.fall);
  const kafka = new Kafka({ clientId: 'bench-warm-up', brokers: [broker], logLevel: logLevel.NOTHING });
  const topic = 'bench-warm-up';
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }], waitForLeaders: true });
  await admin.disconnect();
  const producer = kafka.producer();
  const consumer = kafka.consumer({ groupId: 'bench-warm-up' });
  await Promise.all([producer.connect(), consumer.connect()]);
  await consumer.subscribe({ topic, fromBeginning: true });
  const waiting = new Map<string, () => void>();
  await consumer.run({ eachMessage: async ({ message }) => waiting.get(String(message.value?.subarray(0, 12)))?.() });
  const value = 'x'.repeat(1024);
  let sent = 0;
  const one = async (): Promise<void> => {
    const id = String(++sent).padStart(12, '0');
    const received = new Promise<void>((resolve) => waiting.set(id, resolve));
    await producer.send({ topic, messages: [{ value: id + value }] });
    await received;
    waiting.delete(id);
  };
  const round = async (records: number): Promise<number> => {
    const start = process.hrtime.bigint();
    await Promise.all(Array.from({ length: records }, one));
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const began = Date.now();
  const joinMs = await round(1); // the consumer's group join: not a round of the warm-up
  const medians: number[] = [];
  let rounds = 0;
  while (!settled(medians) && Date.now() - began < boundMs) {
    const times: number[] = [];
    for (let i = 0; i < batch; i++, rounds++) times.push(await round(inFlight));
    times.sort((a, b) => a - b);
    medians.push(times[Math.floor(times.length / 2)]);
  }
  await Promise.all([consumer.disconnect(), producer.disconnect()]);
  const round2 = (ms: number) => Math.round(ms * 100) / 100;
  return { ms: Date.now() - began, rounds, records: sent - 1, joinMs: round2(joinMs), firstMedianMs: round2(medians[0]), lastMedianMs: round2(medians[medians.length - 1]), batchMediansMs: medians.map(round2), settled: settled(medians) };
}

/** Warms the Kafka broker at `broker` (host:port), here or through `wrap` (into its namespace); rejects with the reason when it cannot. */
export async function warmKafka(broker: string, wrap: (argv: readonly string[]) => string[] = (argv) => [...argv]): Promise<KafkaWarmUp> {
  const source = `(${warmKafkaOnce.toString()})(...JSON.parse(process.argv[1])).then((r) => { process.stdout.write(JSON.stringify(r) + '\\n'); process.exit(0); }, (e) => { process.stderr.write(String(e && e.message || e) + '\\n'); process.exit(1); })`;
  const args = [require.resolve('kafkajs'), broker, WARM_UP_BATCH, WARM_UP_IN_FLIGHT, WARM_UP_BOUND_MS, { source: settledAfter.toString(), window: WARM_UP_WINDOW, fall: WARM_UP_FALL }];
  const [program, ...rest] = wrap([process.execPath, '-e', source, JSON.stringify(args)]);
  return new Promise((resolve, reject) => {
    const child = spawn(program, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), WARM_UP_BOUND_MS + 60_000);
    child.once('error', (error) => reject(error));
    child.once('exit', (code) => {
      clearTimeout(killer);
      if (code === 0) resolve(JSON.parse(out.trim().split('\n').pop()!) as KafkaWarmUp);
      else reject(new Error(`Kafka's warm-up at ${broker} failed: ${err.trim().split('\n').slice(-2).join(' | ') || `exit ${code}`}`));
    });
  });
}
