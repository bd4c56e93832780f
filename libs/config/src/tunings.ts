import type { NestVariant } from './settings';

/** One change the tuned Nest variant makes to the blog's configuration, and why. */
export interface Tuning {
  id: string;
  app: 'client' | 'server-a' | 'server-b' | 'server-b + client';
  transport: 'json' | 'grpc';
  change: string;
  why: string;
}

/** Every tuning, named and justified in one place (the README's table is this list). */
export const TUNINGS: readonly Tuning[] = Object.freeze([
  {
    id: 'keep-alive-pool',
    app: 'client',
    transport: 'json',
    change: 'axios gets an http.Agent that keeps up to MAX_PARALLEL idle sockets (keepAlive, lifo)',
    why:
      "Node's default agent keeps at most 256 idle sockets, so every burst wider than that closes the rest " +
      'and reopens them on the next burst: connection churn that no protocol needs',
  },
  {
    id: 'stream-large-replies',
    app: 'client',
    transport: 'grpc',
    change: 'replies of 20,000 rows or more are fetched with GetSamplesStream (10,000-row messages) and concatenated',
    why:
      'one ~150 MB message is built and encoded whole before its first byte leaves, held in memory twice and decoded ' +
      'whole after its last byte arrives; chunks let building, encoding, transfer and decoding overlap and keep each GC small',
  },
  {
    id: 'fast-protobuf-codec',
    app: 'server-b + client',
    transport: 'grpc',
    change:
      'sample.Samples is encoded with protobufjs 8 straight from the plain rows and decoded with protobufjs 7 into message ' +
      'instances, plugged into Nest as a custom packageDefinition (libs/proto fast-codec.ts)',
    why:
      "proto-loader copies every row into a message (fromObject) before protobufjs 7 encodes it, and copies every decoded row " +
      'back into a plain object (toObject): two extra allocations per row that make garbage collection the biggest cost',
  },
  {
    id: 'long-keep-alive',
    app: 'server-a',
    transport: 'json',
    change: 'server keepAliveTimeout 65 s (headersTimeout 66 s) instead of Node\'s 5 s; the client pool drops idle sockets after 60 s',
    why:
      'with a pool that keeps sockets, a server that closes idle ones after 5 s races the client reusing them ' +
      '("socket hang up" after a long call); the server must outlive the client\'s idle timeout, as behind any load balancer',
  },
  {
    id: 'no-etag',
    app: 'server-a',
    transport: 'json',
    change: "Express 'etag' off",
    why: 'Express hashes every response body to build an ETag; service-to-service calls never send If-None-Match',
  },
]);

/** The gRPC codec a variant's processes use for sample.* messages. */
export function grpcCodecFor(variant: NestVariant): 'fast' | 'proto-loader' {
  return isTuned(variant, 'fast-protobuf-codec') ? 'fast' : 'proto-loader';
}

/** The tunings a variant applies (none for the blog's configuration). */
export function tuningsFor(variant: NestVariant): readonly Tuning[] {
  return variant === 'tuned' ? TUNINGS : [];
}

export function isTuned(variant: NestVariant, id: string): boolean {
  return tuningsFor(variant).some((t) => t.id === id);
}
