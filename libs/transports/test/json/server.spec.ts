import { samplesJsonLength, WHOLE_REPLY_MAX_ROWS } from '@bench/samples';
import { JSON_ROWS_PATH, jsonRowsReply } from '../../src/json/server';

const read = async (stream: NodeJS.ReadableStream): Promise<string> => {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
};

describe("json's server binding", () => {
  const framing = (ndjson: boolean) => ({ ndjson, signal: () => new AbortController().signal, phases: () => undefined });

  it('matches the blog route, its one segment the count', () => {
    expect(JSON_ROWS_PATH.exec('/server-a/10')?.[1]).toBe('10');
    expect(JSON_ROWS_PATH.exec('/server-a/10/x')).toBeNull();
    expect(JSON_ROWS_PATH.exec('/server-b/10')).toBeNull();
  });

  it('leaves a small reply whole to the server, streams a large one as the same bytes with their length, and NDJSON when asked', async () => {
    expect(jsonRowsReply(WHOLE_REPLY_MAX_ROWS, framing(false))).toEqual({ kind: 'whole' });
    const sliced = jsonRowsReply(WHOLE_REPLY_MAX_ROWS + 1, framing(false));
    if (sliced.kind !== 'sliced') throw new Error(`expected a sliced reply, got ${sliced.kind}`);
    expect(sliced.length).toBe(samplesJsonLength(WHOLE_REPLY_MAX_ROWS + 1));
    const body = await read(sliced.stream);
    expect(Buffer.byteLength(body)).toBe(sliced.length);
    expect((JSON.parse(body) as { samples: unknown[] }).samples).toHaveLength(WHOLE_REPLY_MAX_ROWS + 1);
    const ndjson = jsonRowsReply(3, framing(true));
    expect(ndjson).toMatchObject({ kind: 'ndjson', type: 'application/x-ndjson' });
  });
});
