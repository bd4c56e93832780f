// Experiment §2's trivial call ("return the id") over each transport, as adapters of one shape:
// (servers, id) → a Caller whose replies are checked. Each starts without a connection, so its
// first call includes connection set-up (the suites time that call apart).
import { cachingLookup } from '@bench/transports';
import { lookupCodec } from '@bench/proto';
import { expectEqual, type Caller } from './caller';
import type { Servers } from './echo-callers';
import { grpcUnaryCaller } from './grpc-unary';
import { httpCaller } from './http-call';
import type { LookupFunction } from 'node:net';

export type LookupTransport = 'grpc' | 'json-keepalive' | 'json-new-connection' | 'protobuf-keepalive' | 'protobuf-new-connection' | 'protobuf-new-connection-cached-lookup';

const TIMEOUT_MS = 10_000;
const checkId = (id: number) => (reply: { id: number }) => expectEqual('returned id', reply.id, id);

function jsonLookup(servers: Servers, id: number, keepAlive: boolean): Caller {
  return httpCaller({
    url: `${servers.serverAUrl}/lookup/json/${id}`,
    method: 'GET',
    keepAlive,
    check: (body) => checkId(id)(JSON.parse(body.toString('utf8')) as { id: number }),
    timeoutMs: TIMEOUT_MS,
  });
}

function protobufLookup(servers: Servers, id: number, keepAlive: boolean, lookup?: LookupFunction): Caller {
  const codec = lookupCodec();
  return httpCaller({
    lookup,
    url: `${servers.serverAUrl}/lookup/protobuf/${id}`,
    method: 'GET',
    keepAlive,
    check: (body) => checkId(id)(codec.responseDeserialize(body)),
    timeoutMs: TIMEOUT_MS,
  });
}

export const LOOKUP_CALLERS: Readonly<Record<LookupTransport, (servers: Servers, id: number) => Promise<Caller>>> = {
  grpc: (servers, id) => grpcUnaryCaller('lookup', servers.serverBAddress, 'GetUser', { id }, checkId(id), TIMEOUT_MS, true),
  'json-keepalive': async (servers, id) => jsonLookup(servers, id, true),
  'json-new-connection': async (servers, id) => jsonLookup(servers, id, false),
  'protobuf-keepalive': async (servers, id) => protobufLookup(servers, id, true),
  'protobuf-new-connection': async (servers, id) => protobufLookup(servers, id, false),
  'protobuf-new-connection-cached-lookup': async (servers, id) => protobufLookup(servers, id, false, cachingLookup()),
};
