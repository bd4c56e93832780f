import { processSampler } from '@bench/config';
import { text } from 'node:stream/consumers';
import { buildItem, buildItems, buildItemsSliced, buildReply, payloadJsonStream } from '../src/build';
import { ORDERS } from '../src/orders/orders.payload';
import { string } from '../src/shape';
import { TEST_PAYLOAD } from '../src/test-payload';

describe('buildItem', () => {
  it('builds every field of the shape, nested and repeated ones included, in declaration order', () => {
    const item = buildItem(TEST_PAYLOAD, 3);
    expect(Object.keys(item)).toEqual(['id', 'label', 'price', 'active', 'tags', 'owner', 'parts']);
    expect(item).toEqual({
      id: 301,
      label: 'label3abcdef',
      price: 3.75,
      active: false,
      tags: ['tag', 'tag'],
      owner: { name: 'name3', vip: false },
      parts: [
        { sku: 'sku9abcd', qty: 902 },
        { sku: 'sku10abc', qty: 1002 },
        { sku: 'sku11abc', qty: 1102 },
      ],
    });
  });

  it('gives strings exactly their declared length', () => {
    const item = buildItem(TEST_PAYLOAD, 123_456);
    expect(item.label).toHaveLength(12);
    expect(item.parts.map((p) => p.sku.length)).toEqual([8, 8, 8]);
    expect(string(0).length).toBe(0);
  });

  it('is a pure function of the item number', () => {
    expect(buildItem(TEST_PAYLOAD, 7)).toEqual(buildItem(TEST_PAYLOAD, 7));
    expect(buildItem(TEST_PAYLOAD, 7)).not.toEqual(buildItem(TEST_PAYLOAD, 8));
  });

  it('survives a JSON round trip unchanged', () => {
    const items = buildItems(TEST_PAYLOAD, 5);
    expect(JSON.parse(JSON.stringify(items))).toEqual(items);
  });
});

describe('buildReply', () => {
  it('puts the items under the payload field and counts the time as the build phase', () => {
    const before = processSampler().read(false).buildMs;
    const reply = buildReply(TEST_PAYLOAD, 2000);
    expect(Object.keys(reply)).toEqual(['testItems']);
    expect(reply.testItems).toEqual(buildItems(TEST_PAYLOAD, 2000));
    expect(processSampler().read(false).buildMs).toBeGreaterThan(before);
  });
});

describe('large payload replies in slices', () => {
  it('stream the same JSON as the reply stringified whole, and build the same items slice by slice', async () => {
    const count = 10_000 + 7;
    expect(await text(payloadJsonStream(ORDERS, count))).toBe(JSON.stringify(buildReply(ORDERS, count)));
    expect(await buildItemsSliced(ORDERS, count, new AbortController().signal)).toEqual(buildReply(ORDERS, count).orders);
  });
});
