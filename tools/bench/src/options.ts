import * as path from 'node:path';
import { parseIntField } from '@bench/validation';
import { selectCases } from './cases';
import { TRANSPORTS, type CaseRecord, type PlannedCase, type Transport } from './model';
import { PROFILES, type Profile } from './profiles';
import { selectVariants, type VariantRecord } from './variants';

/** Everything a run needs to know, validated once here at the edge. */
export interface BenchOptions {
  profile: Profile;
  /** Configurations to run, each with its own three processes, one after the other. */
  variants: VariantRecord[];
  cases: CaseRecord[];
  transports: Transport[];
  /** --runs: overrides every case's timed repetitions. */
  runs: number | null;
  warmup: number;
  warmupMs: number;
  settleMs: number;
  /** --forks: overrides every case's forks (0 with --client-url: the bench cannot restart that client). */
  forks: number | null;
  /** Parent folder of the run folders. */
  out: string;
  /** An already-running client; when null the bench starts the three apps itself. */
  clientUrl: string | null;
  /** Pin the client and each server to cores of their own (needs ≥ 4 cores and taskset). */
  pin: boolean;
  help: boolean;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage: npx nx run bench:all [options]

Runs the blog's cases for JSON over HTTP (server-a) and gRPC (server-b) through the client app and
writes results/<UTC timestamp>/results.json and results.md.

Options:
  --profile quick|default   defaults for cases, runs and warm-up (default: default)
  --cases IDS               comma-separated case ids or aliases: ①-1 (1-1), ①-2 (1-2), ①-3 (1-3),
                            ②-1 (2-1), ②-2 (2-2), ②-3 (2-3), 20k×4 (20kx4), and the payload endpoints'
                            cases (tools/bench/src/payload-cases.ts, e.g. orders-1k)
  --transports LIST         json,grpc (default: both)
  --variants LIST           blog,tuned,bare,go (default: blog): the blog's Nest apps, the tuned Nest apps,
                            the same calls with no framework, a Go reference (skipped where Go is missing)
  --runs N                  timed repetitions per case (default: 60; ②-3: 30; 20k×4: 50; ①-3: 5; quick: 3)
  --warmup N                untimed calls per case and transport before timing, at least (default: 1)
  --warmup-ms MS            and go on warming up until MS ms have passed: V8 needs tens of calls to
                            optimize the small cases (default: 3000; quick: 0)
  --settle-ms N             idle ms before each timed call, letting GC and socket teardown finish (default: 0)
  --forks N                 split each case's runs over N visits, each on new apps, round-robin over the
                            cases, so no case inherits another's heaps and each case's samples spread
                            over the whole run; 0: one set of apps per variant, one visit per case
                            (default: 3; ①-3: 1; quick and --client-url: 0)
  --out DIR                 parent folder of the run folders (default: results)
  --client-url URL          use a running client (e.g. under docker-compose) instead of starting the apps
  --pin                     pin client, server-a and server-b to cores 0, 1, 2 with taskset (needs ≥ 4 cores)
  --help                    this text
`;

const FLAGS = new Set(['profile', 'cases', 'transports', 'variants', 'runs', 'warmup', 'warmup-ms', 'settle-ms', 'forks', 'out', 'client-url', 'pin', 'help']);
const SWITCHES = new Set(['pin', 'help']);

/** Reads `--name value` and `--name=value` (Nx forwards options in the second form). */
function readFlags(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument ${JSON.stringify(arg)}`);
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (!FLAGS.has(name)) throw new UsageError(`unknown option --${name}`);
    if (SWITCHES.has(name)) {
      flags.set(name, 'true');
      continue;
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    flags.set(name, value);
  }
  return flags;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function count(name: string, raw: string | undefined, min: number): number | null {
  if (raw === undefined) return null;
  const result = parseIntField(`--${name}`, raw, { min, max: 100_000 });
  if (!result.ok) throw new UsageError(result.error.message);
  return result.value;
}

export function parseOptions(argv: readonly string[], cwd: string = process.cwd()): BenchOptions {
  const flags = readFlags(argv);
  const profileName = flags.get('profile') ?? 'default';
  const profile = PROFILES[profileName];
  if (!profile) throw new UsageError(`unknown profile ${JSON.stringify(profileName)}; use ${Object.keys(PROFILES).join(' or ')}`);

  let cases: CaseRecord[];
  try {
    cases = selectCases(flags.has('cases') ? list(flags.get('cases')!) : profile.cases);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (cases.length === 0) throw new UsageError('--cases selected no case');

  const transports = flags.has('transports') ? list(flags.get('transports')!) : [...TRANSPORTS];
  const badTransport = transports.find((t) => !TRANSPORTS.includes(t as Transport));
  if (badTransport !== undefined || transports.length === 0) {
    throw new UsageError(`--transports must list json and/or grpc, got ${JSON.stringify(flags.get('transports'))}`);
  }

  let variants: VariantRecord[];
  try {
    variants = selectVariants(flags.has('variants') ? list(flags.get('variants')!) : ['blog']);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (variants.length === 0) throw new UsageError('--variants selected no variant');
  const payloadCase = cases.find((c) => c.payload !== undefined);
  const plainVariant = variants.find((v) => !v.servesPayloads);
  if (payloadCase && plainVariant) {
    // The bare and Go clients would not know the endpoint (Go would even run the blog rows instead).
    throw new UsageError(`case ${payloadCase.id} calls a payload endpoint, which only the Nest apps serve (variants blog, tuned), not ${plainVariant.id}`);
  }

  const clientUrl = flags.get('client-url') ?? null;
  if (clientUrl !== null && variants.length > 1) {
    throw new UsageError('--client-url drives one running client, so it takes one variant (or none: it is recorded as given)');
  }
  if (clientUrl !== null && !/^https?:\/\/[^/\s]+\/?$/.test(clientUrl)) {
    throw new UsageError(`--client-url must look like http://host:port, got ${JSON.stringify(clientUrl)}`);
  }

  const forks = count('forks', flags.get('forks'), 0);
  if (forks !== null && forks > 0 && clientUrl !== null) {
    throw new UsageError('--forks starts new apps for every visit of a case, which --client-url (apps the bench did not start) rules out; use --forks 0');
  }

  return {
    profile,
    variants,
    cases,
    transports: TRANSPORTS.filter((t) => transports.includes(t)),
    runs: count('runs', flags.get('runs'), 1),
    warmup: count('warmup', flags.get('warmup'), 0) ?? profile.warmup,
    warmupMs: count('warmup-ms', flags.get('warmup-ms'), 0) ?? profile.warmupMs,
    settleMs: count('settle-ms', flags.get('settle-ms'), 0) ?? profile.settleMs,
    forks: forks ?? (clientUrl !== null ? 0 : null),
    out: path.resolve(cwd, flags.get('out') ?? 'results'),
    clientUrl: clientUrl?.replace(/\/$/, '') ?? null,
    pin: flags.has('pin'),
    help: flags.has('help'),
  };
}

/** `runs` split over `visits` as evenly as possible, larger shares first (60 over 3: 20, 20, 20; 5 over 3: 2, 2, 1). */
export function splitRuns(runs: number, visits: number): number[] {
  return Array.from({ length: visits }, (_, i) => Math.floor(runs / visits) + (i < runs % visits ? 1 : 0));
}

/**
 * Per variant, the visits of its cases: with forks, round-robin (every case's fork 1 in the blog's
 * order, then every case's fork 2, …), each with its share of the runs; without, one visit per case.
 */
export function planCases(options: BenchOptions): PlannedCase[] {
  const { profile } = options;
  return options.variants.flatMap((variant) => {
    const cases = options.cases.map((record) => {
      const runs = options.runs ?? (profile.caseDefaults ? record.defaultRuns : undefined) ?? profile.runs;
      // Never more forks than runs: a fork without a timed run would only cost time.
      const forks = Math.min(runs, options.forks ?? (profile.caseDefaults ? record.defaultForks : undefined) ?? profile.forks);
      return { record, runs, forks, shares: splitRuns(runs, Math.max(1, forks)) };
    });
    const rounds = Math.max(...cases.map((c) => c.shares.length));
    const plan: PlannedCase[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const { record, forks, shares } of cases.filter((c) => round < c.shares.length)) {
        plan.push({
          variant: variant.id,
          record,
          transports: [...options.transports],
          warmup: options.warmup,
          warmupMs: options.warmupMs,
          settleMs: options.settleMs,
          runs: shares[round],
          forks,
          fork: forks === 0 ? 0 : round + 1,
          firstPosition: shares.slice(0, round).reduce((a, b) => a + b, 0) * options.transports.length,
        });
      }
    }
    return plan;
  });
}

/**
 * The plan cut into the stretches one set of apps serves, in plan order: each fork on apps of its own;
 * visits without forks share one set per variant (a variant's apps never serve another variant).
 */
export function groupByApps(plan: readonly PlannedCase[]): PlannedCase[][] {
  const groups: PlannedCase[][] = [];
  for (const planned of plan) {
    const last = groups[groups.length - 1];
    const sameApps = planned.forks === 0 && last && last[0].forks === 0 && last[0].variant === planned.variant;
    if (sameApps) last.push(planned);
    else groups.push([planned]);
  }
  return groups;
}
