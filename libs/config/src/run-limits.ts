import type { CountLimit } from './count-limit';
/**
 * The work one POST /bench/run may ask of a client, in rows and in calls (cold + warm-up + runs, each
 * of `requests` parallel requests): a request within both ends within minutes, however it is shaped.
 * The Go client's harness package has the same values (MaxRunRows, MaxRunCalls).
 */
export const RUN_LIMITS = Object.freeze({
  rows: {
    count: 10_000_000,
    why:
      "rows × requests × calls: the bench's largest request is a visit's first of ①-3, 1,000,000 rows × (the cold call + the warm-up " +
      'calls, 0 or 1 in the profiles) ≤ 2,000,000 rows (each timed run is a request of its own); 10,000,000 leaves room for ' +
      '`--warmup 9` with ①-3, or ten 1,000,000-row calls by hand. Without it one request asked for years of CPU',
  },
  calls: {
    count: 100_000,
    why:
      "requests × calls: the rows cap leaves a run of 1-row calls unbounded in time (1 × 10,000 requests × 999 runs asked 21–73 min " +
      "of one client, 0.13–0.44 ms a call); the bench's largest is a visit's first of ②-3, 1,000 requests × (cold + warm-up) ≤ 2,000 " +
      'calls; 100,000 leaves room for `--warmup 99` with ②-3 and is at most ~45 s of calls at that pace',
  },
} satisfies Record<string, CountLimit>);
