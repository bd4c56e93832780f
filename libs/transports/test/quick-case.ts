import axios from 'axios';
import { HttpService } from '@nestjs/axios';
import { ClientGrpcProxy } from '@nestjs/microservices';
import { BROKER_URL_ENV, DEFAULT_SETTINGS, freePort, type BrokerKind, type Settings } from '@bench/config';
import { samplesJsonLength, verifyReply } from '@bench/samples';
import { describeNeeding, describeWhenGiven, startFakeGrpcServer, startFakeJsonServer, type FakeServer } from '@bench/testing';
import type { RowTransport } from '../src/contract';
import { clientGrpcOptions } from '../src/grpc/options';
import { bareTransports, closeTransports, MICROSERVICE_TRANSPORT_NAMES, nestTransports, type TransportName, type Transports } from '../src/registry';
import { httpAgentFor } from '../src/common/client-lookup';
import { httpsAgentFor } from '../src/common/client-tls';
import { startNestStandIn } from './nest-server';

/** Which client makes the transport: the Nest client as the blog had it or tuned (every tuning), or the bare client. */
export type QuickClient = 'blog' | 'tuned' | 'bare';

/** The quick preset's cases (plan/presets.ts) a transport is run on: one row, 10,000 rows, ten parallel requests of one row. */
const QUICK_CASES = [
  { id: '①-1', rows: 1, requests: 1 },
  { id: '①-2', rows: 10_000, requests: 1 },
  { id: '②-1', rows: 1, requests: 10 },
];
/** The quick preset's calls per visit: a warm-up call, then 3 timed ones. */
const WARMUP = 1;
const RUNS = 3;
const DEADLINE_MS = 5_000;

/**
 * Real servers on loopback: stand-ins for server-a's HTTP/1.1 and h2c listeners and server-b, speaking each
 * protocol in full; for a Nest microservice transport, server-b's binding of it too (nest-server.ts).
 */
interface Servers {
  serverA: FakeServer;
  serverAH2: FakeServer;
  serverB: FakeServer;
  microservices: { close(): Promise<void> } | null;
}

/** The broker URLs a transport's test is given (REDIS_URL, …), from the environment the test runs in. */
export type BrokerUrls = Partial<Settings['microservices']['brokers']>;

async function settingsFor(servers: Omit<Servers, 'microservices'>, client: QuickClient, name: TransportName, brokers: BrokerUrls): Promise<Settings> {
  const variant = client === 'bare' ? DEFAULT_SETTINGS.variant : client;
  const tcpPort = await freePort();
  const microservices = {
    serve: MICROSERVICE_TRANSPORT_NAMES.includes(name) ? [name] : [],
    tcpPort,
    tcpUrl: `127.0.0.1:${tcpPort}`,
    brokers: { ...DEFAULT_SETTINGS.microservices.brokers, ...brokers },
  };
  return { ...DEFAULT_SETTINGS, serverAUrl: servers.serverA.url, serverAH2Url: servers.serverAH2.url, serverBUrl: servers.serverB.url, maxRows: 20_000, maxParallel: 200, variant, microservices };
}

/** The client's transports as apps/client (its HttpModule agents and ClientsModule options) or apps/bare makes them. */
function transportsOf(settings: Settings, client: QuickClient, grpc: ClientGrpcProxy): Transports {
  if (client === 'bare') return bareTransports(settings);
  const http = new HttpService(axios.create({ httpAgent: httpAgentFor(settings), httpsAgent: httpsAgentFor(settings) }));
  return nestTransports({ settings, http, grpc });
}

function expectRows(replies: unknown[], rows: number, requests: number): void {
  expect(replies).toHaveLength(requests);
  for (const reply of replies) expect(verifyReply(reply, rows)).toEqual({ ok: true });
}

/** One visit of a case through the contract, as the case runner makes it: a cold call on a fresh connection, the warm-up, the timed calls. */
async function visit(transport: RowTransport, rows: number, requests: number): Promise<void> {
  const fresh = transport.openFresh();
  try {
    expectRows(await fresh.fetchAll(rows, requests, DEADLINE_MS), rows, requests);
  } finally {
    await fresh.close();
  }
  for (let call = 0; call < WARMUP + RUNS; call++) expectRows(await transport.shared().fetchAll(rows, requests, DEADLINE_MS), rows, requests);
}

/** What a broker at its defaults does to the quick case (describeBrokerQuickCase). */
export interface BrokerDefaults {
  /** The broker refuses a message over this many bytes (NATS max_payload, Kafka message.max.bytes): a reply of more fails with `reason`. */
  refuses?: { overBytes: number; reason: RegExp };
  /**
   * Cases whose parallel requests Nest's client of this broker may lose replies of (a race of its own,
   * docs/apps.md): the call must then end at its deadline with DEADLINE_EXCEEDED, never hang.
   */
  racy?: readonly string[];
  /** A cold call's set-up (Kafka: joining a consumer group) takes seconds: each case's timeout. */
  timeoutMs?: number;
}

/** The case's visit, or for a case the broker refuses, the refusal with the broker's reason on the cold call. */
async function visitThrough(transport: RowTransport, id: string, rows: number, requests: number, defaults: BrokerDefaults): Promise<'replied' | 'refused'> {
  const { refuses, racy = [] } = defaults;
  if (refuses && samplesJsonLength(rows) > refuses.overBytes) {
    const fresh = transport.openFresh();
    await expect(fresh.fetchAll(rows, requests, DEADLINE_MS)).rejects.toThrow(refuses.reason);
    await fresh.close();
    return 'refused';
  }
  if (!racy.includes(id)) return visit(transport, rows, requests).then(() => 'replied');
  await visit(transport, rows, requests).catch((error: Error) => expect(error.message).toMatch(/DEADLINE_EXCEEDED/));
  return 'refused';
}

/**
 * A transport's own test: each of its clients runs the quick preset's cases against real servers, every
 * reply checked, the replies metered (or declared unmeasured) and the server's reading taken; through a
 * broker, what the broker's defaults refuse fails with its reason (BrokerDefaults).
 */
export function describeQuickCase(name: TransportName, clients: readonly QuickClient[], brokers: BrokerUrls = {}, defaults: BrokerDefaults = {}): void {
  describe.each(clients)(`${name}, made by the %s client, on the quick case`, (client) => {
    let servers: Servers;
    let grpc: ClientGrpcProxy;
    let transports: Transports;

    beforeAll(async () => {
      const fakes = { serverA: await startFakeJsonServer(), serverAH2: await startFakeJsonServer('h2c'), serverB: await startFakeGrpcServer() };
      const settings = await settingsFor(fakes, client, name, brokers);
      servers = { ...fakes, microservices: settings.microservices.serve.length > 0 ? await startNestStandIn(settings) : null };
      grpc = new ClientGrpcProxy(clientGrpcOptions(settings).options);
      transports = transportsOf(settings, client, grpc);
    });
    afterAll(async () => {
      await closeTransports(transports);
      grpc.close();
      await Promise.all(Object.values(servers).map((server: Pick<FakeServer, 'close'> | null) => server?.close()));
    });

    it.each(QUICK_CASES)('$id: a cold call, a warm-up and the timed calls, every reply right', async ({ id, rows, requests }) => {
      const transport = transports[name]!;
      expect(transport.name).toBe(name);
      transport.takeReplies();
      if ((await visitThrough(transport, id, rows, requests, defaults)) === 'refused') return;
      const calls = 1 + WARMUP + RUNS;
      const decoded = transport.takeReplies();
      if (transport.unmeasured?.includes('clientDecodeMs')) expect(decoded).toEqual({ messages: 0, bytes: 0, decodeMs: 0 });
      else expect(decoded.messages).toBe(calls * requests);
      expect(await transport.readServerMetrics(false)).toMatchObject({ cpuUserMs: expect.any(Number), peakRssBytes: expect.any(Number) });
    }, defaults.timeoutMs);
  });
}

/** Whether a package resolves from here (a broker's client library Nest loads only when the transport is used). */
function installed(name: string): boolean {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * A broker transport's test: the quick case through a real broker at the URL its variable gives
 * (REDIS_URL, NATS_URL, RABBITMQ_URL, MQTT_URL, KAFKA_BROKERS), with Nest's broker client `clientPackages`
 * installed, the broker at its defaults (`defaults` says what they refuse). Without them the test is
 * skipped saying what is missing, and fails under CI=true (needs.ts).
 */
export function describeBrokerQuickCase(name: TransportName, broker: BrokerKind, clientPackages: readonly string[], defaults: BrokerDefaults = {}): void {
  const variable = BROKER_URL_ENV[broker];
  const url = process.env[variable]?.trim() || null;
  const needs = clientPackages.map((pkg) => (installed(pkg) ? null : `${pkg} (a dependency of Nest 12's ${broker} transport: npm ci)`));
  // Without a broker of the caller's own at the variable, the bench's spec runs the transport through the broker bench:all starts.
  describeWhenGiven(`${name} through ${broker} at ${variable}`, url !== null, 'tools/bench/test/run/run-brokers.spec.ts', () =>
    describeNeeding(`${name} through ${broker}`, needs, () => describeQuickCase(name, ['blog'], { [broker]: url }, defaults)),
  );
}
