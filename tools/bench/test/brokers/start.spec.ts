// Each real broker, as a run starts it: it answers, carries a message from one client to another
// (with its own command-line tools, or its protocol by hand), its counters move by what was sent, and
// stop() leaves no process and no file. Needs the brokers installed (`bench:brokers -- install`).
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { BROKER_KINDS, brokerMissing, countersBetween, startBrokers, type Broker, type BrokerCounters, type BrokerKind } from '../../src/brokers';
import { cachedJars, classpathOf } from '../../src/brokers/maven';
import { isOurs } from '../../src/brokers/proc';
import { describeNeeding } from '../needs';

jest.setTimeout(180_000);

/** Sends `send` on a fresh connection and resolves with everything received once `until` matches. */
function exchange(port: number, steps: { send: string; until: RegExp }[], host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let received = '';
    let step = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no ${steps[step]?.until} in ${JSON.stringify(received)}`));
    }, 15_000);
    const next = () => {
      if (step === steps.length) {
        clearTimeout(timer);
        socket.destroy();
        return resolve(received);
      }
      socket.write(steps[step].send);
    };
    socket.on('connect', next);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      while (step < steps.length && steps[step].until.test(received)) {
        step += 1;
        next();
      }
    });
    socket.on('error', reject);
  });
}

/** Reads the counters until `ok` holds (RabbitMQ's bytes are published each second), at most 10 s. */
async function countersAfter(broker: Broker, before: BrokerCounters, ok: (delta: BrokerCounters) => boolean): Promise<BrokerCounters> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const delta = countersBetween(before, await broker.counters());
    if (ok(delta) || Date.now() > deadline) return delta;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const ROUND_TRIPS: Record<BrokerKind, (broker: Broker) => Promise<string>> = {
  // The NATS protocol by hand: subscribe, publish, receive the MSG.
  nats: (b) => exchange(b.address.port, [{ send: 'CONNECT {"verbose":false}\r\nSUB bench.x 1\r\nPING\r\n', until: /PONG/ }, { send: 'PUB bench.x 5\r\nhello\r\nPING\r\n', until: /MSG bench\.x 1 5\r\nhello/ }]),
  // RESP by hand for the subscriber, redis-cli for the publisher.
  redis: async (b) => {
    const subscriber = exchange(b.address.port, [{ send: 'SUBSCRIBE bench.x\r\n', until: /subscribe/ }, { send: '', until: /message\r\n\$7\r\nbench\.x\r\n\$5\r\nhello/ }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    execFileSync('redis-cli', ['-h', b.address.host, '-p', String(b.address.port), 'PUBLISH', 'bench.x', 'hello']);
    return subscriber;
  },
  // mosquitto_pub every 200 ms (not retained: $SYS counts no retained publish) until mosquitto_sub has one.
  mosquitto: (b) => {
    const at = ['-h', b.address.host, '-p', String(b.address.port)];
    const subscriber = spawn('mosquitto_sub', [...at, '-t', 'bench/x', '-C', '1', '-W', '20'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    subscriber.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const publisher = setInterval(() => spawn('mosquitto_pub', [...at, '-t', 'bench/x', '-m', 'hello'], { stdio: 'ignore' }), 200);
    return new Promise((resolve, reject) => {
      subscriber.once('error', reject);
      subscriber.once('close', () => {
        clearInterval(publisher);
        resolve(out);
      });
    });
  },
  // The management API (rabbitmqadmin's): declare a queue, publish to it, get the message back.
  rabbitmq: (b) => {
    const api = (method: string, route: string, body: object) =>
      execFileSync('curl', ['-sf', '-u', 'guest:guest', '-X', method, '-H', 'content-type: application/json', '-d', JSON.stringify(body), `http://${b.address.host}:${b.config.managementPort}/api/${route}`], { encoding: 'utf8' });
    api('PUT', 'queues/%2F/bench.x', { durable: false });
    api('POST', 'exchanges/%2F/amq.default/publish', { properties: {}, routing_key: 'bench.x', payload: 'hello', payload_encoding: 'string' });
    return Promise.resolve(api('POST', 'queues/%2F/bench.x/get', { count: 1, ackmode: 'ack_requeue_false', encoding: 'auto' }));
  },
  // Kafka's console producer and consumer, from the jars.
  kafka: (b) => {
    const cp = classpathOf(cachedJars('4.1.1')!);
    const server = `${b.address.host}:${b.address.port}`;
    execFileSync('java', ['-cp', cp, 'org.apache.kafka.tools.ConsoleProducer', '--bootstrap-server', server, '--topic', 'bench.x'], { input: 'hello\n', stdio: ['pipe', 'ignore', 'ignore'] });
    return Promise.resolve(execFileSync('java', ['-cp', cp, 'org.apache.kafka.tools.consumer.ConsoleConsumer', '--bootstrap-server', server, '--topic', 'bench.x', '--partition', '0', '--offset', 'earliest', '--max-messages', '1', '--timeout-ms', '60000'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  },
};

/** What one "hello" must at least move, per broker (null: the broker does not count it). */
function expectMoved(kind: BrokerKind, delta: BrokerCounters): void {
  expect(delta.messagesIn).toBeGreaterThanOrEqual(1);
  if (kind === 'nats' || kind === 'mosquitto' || kind === 'rabbitmq') expect(delta.messagesOut).toBeGreaterThanOrEqual(1);
  else expect(delta.messagesOut).toBeNull();
  // RabbitMQ's management API publishes over an in-VM connection: no socket bytes to count.
  if (kind !== 'rabbitmq') {
    expect(delta.bytesIn).toBeGreaterThanOrEqual(5);
    expect(delta.bytesOut).toBeGreaterThanOrEqual(5);
  }
}

describeNeeding('real brokers, started as a run starts them', BROKER_KINDS.map(brokerMissing), () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'broker-spec-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each(BROKER_KINDS)('%s answers, carries a message, counts it, and stop() leaves nothing', async (kind) => {
    const [broker] = await startBrokers([kind], { dir });
    try {
      expect(broker.version).toBe({ nats: '2.9.10', redis: '7.0.15', rabbitmq: '3.10.8', mosquitto: '2.0.11', kafka: '4.1.1' }[kind]);
      // What a Nest client takes: a URL with its scheme, or for Kafka the host:port list kafkajs takes.
      expect(broker.url).toMatch(new RegExp(`^${kind === 'kafka' ? '' : '[a-z]+://'}127\\.0\\.0\\.1:${broker.address.port}$`));
      const before = await broker.counters();
      expect(await ROUND_TRIPS[kind](broker)).toContain('hello');
      expectMoved(kind, await countersAfter(broker, before, (d) => (d.messagesIn ?? 0) >= 1 && (d.messagesOut === null || d.messagesOut >= 1)));
      const sample = broker.sample(true);
      expect(sample.cpuUserMs + sample.cpuSystemMs).toBeGreaterThanOrEqual(0);
      // Its threads' run time to the nanosecond: starting it cost some.
      expect(sample.cpuMs).toBeGreaterThan(0);
      expect(sample.rssBytes).toBeGreaterThan(0);
      expect(sample.peakRssBytes).toBeGreaterThanOrEqual(sample.rssBytes);
    } finally {
      await broker.stop();
    }
    expect(isOurs(broker.pid, null)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('a missing broker', () => {
  it('fails at start with the install command', async () => {
    const definition = await import('../../src/brokers/registry');
    const spy = jest.spyOn(definition.brokerDefinition('nats'), 'installation').mockReturnValue(null);
    try {
      await expect(startBrokers(['nats'], { dir: os.tmpdir() })).rejects.toThrow('npx nx run bench:brokers -- install');
    } finally {
      spy.mockRestore();
    }
  });
});
