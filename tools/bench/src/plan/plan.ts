// The plan of a run: which visits of which cases, on which set of apps, in which order, with how many
// runs and what budget. Options say what the user asked for; this turns them into visits.
import { callDeadlineMs } from './deadlines';
import { type Visit, rttMs } from '../model';
import type { PathProfile } from '../network/path';
import type { BenchOptions } from './options';
import { plannedTransports } from './variants';
import { DEFAULT_RUNTIME, type RuntimeRecord } from './runtimes';

/** `runs` split over `visits` as evenly as possible, larger shares first (60 over 3: 20, 20, 20; 5 over 3: 2, 2, 1). */
export function splitRuns(runs: number, visits: number): number[] {
  return Array.from({ length: visits }, (_, i) => Math.floor(runs / visits) + (i < runs % visits ? 1 : 0));
}

/**
 * Per variant, the visits of its cases spread evenly over the run: visit v of a case with V visits sits
 * at (v − ½)/V of the way through, so cases with equal visits go round-robin (every case's visit 1 in
 * the blog's order, then every case's visit 2, …). A case with one visit (①-3 by default) goes first,
 * before any other set of apps is up: each of its calls touches ~1 GB of fresh memory per process, and
 * on a VM that backs guest memory lazily a first touch costs far more once other sets hold memory (①-3's
 * JSON client: 0.3 s of kernel time per call alone, 1.1–1.5 s with the default run's six other sets up,
 * its calls 2.9–3.1 s against 3.4–5.8 s; docs/repeatability.md). Each visit has its share of the runs
 * and goes to fork ((v − 1) mod forks) + 1; a fork's first visit is cold.
 */
export function planVisits(options: BenchOptions): Visit[] {
  return options.networks.flatMap((network) =>
    options.runtimes.flatMap((runtime) => securitiesFor(network, options.securities ?? [PLAIN_RECORD]).flatMap((security) => planVariants(options, network, runtime, security.name))),
  );
}

const PLAIN_RECORD = { name: 'plain', tls: false };

/** The securities a network runs with: a mesh's apps speak plaintext to their sidecars, which speak mTLS between them. */
function securitiesFor<S extends { tls: boolean }>(network: PathProfile, securities: readonly S[]): readonly S[] {
  return network.features.includes('mesh') ? securities.filter((s) => !s.tls) : securities;
}

function planVariants(options: BenchOptions, network: PathProfile, runtime: RuntimeRecord, security: string): Visit[] {
  const { preset } = options;
  return options.variants.flatMap((variant) => {
    const transports = plannedTransports(variant, options.transports);
    if (transports.length === 0) return [];
    const visits = options.cases.flatMap((record, caseIndex) => {
      const runs = options.runs ?? (preset.caseDefaults ? record.defaultRuns : undefined) ?? preset.runs;
      const own = <T>(value: T | undefined) => (preset.caseDefaults ? value : undefined);
      // Never more visits than runs (a visit without a timed run would only cost time), nor more forks than visits.
      const visitCount = Math.min(runs, options.visits ?? own(record.defaultVisits) ?? preset.visits);
      const forks = Math.min(visitCount, options.forks ?? own(record.defaultForks) ?? preset.forks);
      const shares = splitRuns(runs, visitCount);
      return shares.map((share, i) => {
        const fork = forks === 0 ? 0 : (i % forks) + 1;
        const cold = i < Math.max(1, forks);
        const planned: Visit = {
          network: network.name,
          runtime: runtime.name,
          security,
          variant: variant.id,
          record,
          transports,
          warmup: options.warmup,
          cold,
          warmupMs: cold ? options.warmupMs : options.rewarmMs,
          settleMs: options.settleMs,
          runs: share,
          forks,
          fork,
          visits: visitCount,
          visit: i + 1,
          firstPosition: shares.slice(0, i).reduce((a, b) => a + b, 0) * transports.length,
          deadlineMs: callDeadlineMs(record, options.deadlineMs, rttMs(network.network)),
          // --runs asks for exactly that many runs: no budget then.
          budgetMs: options.runs === null && preset.budgetMs !== null ? preset.budgetMs / visitCount : null,
          minRuns: Math.min(share, preset.minRunsPerVisit),
        };
        return { planned, at: visitCount === 1 ? 0 : (i + 0.5) / visitCount, caseIndex };
      });
    });
    visits.sort((a, b) => a.at - b.at || a.caseIndex - b.caseIndex);
    return visits.map((v) => v.planned);
  });
}

/** Which set of apps serves a visit: the case's fork, or with no forks the variant's one set (per network, runtime and security). */
export function appSetKey(planned: Visit): string {
  const on = planned.runtime === DEFAULT_RUNTIME ? '' : `node${planned.runtime}:`;
  const secured = planned.security === 'plain' ? '' : `${planned.security}:`;
  const where = (planned.network === 'loopback' ? '' : `${planned.network}:`) + on + secured;
  return where + (planned.forks === 0 ? planned.variant : `${planned.variant}/${planned.record.id}#${planned.fork}`);
}

/** For each set of apps, the plan index of the last visit it serves: after that visit it can stop. */
export function lastVisitOfAppSet(plan: readonly Visit[]): Map<string, number> {
  const last = new Map<string, number>();
  plan.forEach((planned, index) => last.set(appSetKey(planned), index));
  return last;
}
