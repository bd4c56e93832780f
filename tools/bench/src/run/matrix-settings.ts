// What bench:all's results.json says about how its run was made (settings): the options, the plan's
// per-case numbers and the rules the run follows, in words, so a reader of the document needs no code.
import { noQuietWaits } from './app-sets';
import { KEEP_WARM_NODE_FLAGS } from './apps';
import { CPU_PROFILE_INTERVAL_US } from './cpu-profiles';
import { DEADLINE_RULE, RESTARTS_PER_SET, type BenchOptions } from '../plan';
import type { BenchSettings, Visit } from '../model';

export function describeSettings(options: BenchOptions, plan: readonly Visit[], startedAt: Date): BenchSettings {
  return {
    startedAt: startedAt.toISOString(),
    preset: options.preset.name,
    runtimes: options.runtimes.map((r) => ({ name: r.name, version: r.version })),
    security: options.securities.map((s) => ({ name: s.name, what: s.what })),
    variants: options.variants.map((v) => ({ id: v.id, description: v.description, mains: v.mains, env: v.env })),
    cases: options.cases.map((c) => c.id),
    transports: options.transports,
    runs: options.runs ?? options.preset.runs,
    runsOverride: options.runs,
    warmup: options.warmup,
    warmupMs: options.warmupMs,
    settleMs: options.settleMs,
    ...(options.cpuProfile ? { cpuProfile: { intervalUs: CPU_PROFILE_INTERVAL_US } } : {}),
    forks: options.forks ?? options.preset.forks,
    forksPerCase: Object.fromEntries(plan.map((p) => [p.record.id, p.forks])),
    visits: options.visits ?? options.preset.visits,
    visitsPerCase: Object.fromEntries(plan.map((p) => [p.record.id, p.visits])),
    rewarmMs: options.rewarmMs,
    // Timed calls per case (all visits and transports) after which a visit stops repeating; null: every run is made.
    budgetMs: options.runs === null ? options.preset.budgetMs : null,
    minRunsPerVisit: options.preset.minRunsPerVisit,
    coldCallPerCase: true,
    order:
      "per case: each transport's cold call and warm-up (at least warmup calls and warmupMs ms), then timed repetitions interleaved in transport order " +
      "(json, grpc, json, grpc, …); sampleOrder gives each sample's position; variants run one after the other; " +
      "each case's runs are split over its visits, spread evenly over the variant's run (round-robin where cases have as many visits) " +
      "and dealt to its forks in turn; each fork is a set of new apps kept up, idle, until its case's last visit (no forks: one set per variant); " +
      "a fork's first visit makes the cold call and the warm-up, later visits re-warm for rewarmMs per transport; before its first call a visit " +
      'waits until the other sets are quiet (quietWaits); Node apps that idle between visits run with keepWarmNodeFlags (startedApps[].nodeFlags); ' +
      'a cell pools its visits (cold: the first visit\'s); with a budget (budgetMs) each visit stops repeating once its timed calls add up to its share ' +
      '(budgetMs / visits, at least minRunsPerVisit repetitions), so runs is a ceiling and results[].runs the repetitions made',
    clientUrl: options.clientUrl,
    startedApps: {},
    quietWaits: noQuietWaits(),
    keepWarmNodeFlags: KEEP_WARM_NODE_FLAGS,
    deadlines: {
      rule:
        `each call: ${DEADLINE_RULE.floorMs} ms + ${DEADLINE_RULE.perRowMs} ms per row it moves (rows × requests) ` +
        `+ ${DEADLINE_RULE.perRowPerRttMs} ms per row per ms of the network profile's RTT, unless --deadline-ms`,
      override: options.deadlineMs,
      perCaseMs: Object.fromEntries(plan.map((p) => [p.record.id, p.deadlineMs])),
    },
    failurePolicy:
      `a set of apps that cannot start, dies or stops answering its readiness check is started again up to ${RESTARTS_PER_SET} time(s) ` +
      '(never with --client-url); the visits it cannot serve are recorded as failed with the reason (results[].failure); ' +
      'a port the system picked that is taken before an app listens on it is picked again (startedApps[].portAttempts)',
    restarts: [],
  };
}
