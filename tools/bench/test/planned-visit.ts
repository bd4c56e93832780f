import { BLOG_CASES } from '../src/plan/cases';
import { callDeadlineMs } from '../src/plan/deadlines';
import type { CaseRecord, Visit } from '../src/model/model';

/** A blog case's record by its id (①-1 … 20k×4). */
export function blogCase(id: string): CaseRecord {
  const record = BLOG_CASES.find((c) => c.id === id);
  if (!record) throw new Error(`no blog case ${id}`);
  return record;
}

/** One visit as the quick preset plans it (cold call, one warm-up call, 3 runs, no budget, its own deadline); override what a test varies. */
export function plannedVisit(caseId: string, overrides: Partial<Visit> = {}): Visit {
  const record = blogCase(caseId);
  return {
    network: 'loopback', runtime: '24', variant: 'blog', record, transports: ['json', 'grpc'], warmup: 1, warmupMs: 0, runs: 3, settleMs: 0,
    forks: 0, fork: 0, visits: 1, visit: 1, cold: true, firstPosition: 0, deadlineMs: callDeadlineMs(record), budgetMs: null, minRuns: 1, ...overrides,
  };
}
