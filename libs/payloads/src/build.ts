import { processSampler } from '@bench/config';
import type { Readable } from 'node:stream';
import { jsonListStream, nextTurn, REPLY_SLICE_ROWS, type JsonStreamOptions } from '@bench/samples';
import type { ItemOf, Payload, PayloadReply } from './payload';
import type { Field } from './shape';

type Maker = (i: number) => unknown;

const FILLER = 'abcdefghijklmnopqrstuvwxyz0123456789';
const INT32_MAX = 2_147_483_647;

/**
 * Values are a pure function of the item number and the field's place, so the client can rebuild
 * the item it expects and compare, and every field of every item differs (no accidental reuse of one
 * string by the encoder). Strings start with their field name and item number, padded to length.
 */
function maker(field: Field, name: string, number: number): Maker {
  switch (field.kind) {
    case 'int32':
      return (i) => (i * 100 + number) % INT32_MAX;
    case 'double':
      // Quarters are exact in binary, so JSON text and protobuf doubles both give back the same number.
      return (i) => i + number / 4;
    case 'bool':
      return (i) => (i + number) % 2 === 0;
    case 'string': {
      const { length } = field;
      const padding = FILLER.repeat(Math.ceil(length / FILLER.length) + 1);
      return (i) => {
        const head = `${name}${i}`;
        return head.length >= length ? head.slice(0, length) : head + padding.slice(0, length - head.length);
      };
    }
    case 'message': {
      const makers = Object.entries(field.fields).map(([key, inner], index) => [key, maker(inner, key, index + 1)] as const);
      return (i) => {
        const item: Record<string, unknown> = {};
        for (const [key, make] of makers) item[key] = make(i);
        return item;
      };
    }
    case 'repeated': {
      const { count } = field;
      const make = maker(field.of, name, number);
      return (i) => {
        const list = new Array<unknown>(count);
        for (let j = 0; j < count; j++) list[j] = make(i * count + j);
        return list;
      };
    }
  }
}

const compiled = new WeakMap<Payload, Maker>();

/** Item `i` of a payload, exactly as both servers build it. */
export function buildItem<P extends Payload>(payload: P, i: number): ItemOf<P> {
  let make = compiled.get(payload);
  if (!make) {
    // Walk the shape once per payload; building an item is then only the closures' work.
    make = maker(payload.item, payload.item.name, 0);
    compiled.set(payload, make);
  }
  return make(i) as ItemOf<P>;
}

/** Items 0 … count-1. */
export function buildItems<P extends Payload>(payload: P, count: number): ItemOf<P>[] {
  const items = new Array<ItemOf<P>>(count);
  for (let i = 0; i < count; i++) items[i] = buildItem(payload, i);
  return items;
}

/**
 * What both servers answer for `count` items: `{ [field]: items }`, with the building time added to
 * the process's build phase (as the samples controllers do), so the bench can split the call's time.
 */
export function buildReply<P extends Payload>(payload: P, count: number): PayloadReply<P> {
  const started = performance.now();
  const items = buildItems(payload, count);
  processSampler().addPhase('build', performance.now() - started);
  return { [payload.names.field]: items };
}

/**
 * Items 0 … count-1 built REPLY_SLICE_ROWS at a time, yielding between slices and stopping with the
 * signal's reason once it aborts (a large reply whose caller has gone stops within a slice).
 */
export async function buildItemsSliced<P extends Payload>(payload: P, count: number, signal: AbortSignal): Promise<ItemOf<P>[]> {
  const items = new Array<ItemOf<P>>(count);
  for (let start = 0; start < count; start += REPLY_SLICE_ROWS) {
    if (start > 0) await nextTurn();
    signal.throwIfAborted();
    const started = performance.now();
    const end = Math.min(count, start + REPLY_SLICE_ROWS);
    for (let i = start; i < end; i++) items[i] = buildItem(payload, i);
    processSampler().addPhase('build', performance.now() - started);
  }
  return items;
}

/** The reply of `count` items as a JSON byte stream produced a slice at a time (libs/samples jsonListStream). */
export function payloadJsonStream(payload: Payload, count: number, options: JsonStreamOptions = {}): Readable {
  return jsonListStream(payload.names.field, count, (i) => buildItem(payload, i), options);
}
