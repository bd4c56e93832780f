import { pacedChunks } from '../src/paced-chunks';

/** A stand-in for the call's stream: every emitted chunk waits in it until the test "sends" it. */
function fakeQueue() {
  return { writableLength: 0 };
}

describe('pacedChunks', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('cuts count items into chunks of chunkSize, the last one shorter', () => {
    const chunks: Array<[number, number]> = [];
    let done = false;
    pacedChunks(25, 10, fakeQueue(), (start, end) => [start, end] as [number, number]).subscribe({
      next: (chunk) => chunks.push(chunk),
      complete: () => (done = true),
    });
    jest.runAllTimers();
    expect(chunks).toEqual([
      [0, 10],
      [10, 20],
      [20, 25],
    ]);
    expect(done).toBe(true);
  });

  it('builds nothing more while the stream holds more than maxInFlight unsent messages', () => {
    const queue = fakeQueue();
    const built: number[] = [];
    pacedChunks(100, 10, queue, (start) => {
      built.push(start);
      queue.writableLength++; // what Nest's call.write does with the chunk
      return start;
    }).subscribe();
    jest.advanceTimersByTime(50);
    expect(built).toEqual([0, 10]); // one in flight, one queued behind it
    queue.writableLength = 1; // the stream sent one
    jest.advanceTimersByTime(1);
    expect(built).toEqual([0, 10, 20]);
    queue.writableLength = 0;
    jest.advanceTimersByTime(50);
    expect(built).toEqual([0, 10, 20, 30, 40]); // both sent: two more, then it waits again
  });

  it('stops building when the subscriber leaves (a cancelled call)', () => {
    const built: number[] = [];
    const subscription = pacedChunks(1_000, 10, fakeQueue(), (start) => built.push(start)).subscribe();
    jest.advanceTimersByTime(0);
    subscription.unsubscribe();
    const before = built.length;
    jest.runAllTimers();
    expect(built).toHaveLength(before);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('completes at once for no items', () => {
    let done = false;
    pacedChunks(0, 10, fakeQueue(), () => 0).subscribe({ complete: () => (done = true) });
    expect(done).toBe(true);
  });
});
