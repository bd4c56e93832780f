import type { ProcessCost } from '@bench/config';
import type { FieldResult } from '@bench/validation';
import type { CallSamples, Phases } from './case-runner';
import type { TlsHandshakes } from './tls-handshakes';
import { TRANSPORT_NAMES, type Http2Windows, type TransportName } from '@bench/transports';

/** A field of the reply that is not what CallSamples says it is. */
class BadField extends Error {
  constructor(
    readonly field: string,
    readonly rule: 'type' | 'enum' | 'min',
    what: string,
    value: unknown,
  ) {
    super(`${field} must be ${what}, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`);
  }
}

type Fields = Record<string, unknown>;

function object(field: string, value: unknown): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadField(field, 'type', 'an object', value);
  return value as Fields;
}

function number(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new BadField(field, 'type', 'a finite number', value);
  if (value < 0) throw new BadField(field, 'min', 'at least 0', value);
  return value;
}

function count(field: string, value: unknown): number {
  const n = number(field, value);
  if (!Number.isInteger(n)) throw new BadField(field, 'type', 'a whole number', value);
  return n;
}

function orNull<T>(read: (field: string, value: unknown) => T): (field: string, value: unknown) => T | null {
  return (field, value) => (value === null ? null : read(field, value));
}

function numbers(field: string, value: unknown): number[] {
  if (!Array.isArray(value)) throw new BadField(field, 'type', 'an array of numbers', value);
  return value.map((item, i) => number(`${field}[${i}]`, item));
}

function text(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new BadField(field, 'type', 'a string', value);
  return value;
}

function transport(field: string, value: unknown): TransportName {
  const found = TRANSPORT_NAMES.find((name) => name === value);
  if (found === undefined) throw new BadField(field, 'enum', `one of ${TRANSPORT_NAMES.join(', ')}`, value);
  return found;
}

function cost(field: string, value: unknown): ProcessCost {
  const input = object(field, value);
  const gcMs = input.gcMs === undefined ? {} : { gcMs: number(`${field}.gcMs`, input.gcMs) };
  return { cpuUserMs: number(`${field}.cpuUserMs`, input.cpuUserMs), cpuSystemMs: number(`${field}.cpuSystemMs`, input.cpuSystemMs), peakRssBytes: number(`${field}.peakRssBytes`, input.peakRssBytes), ...gcMs };
}

function phases(field: string, value: unknown): Phases {
  const input = object(field, value);
  const ms = orNull(number);
  return {
    serverBuildMs: ms(`${field}.serverBuildMs`, input.serverBuildMs),
    serverEncodeMs: ms(`${field}.serverEncodeMs`, input.serverEncodeMs),
    clientDecodeMs: ms(`${field}.clientDecodeMs`, input.clientDecodeMs),
    ...(input.serverBuildGcMs === undefined ? {} : { serverBuildGcMs: ms(`${field}.serverBuildGcMs`, input.serverBuildGcMs) }),
    ...(input.serverEncodeGcMs === undefined ? {} : { serverEncodeGcMs: ms(`${field}.serverEncodeGcMs`, input.serverEncodeGcMs) }),
  };
}

function handshakes(field: string, value: unknown): TlsHandshakes {
  const input = object(field, value);
  return {
    count: count(`${field}.count`, input.count),
    resumed: orNull(number)(`${field}.resumed`, input.resumed) ?? 0,
    meanMs: number(`${field}.meanMs`, input.meanMs),
    maxMs: number(`${field}.maxMs`, input.maxMs),
    protocol: orNull(text)(`${field}.protocol`, input.protocol),
    alpn: orNull(text)(`${field}.alpn`, input.alpn),
  };
}

function tlsOf(field: string, value: unknown): { cold: TlsHandshakes | null; timed: TlsHandshakes | null } {
  const input = object(field, value);
  return { cold: orNull(handshakes)(`${field}.cold`, input.cold), timed: orNull(handshakes)(`${field}.timed`, input.timed) };
}

function windows(field: string, value: unknown): Http2Windows {
  const input = object(field, value);
  return { streamBytes: count(`${field}.streamBytes`, input.streamBytes), connectionBytes: count(`${field}.connectionBytes`, input.connectionBytes) };
}

/**
 * Validates the client's answer to POST /bench/run (the bench reads it from the Nest, bare and Go
 * clients alike), naming the first field that is not what CallSamples says.
 */
export function parseCallSamples(body: unknown): FieldResult<CallSamples> {
  try {
    const input = object('reply', body);
    return {
      ok: true,
      value: {
        transport: transport('transport', input.transport),
        rows: count('rows', input.rows),
        requests: count('requests', input.requests),
        coldMs: orNull(number)('coldMs', input.coldMs),
        warmupMs: numbers('warmupMs', input.warmupMs),
        samplesMs: numbers('samplesMs', input.samplesMs),
        bytesPerResponse: orNull(count)('bytesPerResponse', input.bytesPerResponse),
        rowsPerCall: count('rowsPerCall', input.rowsPerCall),
        phases: orNull(phases)('phases', input.phases),
        client: orNull(cost)('client', input.client),
        server: orNull(cost)('server', input.server),
        serverMetricsError: orNull(text)('serverMetricsError', input.serverMetricsError),
        ...(input.http2Windows === undefined ? {} : { http2Windows: orNull(windows)('http2Windows', input.http2Windows) }),
        ...(input.tls === undefined ? {} : { tls: tlsOf('tls', input.tls) }),
      },
    };
  } catch (error) {
    if (error instanceof BadField) return { ok: false, error: { field: error.field, rule: error.rule, message: error.message } };
    throw error;
  }
}
