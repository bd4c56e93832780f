import { loadSync } from '@grpc/proto-loader';
import { buildItems, PAYLOADS, verifyPayloadReply } from '@bench/payloads';
import { getSamplesCodec, observeSampleCodec, MAX_MESSAGE_BYTES, PROTO_LOADER_OPTIONS, SAMPLE_PROTO, sampleGrpcOptions, serverGrpcOptions, GRPC_SERVER_OPTIONS, PAYLOAD_PACKAGES, samplePackageDefinition } from '../src/index';
import { CONNECTION_LIMITS, REQUEST_LIMITS } from '@bench/config';
import { ECHO_MAX_CONTENT } from '@bench/samples';

type FieldInfo = { name: string; number: number; type: string; label: string };

function fieldsOf(message: string): FieldInfo[] {
  const definition = loadSync(SAMPLE_PROTO, PROTO_LOADER_OPTIONS);
  const type = (definition[message] as { type: { field: FieldInfo[] } }).type;
  return type.field.map(({ name, number, type: t, label }) => ({ name, number, type: t, label }));
}

describe('proto/sample.proto keeps the blog contract', () => {
  it('has sample.SampleService/GetSamples', () => {
    const definition = loadSync(SAMPLE_PROTO, PROTO_LOADER_OPTIONS);
    const method = (definition['sample.SampleService'] as Record<string, { path: string }>)['GetSamples'];
    expect(method.path).toBe('/sample.SampleService/GetSamples');
  });

  it('adds GetSamplesStream beside it, a server stream of the same messages', () => {
    const definition = loadSync(SAMPLE_PROTO, PROTO_LOADER_OPTIONS);
    const method = (definition['sample.SampleService'] as Record<string, { path: string; responseStream: boolean; requestStream: boolean }>)['GetSamplesStream'];
    expect(method).toMatchObject({ path: '/sample.SampleService/GetSamplesStream', responseStream: true, requestStream: false });
  });

  it('numbers the fields as the blog did', () => {
    expect(fieldsOf('sample.GetSamplesParam')).toEqual([
      { name: 'count', number: 1, type: 'TYPE_INT32', label: 'LABEL_OPTIONAL' },
    ]);
    expect(fieldsOf('sample.Samples')).toEqual([
      { name: 'samples', number: 1, type: 'TYPE_MESSAGE', label: 'LABEL_REPEATED' },
    ]);
    const sample = fieldsOf('sample.Sample');
    expect(sample[0]).toEqual({ name: 'rowNum', number: 1, type: 'TYPE_INT32', label: 'LABEL_OPTIONAL' });
    expect(sample.slice(1).map((f) => [f.name, f.number, f.type])).toEqual(
      'ABCDEFGHIJ'.split('').map((c, i) => [`column${c}`, i + 2, 'TYPE_STRING']),
    );
  });
});

describe('getSamplesCodec', () => {
  it('round-trips a reply, filling proto3 defaults (row 0 has rowNum 0)', () => {
    const codec = getSamplesCodec();
    const row = (i: number) => ({ rowNum: i, columnA: `columnA${i}`, columnJ: `columnJ${i}` });
    const bytes = codec.responseSerialize({ samples: [row(0), row(1)] });
    const decoded = codec.responseDeserialize(bytes);
    expect(decoded.samples[0]).toMatchObject({ rowNum: 0, columnA: 'columnA0', columnB: '' });
    expect(decoded.samples[1]).toMatchObject({ rowNum: 1, columnJ: 'columnJ1' });
  });

  it('tells the observer the size and time of each encoded and decoded reply', () => {
    const seen: string[] = [];
    observeSampleCodec({
      encoded: (bytes, ms) => seen.push(`encoded ${bytes} ${ms >= 0}`),
      decoded: (bytes, ms) => seen.push(`decoded ${bytes} ${ms >= 0}`),
    });
    try {
      const codec = getSamplesCodec();
      const bytes = codec.responseSerialize({ samples: [{ rowNum: 5, columnA: 'columnA5' }] });
      codec.responseDeserialize(bytes);
      expect(seen).toEqual([`encoded ${bytes.length} true`, `decoded ${bytes.length} true`]);
    } finally {
      observeSampleCodec({});
    }
  });
});

describe('sampleGrpcOptions', () => {
  it('is the same object shape for server and client, with raised message limits', () => {
    const options = sampleGrpcOptions('127.0.0.1:1234').options;
    expect(options.url).toBe('127.0.0.1:1234');
    expect(options.package).toEqual(['sample', 'grpc.health.v1', 'bench.metrics', 'bench.path', 'echo', 'lookup', ...PAYLOAD_PACKAGES]);
    expect(options.maxSendMessageLength).toBe(MAX_MESSAGE_BYTES);
    expect(options.maxReceiveMessageLength).toBe(MAX_MESSAGE_BYTES);
    expect(MAX_MESSAGE_BYTES).toBeGreaterThan(1_000_000 * 200);
    expect(options.packageDefinition['sample.SampleService']).toBeDefined();
    expect(options.packageDefinition['grpc.health.v1.Health']).toBeDefined();
    expect(options.packageDefinition['bench.path.PathProbe']).toBeDefined();
    expect(PROTO_LOADER_OPTIONS).toMatchObject({ keepCase: true, defaults: true, longs: String, enums: String });
  });

  it("server-b's options take the same contract with the request limit and an idle limit; the client's accept the largest reply", () => {
    const server = serverGrpcOptions('127.0.0.1:1234').options;
    expect(server.package).toEqual(sampleGrpcOptions('127.0.0.1:1234').options.package);
    expect(server.maxReceiveMessageLength).toBe(REQUEST_LIMITS.grpc.bytes);
    expect(server.maxSendMessageLength).toBe(MAX_MESSAGE_BYTES);
    expect(server.channelOptions).toEqual({ 'grpc.max_connection_idle_ms': CONNECTION_LIMITS.http2Idle.ms });
    expect(GRPC_SERVER_OPTIONS['grpc.max_receive_message_length']).toBe(REQUEST_LIMITS.grpc.bytes);
    // A request of the largest echo content fits with room; a 1,000,000-row reply is 156 MB.
    expect(REQUEST_LIMITS.grpc.bytes).toBeGreaterThan(ECHO_MAX_CONTENT + 16);
    expect(sampleGrpcOptions('127.0.0.1:1234').options.maxReceiveMessageLength).toBeGreaterThan(156_000_000);
  });
});

describe('the payload endpoints (libs/payloads)', () => {
  type Codec = { responseSerialize(v: unknown): Buffer; responseDeserialize(b: Buffer): unknown };

  it.each(PAYLOADS.map((p) => [p.name, p] as const))('%s: served, metered, and its replies decode to the builder items', (_name, payload) => {
    const { protoPackage, service, method, field } = payload.names;
    const rpc = (samplePackageDefinition()[`${protoPackage}.${service}`] as unknown as Record<string, Codec>)[method];
    const seen: number[] = [];
    observeSampleCodec({ encoded: (bytes) => seen.push(bytes) });
    try {
      const bytes = rpc.responseSerialize({ [field]: buildItems(payload, 3) });
      expect(seen).toEqual([bytes.length]);
      expect(verifyPayloadReply(payload, rpc.responseDeserialize(bytes), 3)).toEqual({ ok: true });
    } finally {
      observeSampleCodec({});
    }
  });
});
