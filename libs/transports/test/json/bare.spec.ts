import { DEFAULT_SETTINGS } from '@bench/config';
import { NDJSON_FROM_ROWS } from '@bench/samples';
import { startFakeJsonServer, type FakeServer } from '@bench/testing';
import { BareJsonTransport } from '../../src/json/bare';

const settings = { ...DEFAULT_SETTINGS, maxRows: 50 };

describe('bare JSON client: large replies as a stream', () => {
  let fake: FakeServer;
  let transport: BareJsonTransport;

  beforeAll(async () => {
    fake = await startFakeJsonServer();
    transport = new BareJsonTransport({ ...settings, serverAUrl: fake.url, maxRows: NDJSON_FROM_ROWS });
  });
  afterAll(() => fake.close());

  it('asks for NDJSON from NDJSON_FROM_ROWS rows on and returns the rows as one reply', async () => {
    const [reply] = (await transport.shared().fetchAll(NDJSON_FROM_ROWS, 1, 5_000)) as { samples: unknown[] }[];
    expect(reply.samples).toHaveLength(NDJSON_FROM_ROWS);
    expect(transport.takeReplies()).toMatchObject({ messages: 1, bytes: expect.any(Number) });
  });

  it('fails a stream cut inside a line', async () => {
    fake.ndjsonTail = '{"rowNum":';
    try {
      await expect(transport.shared().fetchAll(NDJSON_FROM_ROWS, 1, 5_000)).rejects.toThrow(/ended inside a line/);
    } finally {
      fake.ndjsonTail = '';
    }
  });
});

