import type { CaseRecord } from '../model';
import { PAYLOAD_CASES } from './payload-cases';

/**
 * The blog's seven cases (experiments.md §1) with its averages. Order is the blog's; the runner keeps it.
 * ①-n: one request of n rows. ②-n: n parallel requests of one row. 20k×4: the blog's "realistic" case.
 * ①-3 runs in one fork and one visit: its cold call and warm-up take a minute and a re-warm would cost a
 * 7–20 s call per visit. It takes 9 runs, not 5: its calls vary by 7–18% (CV) within a run, and 40 of
 * them from 8 runs resampled put two medians of 5 more than 10% apart 32% of the time (JSON; gRPC 18%),
 * of 9, 22% (7%); 9 is also the fewest that give its median a 95% CI. ①-2 and ②-2 take more runs:
 * their calls are cheap and their per-call spread is the widest of the cells ≥ 20 ms (JSON ②-2: a
 * series of 6,500 calls resampled, 60 samples from 10 visits put two runs > 10% apart 12% of the time,
 * 600 about 2%). 20k×4's four visits each start their own set of apps: a server process draws one of two
 * speeds for its encode at its start (one server-b in six encoded 20k×4 1.5× faster in every visit; docs/
 * repeatability.md); with one set a run's whole cell took that one draw, with four one odd process barely
 * moves the cell's median and the cell says when its sets split (analysis/modes.ts processSplit).
 */
export const BLOG_CASES: readonly CaseRecord[] = Object.freeze([
  { id: '①-1', aliases: ['1-1'], rows: 1, requests: 1, blogMs: { json: 2.94, grpc: 2.83 } },
  { id: '①-2', aliases: ['1-2'], rows: 10_000, requests: 1, blogMs: { json: 47.22, grpc: 94.66 }, defaultRuns: 300 },
  { id: '①-3', aliases: ['1-3'], rows: 1_000_000, requests: 1, blogMs: { json: 5177.148, grpc: 12075.561 }, defaultRuns: 9, defaultForks: 1, defaultVisits: 1 },
  { id: '②-1', aliases: ['2-1'], rows: 1, requests: 10, blogMs: { json: 9.758, grpc: 8.483 } },
  { id: '②-2', aliases: ['2-2'], rows: 1, requests: 100, blogMs: { json: 72.088, grpc: 50.794 }, defaultRuns: 600 },
  { id: '②-3', aliases: ['2-3'], rows: 1, requests: 1_000, blogMs: { json: 551.685, grpc: 295.65 }, defaultRuns: 30 },
  { id: '20k×4', aliases: ['20kx4', '20k-4'], rows: 20_000, requests: 4, blogMs: { json: 220.704, grpc: 700.893 }, defaultRuns: 50, defaultForks: 4 },
]);

/** Every case --cases can name: the blog's, then those of the payload endpoints. */
export const CASES: readonly CaseRecord[] = Object.freeze([...BLOG_CASES, ...PAYLOAD_CASES]);

/** Finds cases by id or alias (case-insensitive); unknown names are an error listing what exists. */
export function selectCases(names: readonly string[], catalog: readonly CaseRecord[] = CASES): CaseRecord[] {
  const unknown: string[] = [];
  const picked = new Set<CaseRecord>();
  for (const name of names) {
    const wanted = name.trim().toLowerCase();
    const record = catalog.find((c) => c.id.toLowerCase() === wanted || c.aliases.some((a) => a.toLowerCase() === wanted));
    if (record) picked.add(record);
    else unknown.push(name);
  }
  if (unknown.length > 0) {
    const known = catalog.map((c) => `${c.id} (${c.aliases.join(', ')})`).join('; ');
    throw new Error(`unknown case ${unknown.map((u) => JSON.stringify(u)).join(', ')}; known cases: ${known}`);
  }
  // Keep catalog order whatever order the user typed.
  return catalog.filter((c) => picked.has(c));
}
