import { buildItems } from '../src/build';
import { TEST_PAYLOAD } from '../src/test-payload';
import { verifyPayloadReply } from '../src/verify';

describe('verifyPayloadReply', () => {
  it('accepts what the servers build', () => {
    expect(verifyPayloadReply(TEST_PAYLOAD, { testItems: buildItems(TEST_PAYLOAD, 4) }, 4)).toEqual({ ok: true });
  });

  it('rejects a missing list or a wrong count', () => {
    expect(verifyPayloadReply(TEST_PAYLOAD, { samples: [] }, 1)).toEqual({ ok: false, reason: 'reply has no testItems array' });
    expect(verifyPayloadReply(TEST_PAYLOAD, null, 1).ok).toBe(false);
    expect(verifyPayloadReply(TEST_PAYLOAD, { testItems: buildItems(TEST_PAYLOAD, 3) }, 4)).toEqual({ ok: false, reason: 'expected 4 testItems, got 3' });
  });

  it('rejects a change deep inside the first or last item', () => {
    const first = buildItems(TEST_PAYLOAD, 3);
    first[0].parts[2].qty += 1;
    expect(verifyPayloadReply(TEST_PAYLOAD, { testItems: first }, 3)).toMatchObject({ ok: false, reason: expect.stringContaining('testItems[0] differs') });
    const last = buildItems(TEST_PAYLOAD, 3);
    last[2].owner.vip = !last[2].owner.vip;
    expect(verifyPayloadReply(TEST_PAYLOAD, { testItems: last }, 3)).toMatchObject({ ok: false, reason: expect.stringContaining('testItems[2] differs') });
  });
});
