// bench:service ("Behind a Service", issue #35): N replicas of server-a and server-b on the network
// stage's server side, each with a CPU limit, reached through each balancing strategy, under load at
// fixed rates up to saturation; per-replica shares from the replicas' own counters.
import type { OptionTable } from '../../cli';
import { parseCpuLimit, usesStage } from '../../network/stage';
import { ALL_SERVICE_TRANSPORTS, BALANCING_STRATEGIES, isBrokered, parseRecoveries, RECOVERY_NAMES, RECOVERY_TUNINGS, recoveryOptionHelp, recoveryRecords, ReplicaSet, SERVICE_TRANSPORTS, type ServiceTransport } from '../../network/service';
import { brokersCannotRun } from '../../run';
import type { SuiteOptionsSpec } from '../common/args';
import { suiteMain, type SuiteDefinition } from '../common/suite-main';
import { measureService, parseStrategies, type ServiceResults, type ServiceSettings } from './measure';
import { HTTP_CONNECTIONS, MAX_IN_FLIGHT, RATE_SWEEP, SATURATION, SERVICE_PORTS, SERVICE_ROWS } from './plan';
import { renderServiceHtml, renderServiceMarkdown } from './render';
import { faultsCsv, faultTimelineCsv } from './render-faults';
import { recoveryCsv } from './render-recovery';
import { FAULT_NAMES, FAULT_SCHEDULE, FAULTS, faultOptionHelp, parseFaults, type Fault } from './faults';

const EXTRA_OPTIONS: OptionTable = {
  replicas: { kind: 'int', value: 'N', min: 1, max: 20, default: 3, description: 'replicas of server-a and server-b, each in a namespace of its own with its own address' },
  'cpu-limit': { kind: 'text', value: 'CPU', default: 'none', description: 'CPU limit of each replica (a CPU cgroup, v1 or v2): 500m, 1, 1.5; none for no limit' },
  balance: {
    kind: 'list',
    value: 'LIST',
    choices: BALANCING_STRATEGIES.map((s) => s.name),
    default: BALANCING_STRATEGIES.map((s) => s.name),
    description: 'balancing strategies (network/service/balancing.ts), each run with every transport it applies to',
  },
  rates: { kind: 'list', value: 'LIST', description: 'offered rates, calls per second, lowest first (default: the profile\'s sweep in suites/service/plan.ts)' },
  transports: {
    kind: 'list',
    value: 'LIST',
    choices: [...ALL_SERVICE_TRANSPORTS],
    default: [...SERVICE_TRANSPORTS],
    description: "transports offered load, each behind every strategy it applies to: nest-tcp like gRPC (l4, dns-round-robin); the brokered nest-* behind the broker strategy (their brokers start in the stage's broker namespace)",
  },
  fault: { kind: 'list', value: 'LIST', choices: FAULT_NAMES, description: faultOptionHelp() },
  recovery: { kind: 'list', value: 'LIST', choices: [...RECOVERY_NAMES], description: recoveryOptionHelp() },
  'recovery-rates': { kind: 'list', value: 'LIST', description: "--recovery's steady runs (no fault): offered rates, calls/s (default: --fault-rate)" },
};

export const SERVICE_SPEC: SuiteOptionsSpec<ServiceSettings> = {
  suite: 'service',
  about:
    'Behind a Service: --replicas N of server-a and server-b on the network stage, each with --cpu-limit, reached\n' +
    'through each --balance strategy (or, for the brokered --transports, a broker every replica subscribes to),\n' +
    'under load at fixed rates (open loop) up to saturation; with --fault, each fault injected under a steady rate\n' +
    'and what the callers saw until they were whole again; with --recovery, each recovery tuning alone (and all),\n' +
    'under every fault and in steady state;\n' +
    'writes results/service-<UTC timestamp>/.',
  options: {
    stepMs: { description: 'load at each offered rate, ms', min: 200, max: 600_000 },
    warmupMs: { description: 'load at the lowest rate before the sweep, ms', min: 0, max: 60_000 },
    drainMs: { description: 'how long calls still in flight after a step are waited for, ms', min: 100, max: 60_000 },
    deadlineMs: { description: 'deadline of each call, ms', min: 100, max: 120_000 },
    changeRate: { description: 'offered rate while a replica joins and one leaves, calls/s (0: no change-under-load runs)', min: 0, max: 100_000 },
    changePhaseMs: { description: 'each phase of a change-under-load run (steady, joined, left), ms', min: 500, max: 600_000 },
    faultRate: { description: 'offered rate of the fault runs (--fault), calls/s', min: 1, max: 100_000 },
    faultPhaseMs: { description: 'each phase of a fault run (steady, the fault, after it was undone), ms', min: 500, max: 600_000 },
  },
  presets: {
    default: { stepMs: 5_000, warmupMs: 2_000, drainMs: 5_000, deadlineMs: 10_000, changeRate: 200, changePhaseMs: 5_000, faultRate: 200, faultPhaseMs: 5_000 },
    quick: { stepMs: 1_000, warmupMs: 500, drainMs: 3_000, deadlineMs: 5_000, changeRate: 40, changePhaseMs: 2_000, faultRate: 40, faultPhaseMs: 2_000 },
  },
  extraOptions: EXTRA_OPTIONS,
};

const rates = (extras: Record<string, unknown>, profile: 'default' | 'quick'): number[] => {
  const given = extras.rates as string[] | undefined;
  if (!given || given.length === 0) return [...RATE_SWEEP[profile]];
  const parsed = given.map(Number);
  if (parsed.some((r) => !Number.isInteger(r) || r < 1 || r > 100_000)) throw new Error(`--rates: whole calls per second from 1 to 100000 (got ${given.join(',')})`);
  return parsed;
};
const recoveryRates = (extras: Record<string, unknown>): number[] | undefined => {
  const given = extras['recovery-rates'] as string[] | undefined;
  if (!given || given.length === 0) return undefined;
  const parsed = given.map(Number);
  if (parsed.some((r) => !Number.isInteger(r) || r < 1 || r > 100_000)) throw new Error(`--recovery-rates: whole calls per second from 1 to 100000 (got ${given.join(',')})`);
  return parsed;
};
const transportsOf = (extras: Record<string, unknown>): ServiceTransport[] => [...new Set(extras.transports as ServiceTransport[])];

/** Why these transports and strategies cannot run together (no pair applies, TLS to a Nest transport, a broker not installed), or null. */
export function transportsCannotRun(transports: readonly ServiceTransport[], balance: readonly string[], secure: boolean): string | null {
  const strategies = BALANCING_STRATEGIES.filter((s) => balance.includes(s.name));
  if (!strategies.some((s) => transports.some((t) => !s.notFor[t]))) {
    return `--balance ${balance.join(',')} with --transports ${transports.join(',')}: no strategy applies to any transport (${strategies.flatMap((s) => transports.map((t) => `${s.name} × ${t}: ${s.notFor[t]}`)).join('; ')})`;
  }
  const nest = transports.filter((t) => t.startsWith('nest-'));
  if (secure && nest.length > 0) return `--transports ${nest.join(',')}: Nest's TCP transport and the brokers run in plaintext only here; run them with --security plain`;
  return brokersCannotRun(transports.filter(isBrokered));
}
/** Why none of the faults asked for applies to any strategy × transport of the run (each says why), or null. */
export function faultsCannotRun(faults: readonly Fault[], transports: readonly ServiceTransport[], balance: readonly string[]): string | null {
  const pairs = BALANCING_STRATEGIES.filter((s) => balance.includes(s.name)).flatMap((s) => transports.filter((t) => !s.notFor[t]).map((t) => [s, t] as const));
  const unused = faults.filter((f) => pairs.every(([s, t]) => f.notFor(s, t)));
  if (unused.length === 0) return null;
  return `--fault ${unused.map((f) => f.name).join(',')}: applies to none of the run's strategies and transports (${unused.map((f) => `${f.name}: ${pairs.map(([s, t]) => f.notFor(s, t)).filter((why, i, all) => all.indexOf(why) === i).join('; ')}`).join(' | ')})`;
}
/** Why a recovery tuning asked for changes none of the run's strategies and transports, or null. */
export function recoveriesCannotRun(names: readonly string[] | undefined, transports: readonly ServiceTransport[], balance: readonly string[]): string | null {
  const asked = parseRecoveries(names);
  const unused = RECOVERY_TUNINGS.filter((t) => asked.includes(t.id) && !balance.some((s) => t.strategies.includes(s as never) && transports.some((tr) => t.transport.includes(tr))));
  if (unused.length === 0) return null;
  return `--recovery ${unused.map((t) => t.id).join(',')}: changes none of the run's strategies and transports (${unused.map((t) => `${t.id}: ${t.transport} under ${t.strategies.join(', ')}`).join('; ')})`;
}
const millicores = (extras: Record<string, unknown>) => (extras['cpu-limit'] === 'none' ? null : parseCpuLimit(String(extras['cpu-limit'])));

export const SERVICE_SUITE: SuiteDefinition<ServiceSettings, ServiceResults> = {
  spec: SERVICE_SPEC,
  needsServers: false,
  usesStage: true,
  securesOwnApps: true,
  nestTransports: (extras) => transportsOf(extras).filter((t) => t.startsWith('nest-')),
  checkArgs: (args, networks) => {
    if (networks.some((n) => !usesStage(n))) return `--network: replicas live in namespaces of the network stage; ${networks.filter((n) => !usesStage(n)).map((n) => n.name).join(', ')} has none (use veth for no delay)`;
    const wrong = transportsCannotRun(transportsOf(args.extras), args.extras.balance as string[], args.securities.some((s) => s.tls));
    if (wrong) return wrong;
    const noFault = faultsCannotRun(parseFaults(args.extras.fault as string[] | undefined), transportsOf(args.extras), args.extras.balance as string[]);
    if (noFault) return noFault;
    const noRecovery = recoveriesCannotRun(args.extras.recovery as string[] | undefined, transportsOf(args.extras), args.extras.balance as string[]);
    if (noRecovery) return noRecovery;
    try {
      rates(args.extras, args.preset);
      recoveryRates(args.extras);
      if (millicores(args.extras) !== null) {
        const why = ReplicaSet.limitUnavailable();
        if (why) return `--cpu-limit: ${why}`;
      }
    } catch (error) {
      return (error as Error).message;
    }
    return null;
  },
  plan: () => ({ strategies: BALANCING_STRATEGIES, faults: FAULTS /* notFor, a function, is left out of results.json */, recoveryTunings: recoveryRecords(), faultSchedule: FAULT_SCHEDULE, ports: SERVICE_PORTS, rows: SERVICE_ROWS, httpConnections: HTTP_CONNECTIONS, rates: RATE_SWEEP, saturation: SATURATION, maxInFlight: MAX_IN_FLIGHT }),
  run: (context) =>
    measureService(
      context.stage!,
      context.runDir,
      { replicas: context.extras.replicas as number, millicores: millicores(context.extras), strategies: parseStrategies(context.extras.balance as string[]), rates: rates(context.extras, context.preset), security: context.security, transports: transportsOf(context.extras), profiling: context.profiling, faults: parseFaults(context.extras.fault as string[] | undefined), recoveries: parseRecoveries(context.extras.recovery as string[] | undefined), recoveryRates: recoveryRates(context.extras) },
      context.settings,
      context.addProvenance,
      context.progress as (line: string, partial: ServiceResults) => void,
    ),
  failure: (results) => (results.failures.length ? `${results.failures.length} strategy × transport sweep(s) failed` : null),
  markdown: renderServiceMarkdown,
  html: renderServiceHtml,
  files: [
    { file: 'faults.csv', render: (doc) => faultsCsv(doc.results) },
    { file: 'fault-timeline.csv', render: (doc) => faultTimelineCsv(doc.results) },
    { file: 'recovery.csv', render: (doc) => recoveryCsv(doc.results) },
  ],
};

if (require.main === module) suiteMain(SERVICE_SUITE);
