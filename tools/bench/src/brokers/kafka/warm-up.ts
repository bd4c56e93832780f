// Kafka's broker runs on a JVM that warms up over its first minutes: a Kafka cell measured early in a run
// was ~3× slower than the same cell later (docs/brokers.md, runs 2026-11-29T02-22-23Z and …T02-25-45Z), so
// the ablation's Kafka factors measured the cell's place in the run. Before a run's first timed visit each
// Kafka instance is warmed with untimed round trips until they settle, judged against their own first
// rounds, in two phases: records produced and consumed through KafkaJS (the broker's produce and fetch
// paths), then requests and replies through Nest's own Kafka client and server (what a set of apps sends:
// records with Nest's headers, a request and a reply topic, two consumer groups committing after every
// message). With the first phase alone, the first set of apps on each broker still paid for the broker's
// JIT compiling those other paths during its timed calls (docs/brokers.md, issue #42's order effect). The
// second phase is judged on the broker's own CPU per request, read from /proc: its round time went flat
// within seconds (KafkaJS's polling sets it) while the broker still spent 3× the CPU per request that it
// spends later (runs 2026-11-29T06-26-21Z, …T06-59-50Z).
import { spawn } from 'node:child_process';
import type { KafkaWarmUp } from '../../model';

/** Rounds per batch: the round trip is judged on each batch's median. */
export const WARM_UP_BATCH = 10;
/** Records in flight in one round: enough requests for the broker's JIT to compile its produce and fetch paths within seconds (one record at a time, the round trip is KafkaJS's polling and stays flat while the broker is still cold). */
export const WARM_UP_IN_FLIGHT = 100;
/** Requests at once in a round of the Nest phase, after one request alone: ②-1's ten parallel requests, and ①-1's one. */
export const WARM_UP_REQUESTS = 10;
/**
 * Settled: the median of the last WARM_UP_WINDOW batches' medians has stopped falling, no more than
 * WARM_UP_FALL below that of the window before it. A tighter rule (the last 4 batches within 15 % of each
 * other) stopped on a plateau at 22–32 ms a round while the round went on falling to ~7 ms (run
 * 2026-11-29T03-59-25Z and the warm-up alone), so two whole windows are compared.
 */
export const WARM_UP_WINDOW = 8;
export const WARM_UP_FALL = 0.9;
/** The most each phase of a warm-up may take (a bound, never the target): a broker still falling then is recorded as not settled. */
export const WARM_UP_BOUND_MS = 120_000;

/** Whether the batch medians so far have settled: the last `window` no more than `fall` below the `window` before. Self-contained: its source runs in the phases. */
export function settledAfter(batchMediansMs: readonly number[], window = WARM_UP_WINDOW, fall = WARM_UP_FALL): boolean {
  if (batchMediansMs.length < 2 * window) return false;
  const medianOf = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return medianOf(batchMediansMs.slice(-window)) >= fall * medianOf(batchMediansMs.slice(-2 * window, -window));
}

/** What a phase's rounds took: their count, their batches' medians (the first, the last, every one), whether they settled, and each batch's gauge where one judged them. */
export type WarmUpRounds = Pick<KafkaWarmUp, 'rounds' | 'firstMedianMs' | 'lastMedianMs' | 'batchMediansMs' | 'settled'> & { batchGauges?: number[] };

/** A batch's figure other than its rounds' median (the broker's CPU per request): read around each batch; null when it cannot be read (the rounds' medians judge then). */
export interface BatchGauge {
  begin(): void;
  end(): number | null;
}

/** How a phase runs and judges its rounds, as the self-contained phases get it: roundsUntilSettled's and settledAfter's sources, and the rule's window and fall. */
export interface WarmUpRules {
  until: string;
  source: string;
  window: number;
  fall: number;
}

/**
 * Rounds in batches of `batch`, each batch's median kept, until the settle rule says so or `boundMs` has
 * passed; with a `gauge`, the rule judges its figure per batch (while every batch has one) instead of the
 * medians. Self-contained: its source runs in the phases.
 */
export async function roundsUntilSettled(round: () => Promise<number>, batch: number, boundMs: number, settle: Omit<WarmUpRules, 'until'>, gauge?: BatchGauge): Promise<WarmUpRounds> {
  const rule = new Function(`return (${settle.source})`)() as (medians: number[], window: number, fall: number) => boolean;
  const began = Date.now();
  const medians: number[] = [];
  const gauges: number[] = [];
  const judged = () => (gauge && gauges.length === medians.length ? gauges : medians);
  let rounds = 0;
  while (!rule(judged(), settle.window, settle.fall) && Date.now() - began < boundMs) {
    const times: number[] = [];
    gauge?.begin();
    for (let i = 0; i < batch; i++, rounds++) times.push(await round());
    const figure = gauge?.end() ?? null;
    if (figure !== null) gauges.push(figure);
    times.sort((a, b) => a - b);
    medians.push(times[Math.floor(times.length / 2)]);
  }
  const round2 = (ms: number) => Math.round(ms * 100) / 100;
  const settled = rule(judged(), settle.window, settle.fall);
  return { rounds, firstMedianMs: round2(medians[0]), lastMedianMs: round2(medians[medians.length - 1]), batchMediansMs: medians.map(round2), settled, ...(gauge ? { batchGauges: gauges.map(round2) } : {}) };
}

/**
 * Self-contained (requires inside, the rounds' loop and settle rule passed in as source) so that it runs
 * as `node -e`, here or in the broker's namespace: produces `inFlight` 1 KB records at once, each its own
 * request, and waits for its consumer to receive them all, round after round, until they settle or
 * `boundMs`; resolves with what it did.
 */
export async function warmKafkaOnce(kafkajsPath: string, broker: string, batch: number, inFlight: number, boundMs: number, settle: WarmUpRules): Promise<Omit<KafkaWarmUp, 'requests'>> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Kafka, logLevel } = require(kafkajsPath) as typeof import('kafkajs');
  const until = new Function(`return (${settle.until})`)() as typeof roundsUntilSettled;
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
  const rounds = await until(() => round(inFlight), batch, boundMs, settle);
  await Promise.all([consumer.disconnect(), producer.disconnect()]);
  return { ...rounds, ms: Date.now() - began, records: sent - 1, joinMs: Math.round(joinMs * 100) / 100 };
}

/**
 * Self-contained as warmKafkaOnce is: a Nest Kafka server answering a pattern and a Nest Kafka client
 * calling it (Nest's ServerKafka and ClientKafka from `nestPath` on KafkaJS at `kafkajsPath`, in their own
 * consumer groups, `bench-warm-up-server` and `bench-warm-up-client`), round after round of one request
 * alone then `requests` at once, until the broker's CPU per request (process `brokerPid`'s user + system
 * time from /proc over each batch) settles by the same rule, or `boundMs`; without a readable broker
 * process, until the rounds' time does. Resolves with what it did.
 */
export async function warmNestOnce(nestPath: string, kafkajsPath: string, broker: string, batch: number, requests: number, boundMs: number, settle: WarmUpRules, brokerPid: number | null): Promise<NonNullable<KafkaWarmUp['requests']>> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { ClientKafka, ServerKafka } = require(nestPath) as typeof import('@nestjs/microservices');
  const { logLevel } = require(kafkajsPath) as typeof import('kafkajs');
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  /* eslint-enable @typescript-eslint/no-require-imports */
  // user + system ticks (fields 14 and 15, after the command's closing parenthesis) at Linux's USER_HZ of 100.
  const brokerCpuMs = (): number | null => {
    try {
      const stat = readFileSync(`/proc/${brokerPid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return null;
    }
  };
  const until = new Function(`return (${settle.until})`)() as typeof roundsUntilSettled;
  const pattern = 'bench-warm-up.requests';
  const options = { client: { clientId: 'bench-warm-up', brokers: [broker], logLevel: logLevel.NOTHING }, consumer: { groupId: 'bench-warm-up' } };
  const server = new ServerKafka(options);
  server.addHandler(pattern, async (data: { count: number }) => ({ samples: Array.from({ length: data.count }, (_, id) => ({ id, title: 'warm-up', body: 'x'.repeat(200) })) }), false);
  const admin = (await server.createClient()).admin();
  await admin.connect();
  // Made before Nest subscribes: auto-creation would end its listen (as server-b's nest-kafka binding says).
  await admin.createTopics({ topics: [pattern, `${pattern}.reply`].map((topic) => ({ topic, numPartitions: 1, replicationFactor: 1 })), waitForLeaders: true });
  await admin.disconnect();
  await new Promise<void>((resolve, reject) => server.listen((error?: unknown) => (error ? reject(error) : resolve())));
  const client = new ClientKafka(options);
  client.subscribeToResponseOf(pattern);
  await client.connect();
  let calls = 0;
  const call = () => new Promise<unknown>((resolve, reject) => client.send(pattern, { count: 1 }).subscribe({ next: (reply) => resolve((calls++, reply)), error: reject }));
  const round = async (): Promise<number> => {
    const start = process.hrtime.bigint();
    await call();
    await Promise.all(Array.from({ length: requests }, call));
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  let mark: { cpuMs: number | null; calls: number } = { cpuMs: null, calls: 0 };
  const gauge = {
    begin: () => void (mark = { cpuMs: brokerCpuMs(), calls }),
    end: () => {
      const cpuMs = brokerCpuMs();
      return cpuMs === null || mark.cpuMs === null || calls === mark.calls ? null : (cpuMs - mark.cpuMs) / (calls - mark.calls);
    },
  };
  const began = Date.now();
  await call(); // the first reply waits for the consumers' group joins: not a round
  const joinMs = Date.now() - began;
  const { batchGauges, ...rounds } = await until(round, batch, boundMs, settle, brokerPid === null ? undefined : gauge);
  await client.close();
  await server.close();
  const judgedOnCpu = batchGauges !== undefined && batchGauges.length === rounds.batchMediansMs.length && batchGauges.length > 0;
  return { ...rounds, ms: Date.now() - began, calls: calls - 1, joinMs, ...(judgedOnCpu ? { brokerCpuPerCallMs: batchGauges } : {}) };
}

/** The warm-up child's program: both phases in turn, what they did as one JSON line on stdout, or the reason on stderr. */
function warmUpProgram(): string {
  const done = `(r) => { process.stdout.write(JSON.stringify(r) + '\\n'); process.exit(0); }`;
  const failed = `(e) => { process.stderr.write(String(e && e.message || e) + '\\n'); process.exit(1); }`;
  const [kafkajs, nest] = [`(${warmKafkaOnce.toString()})`, `(${warmNestOnce.toString()})`];
  return `const [records, requests] = JSON.parse(process.argv[1]); ${kafkajs}(...records).then(async (warm) => ({ ...warm, requests: await ${nest}(...requests) })).then(${done}, ${failed})`;
}

/** Warms the Kafka broker at `broker` (host:port), process `brokerPid`, here or through `wrap` (into its namespace); rejects with the reason when it cannot. */
export async function warmKafka(broker: string, brokerPid: number | null, wrap: (argv: readonly string[]) => string[] = (argv) => [...argv]): Promise<KafkaWarmUp> {
  const rules: WarmUpRules = { until: roundsUntilSettled.toString(), source: settledAfter.toString(), window: WARM_UP_WINDOW, fall: WARM_UP_FALL };
  const kafkajs = require.resolve('kafkajs');
  const records = [kafkajs, broker, WARM_UP_BATCH, WARM_UP_IN_FLIGHT, WARM_UP_BOUND_MS, rules];
  const requests = [require.resolve('@nestjs/microservices'), kafkajs, broker, WARM_UP_BATCH, WARM_UP_REQUESTS, WARM_UP_BOUND_MS, rules, brokerPid];
  const [program, ...rest] = wrap([process.execPath, '-e', warmUpProgram(), JSON.stringify([records, requests])]);
  return new Promise((resolve, reject) => {
    const child = spawn(program, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 2 * WARM_UP_BOUND_MS + 60_000);
    child.once('error', (error) => reject(error));
    child.once('exit', (code) => {
      clearTimeout(killer);
      if (code === 0) resolve(JSON.parse(out.trim().split('\n').pop()!) as KafkaWarmUp);
      else reject(new Error(`Kafka's warm-up at ${broker} failed: ${err.trim().split('\n').slice(-2).join(' | ') || `exit ${code}`}`));
    });
  });
}
