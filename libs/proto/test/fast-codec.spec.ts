import { getSamplesCodec } from '../src/codec';
import { decodeSamplesFast, encodeSamplesFast } from '../src/fast-codec';
import { samplePackageDefinition } from '../src/package-definition';

const rows = [0, 1, 2].map((i) => ({ rowNum: i, columnA: `columnA${i}`, columnB: `columnB${i}`, columnJ: `columnJ${i}` }));

describe('the fast codec (tuned variant)', () => {
  it('writes standard protobuf: proto-loader decodes what it encodes, and the reverse', () => {
    const standard = getSamplesCodec();
    expect(standard.responseDeserialize(encodeSamplesFast({ samples: rows })).samples[2]).toMatchObject({ rowNum: 2, columnB: 'columnB2', columnC: '' });
    const decoded = decodeSamplesFast(standard.responseSerialize({ samples: rows }));
    expect(decoded.samples).toHaveLength(3);
    expect(decoded.samples[0].rowNum).toBe(0); // a proto3 default, read from the message prototype
    expect(decoded.samples[1].columnJ).toBe('columnJ1');
    expect(decoded.samples[1].columnC).toBe('');
  });

  it('is what the fast package definition uses for sample.* replies, and only there', () => {
    const fast = samplePackageDefinition('fast')['sample.SampleService'] as unknown as Record<string, { responseSerialize(v: unknown): Buffer; responseDeserialize(b: Buffer): unknown }>;
    const bytes = fast.GetSamplesStream.responseSerialize({ samples: rows });
    expect(Buffer.compare(bytes, encodeSamplesFast({ samples: rows }))).toBe(0);
    expect(samplePackageDefinition('fast')).not.toBe(samplePackageDefinition());
  });
});
