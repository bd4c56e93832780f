import { getSamplesCodec } from '../src/codec';
import { samplePackageDefinition } from '../src/package-definition';
import { SAMPLES_CODECS } from '../src/samples-codecs';

const COLUMNS = 'ABCDEFGHIJ'.split('').map((c) => `column${c}`);
const fullRow = (i: number) => ({ rowNum: i, ...Object.fromEntries(COLUMNS.map((c) => [c, `${c}${i}`])) });
// Row 0 has rowNum 0, a proto3 default that goes unwritten; the sparse rows leave columns out.
const full = { samples: [0, 1, 2, 999_999].map(fullRow) };
const sparse = { samples: [0, 1, 2].map((i) => ({ rowNum: i, columnA: `columnA${i}`, columnJ: `columnJ${i}` })) };

/** A decoded row as a caller reads it (protobufjs leaves proto3 defaults on the prototype; protobuf-es adds $typeName). */
function readRows(decoded: { samples: object[] }): Record<string, unknown>[] {
  return decoded.samples.map((row) => Object.fromEntries(['rowNum', ...COLUMNS].map((f) => [f, (row as Record<string, unknown>)[f]])));
}

const standard = getSamplesCodec();

describe.each(Object.entries(SAMPLES_CODECS))('the %s codec against proto-loader', (_id, codec) => {
  it.each([
    ['full rows', full],
    ['rows with unset fields', sparse],
  ])('encodes %s to bytes proto-loader reads back as the same rows', (_what, value) => {
    // Not always the very bytes: protobufjs 7 writes a present rowNum 0, proto3 codecs may leave the default out.
    expect(readRows(standard.responseDeserialize(codec.encode(value)))).toEqual(readRows(standard.responseDeserialize(standard.responseSerialize(value))));
  });

  it('decodes what proto-loader writes to the rows proto-loader reads, defaults included', () => {
    for (const value of [full, sparse]) {
      const bytes = standard.responseSerialize(value);
      expect(readRows(codec.decode(bytes))).toEqual(readRows(standard.responseDeserialize(bytes)));
    }
    expect(readRows(codec.decode(Buffer.alloc(0)))).toEqual([]);
  });

  it('rejects a truncated message with an error', () => {
    const bytes = standard.responseSerialize(full);
    for (const cut of [1, 7, bytes.length >> 1]) {
      expect(() => codec.decode(bytes.subarray(0, bytes.length - cut))).toThrow(Error);
    }
  });

  it('rejects a row whose declared length runs past the end with an error', () => {
    expect(() => codec.decode(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f]))).toThrow(Error);
  });
});

describe('a package definition with a generated codec', () => {
  it.each(['protobuf-es', 'ts-proto'] as const)('%s serves sample.* replies and still speaks standard protobuf', (id) => {
    const service = samplePackageDefinition(id)['sample.SampleService'] as unknown as Record<string, { responseSerialize(v: unknown): Buffer; responseDeserialize(b: Buffer): { samples: object[] } }>;
    const bytes = service.GetSamplesStream.responseSerialize(full);
    expect(Buffer.compare(bytes, SAMPLES_CODECS[id].encode(full))).toBe(0);
    expect(Buffer.compare(bytes, standard.responseSerialize(full))).not.toBe(0); // rowNum 0 left out, see above
    expect(readRows(service.GetSamples.responseDeserialize(bytes))).toEqual(readRows(standard.responseDeserialize(bytes)));
  });
});
