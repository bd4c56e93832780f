import type { MicroserviceOptions } from '@nestjs/microservices';
import type { BrokerKind, Settings } from '@bench/config';
import { CONNECT_GRPC } from './connect-grpc';
import { CONNECT_JSON } from './connect-json';
import { CONNECT_PROTO } from './connect-proto';
import type { Caller, NestClientContext, RowTransport, TransportDefinition } from './contract';
import { GRPC_TRANSPORT } from './grpc';
import { JSON_TRANSPORT } from './json';
import { JSON_H2 } from './json-h2';
import { NEST_KAFKA } from './nest-kafka';
import { NEST_MQTT } from './nest-mqtt';
import { NEST_NATS } from './nest-nats';
import { NEST_REDIS } from './nest-redis';
import { NEST_RMQ } from './nest-rmq';
import { NEST_TCP } from './nest-tcp';
import { PROTO_H1 } from './proto-h1';

/**
 * Every transport a client may serve, one line each (a folder beside this file makes it): `json`
 * (HTTP/1.1 + JSON) and `grpc` (HTTP/2 + protobuf) are the blog's; `json-h2` (the same JSON over HTTP/2
 * cleartext) and `proto-h1` (the same rows as application/x-protobuf over HTTP/1.1) complete the
 * protocol × codec matrix; `connect-json`, `connect-proto` and `connect-grpc` are connect-es's Connect
 * protocol (JSON, binary) and gRPC protocol, a second library on the same wire (docs/decomposition.md);
 * `nest-*` are Nest's microservice transports (ClientProxy.send() to server-b's @MessagePattern, a
 * broker between where the registration names one). The order is the order reports list them in.
 */
const REGISTRY = {
  json: JSON_TRANSPORT,
  grpc: GRPC_TRANSPORT,
  'json-h2': JSON_H2,
  'proto-h1': PROTO_H1,
  'connect-json': CONNECT_JSON,
  'connect-proto': CONNECT_PROTO,
  'connect-grpc': CONNECT_GRPC,
  'nest-tcp': NEST_TCP,
  'nest-redis': NEST_REDIS,
  'nest-nats': NEST_NATS,
  'nest-rmq': NEST_RMQ,
  'nest-mqtt': NEST_MQTT,
  'nest-kafka': NEST_KAFKA,
} satisfies Record<string, TransportDefinition>;

export type TransportName = keyof typeof REGISTRY;

/** Every registered transport's name, in the registry's order. */
export const TRANSPORT_NAMES = Object.freeze(Object.keys(REGISTRY) as TransportName[]);

/** The blog's two transports: what every client serves, and what the bench runs unless told otherwise. */
export const BLOG_TRANSPORT_NAMES: readonly TransportName[] = ['json', 'grpc'];

/** The transports one client serves, by name. */
export type Transports = Readonly<Partial<Record<TransportName, RowTransport>>>;

/** The Nest client's transports: every registered one. */
export function nestTransports(context: NestClientContext): Transports {
  return Object.fromEntries(TRANSPORT_NAMES.map((name) => [name, REGISTRY[name].nest(context)]));
}

/** The bare client's transports: those registered with a bare maker (the blog's two). */
export function bareTransports(settings: Settings): Transports {
  const definitions: [TransportName, TransportDefinition][] = Object.entries(REGISTRY) as [TransportName, TransportDefinition][];
  return Object.fromEntries(definitions.flatMap(([name, definition]) => (definition.bare ? [[name, definition.bare(settings)]] : [])));
}

/** Closes every transport of a client that keeps something open (Nest calls this on shutdown). */
export async function closeTransports(transports: Transports): Promise<void> {
  await Promise.all(Object.values(transports).map((transport) => transport?.close?.()));
}

/** The transports server-b serves through a Nest microservice binding of their own (the folder's server.ts). */
export const MICROSERVICE_TRANSPORT_NAMES: readonly TransportName[] = Object.freeze(TRANSPORT_NAMES.filter((name) => definitionOf(name).server !== undefined));

function definitionOf(name: TransportName): TransportDefinition {
  return REGISTRY[name];
}

/**
 * server-b's microservice bindings for the transports its settings name (SERVER_B_MICROSERVICES), in that
 * order; a name that is not a microservice transport is an error naming those that are.
 */
export function microserviceBindings(settings: Settings): { name: TransportName; options: MicroserviceOptions }[] {
  return settings.microservices.serve.map((name) => {
    const definition = (REGISTRY as Record<string, TransportDefinition | undefined>)[name];
    if (definition?.server === undefined) {
      throw new Error(`SERVER_B_MICROSERVICES names ${JSON.stringify(name)}, which is not one of ${MICROSERVICE_TRANSPORT_NAMES.join(', ')}`);
    }
    return { name: name as TransportName, options: definition.server(settings) };
  });
}

/** The brokers the given transports go through (each once, in registry order): what a run must start before their calls. */
export function brokersOf(transports: readonly TransportName[]): BrokerKind[] {
  const kinds = TRANSPORT_NAMES.filter((name) => transports.includes(name)).flatMap((name) => (definitionOf(name).broker ? [definitionOf(name).broker!] : []));
  return [...new Set(kinds)];
}

/** The Nest client's context for a transport made outside the client (a suite's caller): neither Nest's HTTP nor its gRPC client is there. */
function callerContext(settings: Settings, name: TransportName): NestClientContext {
  const absent = (what: string) => () => {
    throw new Error(`${name}'s suite caller has no ${what}: a suite reads server-b's metrics itself`);
  };
  return { settings, http: { get: absent('HTTP client') } as unknown as NestClientContext['http'], grpc: { getService: absent('gRPC client'), getClientByServiceName: absent('gRPC client') } };
}

/** Calls `connect()` makes at most before it gives up. */
const CONNECT_ATTEMPTS = 6;

/**
 * A suite's caller of a Nest microservice transport (nest-tcp, nest-redis, …): the Nest client's own
 * transport, so ClientProxy.send() of the samples pattern with the same options, one request of `rows`
 * rows per call, each reply checked to hold that many rows. Its shared connection is made on the first
 * call; `connect()` makes calls until one is answered (at most CONNECT_ATTEMPTS, each with the deadline):
 * a Kafka client first joins its consumer group (the broker's initial rebalance delay, 3 s by default),
 * and servers that joined theirs together may still be rebalancing.
 */
export function microserviceCaller(name: TransportName, settings: Settings, rows: number, deadlineMs: number): Caller & { connect(): Promise<void> } {
  if (definitionOf(name).server === undefined) throw new Error(`${name} is not a Nest microservice transport (${MICROSERVICE_TRANSPORT_NAMES.join(', ')})`);
  const transport = definitionOf(name).nest(callerContext(settings, name));
  const call = async () => {
    const [reply] = await transport.shared().fetchAll(rows, 1, deadlineMs);
    const samples = (reply as { samples?: unknown } | null)?.samples;
    if (!Array.isArray(samples) || samples.length !== rows) throw new Error(`${name}: a reply of ${Array.isArray(samples) ? samples.length : 'no'} rows, ${rows} asked`);
    transport.takeReplies(); // the meter's tally is not read here: kept from growing
    return undefined;
  };
  return {
    call,
    connect: async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return void (await call());
        } catch (error) {
          if (attempt >= CONNECT_ATTEMPTS) throw new Error(`no reply to ${CONNECT_ATTEMPTS} first calls: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    },
    close: async () => {
      await transport.close?.();
    },
  };
}
