import { acceptsNdjson, isNdjson, NDJSON_MEDIA_TYPE } from '../src/ndjson';
import { NdjsonReader, readNdjson } from '../src/ndjson-reader';
import { encodeNdjson, ndjsonRowStream } from '../src/ndjson-stream';
import { buildRows } from '../src/row';

describe('NDJSON negotiation', () => {
  it.each([
    [NDJSON_MEDIA_TYPE, true],
    ['Application/X-NDJSON; charset=utf-8', true],
    ['application/json, application/x-ndjson;q=0.9', true],
    [['text/plain', NDJSON_MEDIA_TYPE], true],
    ['application/json', false],
    ['*/*', false],
    [undefined, false],
  ])('Accept %p asks for a stream: %p', (accept, expected) => {
    expect(acceptsNdjson(accept)).toBe(expected);
  });

  it('reads the Content-Type of a streamed reply', () => {
    expect(isNdjson('application/x-ndjson')).toBe(true);
    expect(isNdjson('application/json; charset=utf-8')).toBe(false);
    expect(isNdjson(undefined)).toBe(false);
  });
});

describe('NdjsonReader', () => {
  // Three lines: chunks of 2, 2 and 1 rows.
  const body = Buffer.from(encodeNdjson(buildRows(5), 2));

  it('reads rows cut anywhere across chunks, counting bytes and parse time', () => {
    for (const size of [1, 7, 64, body.length]) {
      const reader = new NdjsonReader();
      for (let at = 0; at < body.length; at += size) reader.push(body.subarray(at, at + size));
      const read = reader.end();
      expect(read.values).toEqual(buildRows(5));
      expect(read.bytes).toBe(body.length);
      expect(read.parseMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('keeps multi-byte characters cut between chunks', () => {
    const text = Buffer.from(encodeNdjson([{ word: 'çà€😀' }, { word: 'ok' }], 1));
    const reader = new NdjsonReader();
    for (let at = 0; at < text.length; at++) reader.push(text.subarray(at, at + 1));
    expect(reader.end().values).toEqual([{ word: 'çà€😀' }, { word: 'ok' }]);
  });

  it('fails a body that ends inside a line (a truncated stream)', () => {
    const reader = new NdjsonReader();
    reader.push(body.subarray(0, body.length - 10));
    expect(() => reader.end()).toThrow(/ended inside a line/);
  });

  it('fails a malformed line', () => {
    expect(() => new NdjsonReader().push(Buffer.from('[{"rowNum":0}]\nnot json\n'))).toThrow(/malformed NDJSON reply: line 2/);
    expect(() => new NdjsonReader().push(Buffer.from('[{"rowNum":0}]\n\n'))).toThrow(/malformed NDJSON reply: line 2/);
    // Every line is one chunk of values: a line that is not an array is not this stream.
    expect(() => new NdjsonReader().push(Buffer.from('{"rowNum":0}\n'))).toThrow(/line 1: expected a JSON array/);
  });

  it('reads an async body to its end', async () => {
    expect((await readNdjson(ndjsonRowStream(2_500, undefined, 1_000))).values).toEqual(buildRows(2_500));
  });
});

describe('ndjsonRowStream', () => {
  it('sends rows 0 … count-1 as one JSON array per chunk of chunkRows, one chunk a line, reporting build and encode time', async () => {
    const phases: string[] = [];
    const chunks: Buffer[] = [];
    for await (const chunk of ndjsonRowStream(25, (phase) => phases.push(phase), 10)) chunks.push(chunk as Buffer);
    const lines = Buffer.concat(chunks).toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line).length)).toEqual([10, 10, 5]);
    expect(lines.flatMap((line) => JSON.parse(line))).toEqual(buildRows(25));
    expect(phases).toEqual(['build', 'encode', 'build', 'encode', 'build', 'encode']);
  });

  it('builds the next chunk only when its reader has taken the previous one (back-pressure)', async () => {
    let built = 0;
    const stream = ndjsonRowStream(1_000_000, (phase) => void (phase === 'build' && built++), 1_000);
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    stream.read(0);
    for (let i = 0; i < 10; i++) await tick();
    // One chunk fills the stream's buffer; while nobody takes it, no further row is built.
    expect(built).toBe(1);
    // Each read lets it make the next chunk or two: never the 1,000 chunks of the whole reply.
    for (let i = 0; i < 5; i++) {
      stream.read();
      await tick();
    }
    expect(built).toBeGreaterThan(1);
    expect(built).toBeLessThanOrEqual(1 + 2 * 5);
    stream.destroy();
  });
});
