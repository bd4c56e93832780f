// Bad input and faults through real brokers, bounded as the HTTP transports are (issue 31's rules,
// docs/reliability.md): the built server-b serving Nest's five broker transports at the brokers' defaults,
// called by a ClientProxy of each as any Nest caller would make it. A malformed message gets an error
// reply naming the field, an unknown pattern an error or the caller's deadline, a reply over the
// broker's limit an error reply with the broker's reason, a reply past its deadline DEADLINE_EXCEEDED; a
// caller that disconnects, and a broker killed under server-b, cost nothing else: server-b keeps
// serving the other transports. Needs the brokers installed and the apps built.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ClientProxyFactory, Transport, type ClientKafka, type ClientOptions, type ClientProxy } from '@nestjs/microservices';
import { lastValueFrom, throwError, timeout } from 'rxjs';
import { BROKER_KINDS, type BrokerKind } from '@bench/config';
import { verifyReply } from '@bench/samples';
import { SAMPLES_PATTERN } from '@bench/transports';
import { brokerMissing, startBrokers, type Broker } from '../src/brokers';
import { startApps, type StartedApps } from '../src/run/apps';
import { planPinning } from '../src/run/pinning';
import { VARIANTS } from '../src/plan/variants';
import { describeNeeding } from './needs';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '../../..');
const SERVER_B = path.join(ROOT, 'apps/server-b/dist/main.js');
const TRANSPORT_OF: Record<BrokerKind, string> = { redis: 'nest-redis', nats: 'nest-nats', rabbitmq: 'nest-rmq', mosquitto: 'nest-mqtt', kafka: 'nest-kafka' };
/** How long a caller here waits for any reply: the deadline its call would carry. */
const WAIT_MS = 4_000;

type Outcome = { reply: unknown; error?: undefined } | { error: unknown; reply?: undefined };

/** One ClientProxy.send, given up at `waitMs` as the bench's client gives up a call at its deadline. */
async function call(client: ClientProxy, pattern: string, data: unknown, waitMs = WAIT_MS): Promise<Outcome> {
  try {
    const reply = await lastValueFrom(client.send(pattern, data).pipe(timeout({ first: waitMs, with: () => throwError(() => new Error(`DEADLINE_EXCEEDED after ${waitMs} ms`)) })));
    return { reply };
  } catch (error) {
    return { error };
  }
}

const text = (error: unknown): string => (error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error));

let callers = 0;

/** A Nest caller's options for `broker`'s transport, in the set's namespace (its patterns and RabbitMQ queue), as any Nest app would make them. */
function optionsOf(broker: Broker, namespace: string): ClientOptions {
  const id = `faults-${process.pid}-${++callers}`;
  const options: Record<BrokerKind, ClientOptions> = {
    // The test's own caller reconnects (Nest's default gives up at the first close). Every caller subscribes to one
    // replies channel, so a large reply to another caller (the killed one below) reaches this one too, and Redis cuts
    // a subscriber off once 32 MB wait unsent (client-output-buffer-limit pubsub, the redis-pubsub-buffer tuning):
    // without reconnecting, every later Redis case failed with "Connection is closed" (seen in CI).
    redis: { transport: Transport.REDIS, options: { host: broker.address.host, port: broker.address.port, retryAttempts: 20, retryDelay: 250 } },
    nats: { transport: Transport.NATS, options: { servers: [broker.url] } },
    rabbitmq: { transport: Transport.RMQ, options: { urls: [broker.url], queue: `${namespace}.default` } },
    mosquitto: { transport: Transport.MQTT, options: { url: broker.url } },
    kafka: { transport: Transport.KAFKA, options: { client: { clientId: id, brokers: [broker.url] }, consumer: { groupId: id } } },
  };
  return options[broker.kind];
}

/** A Nest caller of `broker`'s transport (Kafka's subscribed to the replies of `patterns`). */
function callerOf(broker: Broker, namespace: string, patterns: readonly string[]): ClientProxy {
  const client = ClientProxyFactory.create(optionsOf(broker, namespace));
  if (broker.kind === 'kafka') for (const pattern of patterns) (client as ClientKafka).subscribeToResponseOf(pattern);
  return client;
}

/**
 * A caller in a process of its own that sends a large request and says so, to be killed in the middle of
 * the call: the connection ends as when a caller crashes or its pod goes, with no goodbye to the broker.
 */
function leavingCaller(broker: Broker, namespace: string, pattern: string): { sent: Promise<void>; child: ChildProcess } {
  const script = [
    "import('@nestjs/microservices').then(async ({ ClientProxyFactory }) => {",
    `  const client = ClientProxyFactory.create(${JSON.stringify(optionsOf(broker, namespace))});`,
    broker.kind === 'kafka' ? `  client.subscribeToResponseOf(${JSON.stringify(pattern)});` : '',
    '  await client.connect();',
    `  client.send(${JSON.stringify(pattern)}, { count: 200000, deadlineMs: 10000 }).subscribe({ error() {} });`,
    "  setTimeout(() => process.stdout.write('sent\\n'), 100);",
    '});',
  ].join('\n');
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  const sent = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('sent') && resolve());
    child.once('exit', (code) => reject(new Error(`the leaving caller exited (code ${code}) before it sent`)));
  });
  return { sent, child };
}

/** What an unknown pattern gets through each broker: no subscriber means no reply, so the caller's deadline ends it there. */
const UNKNOWN_PATTERN: Record<BrokerKind, RegExp> = {
  redis: /DEADLINE_EXCEEDED/,
  mosquitto: /DEADLINE_EXCEEDED/,
  // NATS answers a request nobody subscribes to with "no responders"; Nest reports the empty reply.
  nats: /no subscribers|Empty response/i,
  // server-b consumes the set's queue whatever the pattern, and answers with Nest's own error.
  rabbitmq: /no matching message handler/,
  // Nest's Kafka client refuses a pattern whose reply topic it did not subscribe to, before sending.
  kafka: /did not subscribe/,
};

/** What each broker at its defaults does with a reply over its limit: the limit and the reason the caller gets. */
const OVER_LIMIT: Partial<Record<BrokerKind, { rows: number; reason: RegExp }>> = {
  nats: { rows: 10_000, reason: /NATS refused the reply: .*max_payload/ },
  kafka: { rows: 10_000, reason: /Kafka refused the reply: .*larger than the max message size/ },
  // 520,000 rows are a ~144 MB reply, over RabbitMQ's max_message_size of 128 MiB.
  rabbitmq: { rows: 520_000, reason: /RabbitMQ refused the reply: .*larger than configured max size/ },
  // 1,000,000 rows are ①-3's 276.8 MB reply, more than an MQTT packet can say (268,435,455 bytes).
  mosquitto: { rows: 1_000_000, reason: /MQTT refused the reply: Invalid variable byte integer: \d+/ },
};

const serverBBuilt = fs.existsSync(SERVER_B) ? null : 'the built apps (npx nx run-many -t build)';

describeNeeding('bad input and faults through real brokers, at their defaults', [...BROKER_KINDS.map(brokerMissing), serverBBuilt], () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbx-faults-'));
  let brokers: Broker[] = [];
  let apps: StartedApps;
  let namespace: string;
  let pattern: string;
  const clients = new Map<BrokerKind, ClientProxy>();
  const unknown = () => `${namespace}.sample.NoSuchMethod`;

  beforeAll(async () => {
    brokers = await startBrokers(BROKER_KINDS, { dir: path.join(dir, 'brokers') });
    const brokerEnv = Object.fromEntries(brokers.map((b) => [{ redis: 'REDIS_URL', nats: 'NATS_URL', rabbitmq: 'RABBITMQ_URL', mosquitto: 'MQTT_URL', kafka: 'KAFKA_BROKERS' }[b.kind], b.url]));
    const blog = VARIANTS.find((v) => v.id === 'blog')!;
    apps = await startApps(ROOT, path.join(dir, 'logs'), planPinning(false, os.cpus().length, false), blog, { microservices: ['nest-tcp', ...brokers.map((b) => TRANSPORT_OF[b.kind])], brokerEnv });
    namespace = `bench${process.pid}-set0`;
    pattern = `${namespace}.${SAMPLES_PATTERN}`;
    for (const broker of brokers) clients.set(broker.kind, callerOf(broker, namespace, [pattern]));
  }, 170_000);

  afterAll(async () => {
    await Promise.all([...clients.values()].map((c) => c.close()));
    await apps?.stop();
    for (const broker of brokers) await broker.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const through = (kind: BrokerKind) => clients.get(kind)!;
  const answers = async (kind: BrokerKind, rows = 3) => expect(verifyReply((await call(through(kind), pattern, { count: rows, deadlineMs: WAIT_MS })).reply, rows)).toEqual({ ok: true });

  it.each(BROKER_KINDS)('%s: answers a malformed message with INVALID_ARGUMENT naming the field, and keeps serving', async (kind) => {
    // A cold Kafka caller first joins its group: its first call may take seconds.
    if (kind === 'kafka') await call(through(kind), pattern, { count: 1, deadlineMs: 30_000 }, 30_000);
    await answers(kind);
    for (const [data, rule] of [
      ['hello', 'message: type'],
      [{ deadlineMs: 1_000 }, 'count: required'],
      [{ count: -1, deadlineMs: 1_000 }, 'count: min'],
      [{ count: 1 }, 'deadlineMs: required'],
    ] as const) {
      const { error } = await call(through(kind), pattern, data);
      expect({ data, error }).toMatchObject({ data, error: { code: 3, message: expect.stringContaining(`[${rule}]`) } });
    }
    await answers(kind);
  });

  it.each(BROKER_KINDS)('%s: ends a call to an unknown pattern with an error or at the caller’s deadline, and keeps serving', async (kind) => {
    const { error } = await call(through(kind), unknown(), { count: 1, deadlineMs: 1_000 });
    expect(text(error)).toMatch(UNKNOWN_PATTERN[kind]);
    await answers(kind);
  });

  it.each(Object.keys(OVER_LIMIT) as BrokerKind[])('%s: answers a reply over the broker’s limit with an error reply carrying the broker’s reason, and keeps serving', async (kind) => {
    const { rows, reason } = OVER_LIMIT[kind]!;
    const { error } = await call(through(kind), pattern, { count: rows, deadlineMs: 60_000 }, 60_000);
    expect(error).toMatchObject({ code: 8, message: expect.stringMatching(reason) });
    await answers(kind);
    expect(apps.death()).toBeNull();
  });

  it.each(BROKER_KINDS)('%s: gives up a large reply once its deadline has passed, answering DEADLINE_EXCEEDED', async (kind) => {
    const { error } = await call(through(kind), pattern, { count: 1_000_000, deadlineMs: 1 }, 10_000);
    expect(error).toMatchObject({ code: 4, message: expect.stringContaining('DEADLINE_EXCEEDED') });
    await answers(kind);
  });

  it.each(BROKER_KINDS)('%s: a caller killed in the middle of a call costs nothing else', async (kind) => {
    const broker = brokers.find((b) => b.kind === kind)!;
    const { sent, child } = leavingCaller(broker, namespace, pattern);
    try {
      await sent;
    } finally {
      child.kill('SIGKILL');
    }
    // Redis may cut this caller off while it delivers the killed caller's large reply (above): one call may fail
    // with the connection, the caller reconnects, and the next ones are answered.
    if (kind === 'redis') await call(through(kind), pattern, { count: 3, deadlineMs: WAIT_MS });
    await answers(kind);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await answers(kind);
    expect(apps.death()).toBeNull();
  });

  it('a broker killed under server-b fails the calls through it with the reason, and nothing else', async () => {
    const redis = brokers.find((b) => b.kind === 'redis')!;
    process.kill(redis.pid, 'SIGKILL');
    for (let waited = 0; redis.exited() === null && waited < 5_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(redis.exited()).toBe('killed by SIGKILL');
    const { error } = await call(through('redis'), pattern, { count: 1, deadlineMs: 1_000 }, 2_000);
    expect(text(error)).toMatch(/DEADLINE_EXCEEDED|ECONNREFUSED|Connection is closed|Connection lost/);
    for (const kind of BROKER_KINDS.filter((k) => k !== 'redis')) await answers(kind);
    expect(apps.death()).toBeNull();
  });
});
