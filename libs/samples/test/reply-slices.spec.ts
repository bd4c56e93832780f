import { text } from 'node:stream/consumers';
import { abandonedReplies, callerSignal, parseDeadlineHeader, ReplyAbandoned } from '../src/reply-deadline';
import { buildRowsSliced, encodeSliced, jsonRowsStream, REPLY_SLICE_ROWS, samplesJsonLength } from '../src/reply-slices';
import { buildRows } from '../src/row';
import { EventEmitter } from 'node:events';

describe('replies produced in slices', () => {
  it.each([0, 1, 9, 10, 11, 99_999, REPLY_SLICE_ROWS, REPLY_SLICE_ROWS + 1, 2 * REPLY_SLICE_ROWS + 7])(
    'a JSON reply of %i rows is byte for byte JSON.stringify, and its length is known beforehand',
    async (count) => {
      const whole = JSON.stringify({ samples: buildRows(count) });
      expect(samplesJsonLength(count)).toBe(Buffer.byteLength(whole));
      if (count > 0) expect(await text(jsonRowsStream(count))).toBe(whole);
    },
  );

  it('builds the same rows slice by slice, and concatenated slice encodings equal the whole', async () => {
    const count = 2 * REPLY_SLICE_ROWS + 3;
    const rows = await buildRowsSliced(count);
    expect(rows).toEqual(buildRows(count));
    const parts = await encodeSliced(rows, (slice) => Buffer.from(slice.map((r) => r.rowNum).join(';') + ';'));
    expect(parts).toHaveLength(3);
    expect(Buffer.concat(parts).toString()).toBe(rows.map((r) => r.rowNum).join(';') + ';');
  });

  it('stops building once its signal aborts, with the reason', async () => {
    const controller = new AbortController();
    const built = buildRowsSliced(100 * REPLY_SLICE_ROWS, controller.signal);
    controller.abort(new ReplyAbandoned('deadline'));
    await expect(built).rejects.toThrow('deadline');
  });

  it('a streamed JSON reply stops between slices when its caller goes, and counts itself abandoned', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const before = abandonedReplies();
    const controller = new AbortController();
    const stream = jsonRowsStream(100 * REPLY_SLICE_ROWS, { signal: controller.signal, what: 'test reply' });
    let slices = 0;
    const ended = new Promise<unknown>((resolve) => {
      stream.on('error', resolve);
      stream.on('close', () => resolve('closed'));
    });
    stream.on('data', () => {
      slices++;
      if (slices === 2) controller.abort(new ReplyAbandoned('the caller went'));
    });
    expect(await ended).toBeInstanceOf(ReplyAbandoned);
    expect(slices).toBeLessThan(5);
    expect(abandonedReplies()).toBe(before + 1);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^test reply of 1000000 rows \(after \d+\) abandoned: the caller went/));
    warn.mockRestore();
  });

  it('a caller signal aborts at the deadline, or on a close before the reply finished, not after', async () => {
    const response = Object.assign(new EventEmitter(), { writableEnded: false });
    const byDeadline = callerSignal(20, response);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(byDeadline.reason).toBeInstanceOf(ReplyAbandoned);
    expect(String(byDeadline.reason.message)).toContain('deadline of 20 ms');

    const closed = callerSignal(undefined, response);
    response.emit('close');
    expect(closed.aborted).toBe(true);

    const finished = Object.assign(new EventEmitter(), { writableEnded: true });
    const fine = callerSignal(undefined, finished);
    finished.emit('close');
    expect(fine.aborted).toBe(false);
  });

  it.each([
    ['200', 200],
    [undefined, undefined],
    ['0', undefined],
    ['-5', undefined],
    ['1e3', undefined],
    [['300', '400'], 300],
  ])('reads the deadline header %p as %p', (value, expected) => {
    expect(parseDeadlineHeader(value)).toBe(expected);
  });
});

describe('a streamed NDJSON reply', () => {
  it('stops when its signal aborts (the caller\'s deadline), and is counted abandoned', async () => {
    const { ndjsonRowStream } = await import('../src/ndjson-stream');
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const before = abandonedReplies();
    const controller = new AbortController();
    const stream = ndjsonRowStream(1_000_000, undefined, undefined, controller.signal);
    const ended = new Promise<unknown>((resolve) => stream.on('error', resolve));
    stream.once('data', () => controller.abort(new ReplyAbandoned("the caller's deadline of 5 ms passed")));
    stream.resume();
    expect(await ended).toBeInstanceOf(ReplyAbandoned);
    expect(abandonedReplies()).toBe(before + 1);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^NDJSON reply of 1000000 rows \(after \d+\) abandoned: the caller's deadline/));
    warn.mockRestore();
  });
});
