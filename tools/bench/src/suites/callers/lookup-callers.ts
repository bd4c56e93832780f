// Experiment §2's trivial call ("return the id") over each transport, as the library's callers
// (libs/transports): (servers, id) → a Caller whose replies are checked. Each starts without a
// connection, so its first call includes connection set-up (the suites time that call apart).
import type { LookupFunction } from 'node:net';
import { lookupCodec } from '@bench/proto';
import { cachingLookup, callerTls, grpcUnaryCaller, jsonCaller, protobufCaller, type Caller } from '@bench/transports';
import { expectEqual } from './expect-equal';
import { serverB, type Servers } from './echo-callers';

export type LookupTransport = 'grpc' | 'json-keepalive' | 'json-new-connection' | 'protobuf-keepalive' | 'protobuf-new-connection' | 'protobuf-new-connection-cached-lookup';

const TIMEOUT_MS = 10_000;
const checkId = (id: number) => (reply: { id: number }) => expectEqual('returned id', reply.id, id);

/** A GET of server-a's lookup route for `id` in `format`. */
const lookupCall = (servers: Servers, format: 'json' | 'protobuf', id: number, keepAlive: boolean, lookup?: LookupFunction) => ({
  url: `${servers.serverAUrl}/lookup/${format}/${id}`,
  keepAlive,
  lookup,
  tls: callerTls(servers.security),
  check: checkId(id),
  timeoutMs: TIMEOUT_MS,
});

const protobufLookup = (servers: Servers, id: number, keepAlive: boolean, lookup?: LookupFunction): Caller => protobufCaller(lookupCall(servers, 'protobuf', id, keepAlive, lookup), lookupCodec());

export const LOOKUP_CALLERS: Readonly<Record<LookupTransport, (servers: Servers, id: number) => Promise<Caller>>> = {
  grpc: (servers, id) => grpcUnaryCaller('lookup', serverB(servers), 'GetUser', { id }, checkId(id), TIMEOUT_MS, true),
  'json-keepalive': async (servers, id) => jsonCaller(lookupCall(servers, 'json', id, true)),
  'json-new-connection': async (servers, id) => jsonCaller(lookupCall(servers, 'json', id, false)),
  'protobuf-keepalive': async (servers, id) => protobufLookup(servers, id, true),
  'protobuf-new-connection': async (servers, id) => protobufLookup(servers, id, false),
  'protobuf-new-connection-cached-lookup': async (servers, id) => protobufLookup(servers, id, false, cachingLookup()),
};
