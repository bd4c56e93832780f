import * as path from 'node:path';
import { parseIntField } from '@bench/validation';
import { selectCases } from './cases';
import { callDeadlineMs, DEADLINE_RULE } from './deadlines';
import { TRANSPORTS, type CaseRecord, type PlannedCase, type Transport } from './model';
import { PROFILES, type Profile } from './profiles';
import { findProfile, loadProfiles, ProfileError, type NetworkProfile } from './network';
import { selectVariants, type VariantRecord } from './variants';

/** Everything a run needs to know, validated once here at the edge. */
export interface BenchOptions {
  profile: Profile;
  /** Network profiles to run across, one after the other (network/profiles.ts); default loopback. */
  networks: NetworkProfile[];
  /** Configurations to run, each with its own three processes, one after the other. */
  variants: VariantRecord[];
  /** Whether --variants was given (with --client-url the client's own variant is used, and must match it). */
  variantsGiven: boolean;
  cases: CaseRecord[];
  transports: Transport[];
  /** --runs: overrides every case's timed repetitions. */
  runs: number | null;
  warmup: number;
  warmupMs: number;
  /** Re-warm per transport when a visit finds its fork warm: the profile's, never longer than warmupMs. */
  rewarmMs: number;
  settleMs: number;
  /** --forks: overrides every case's forks (0 with --client-url: the bench cannot restart that client). */
  forks: number | null;
  /** --visits: overrides every case's visits. */
  visits: number | null;
  /** --deadline-ms: overrides every call's deadline (deadlines.ts derives it from the case). */
  deadlineMs: number | null;
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

const NETWORK_NAMES = loadProfiles()
  .map((p) => p.name)
  .join(', ');

export const USAGE = `Usage: npx nx run bench:all [options]

Runs the blog's cases for JSON over HTTP (server-a) and gRPC (server-b) through the client app and
writes results/<UTC timestamp>/results.json and results.md.

Options:
  --profile quick|default   defaults for cases, runs and warm-up (default: default)
  --cases IDS               comma-separated case ids or aliases: ①-1 (1-1), ①-2 (1-2), ①-3 (1-3),
                            ②-1 (2-1), ②-2 (2-2), ②-3 (2-3), 20k×4 (20kx4), and the payload endpoints'
                            cases (tools/bench/src/payload-cases.ts, e.g. orders-1k)
  --transports LIST         json,grpc (default: both)
  --network LIST            network profiles to run across, one after the other: ${NETWORK_NAMES}
                            (default: loopback; the others put client and servers in network
                            namespaces with a delay, rate and loss: root, iptables; docs/network.md)
  --variants LIST           blog,tuned,blog-window,bare,go (default: blog): the blog's Nest apps, the tuned
                            Nest apps, the blog's with only the gRPC HTTP/2 window raised, the same calls
                            with no framework, a Go reference (skipped where Go is missing)
  --runs N                  timed repetitions per case (default: 100; ①-2: 300; ②-2: 600; ②-3: 30;
                            20k×4: 50; ①-3: 9; quick: 3)
  --warmup N                untimed calls per case and transport before timing, at least (default: 1)
  --warmup-ms MS            and go on warming up until MS ms have passed: V8 needs tens of calls to
                            optimize the small cases (default: 3000; quick: 0)
  --settle-ms N             idle ms before each timed call, letting GC and socket teardown finish (default: 0)
  --forks N                 sets of new apps per case, each kept up (idle between visits) until the case's
                            last visit, so no case inherits another's heaps; 0: one set of apps per
                            variant serves every case (default: 2; ①-3: 1; quick and --client-url: 0)
  --visits N                split each case's runs over N visits spread evenly over the run and dealt to
                            its forks in turn; a fork's first visit makes the cold call and warm-up, later
                            ones re-warm for 500 ms per transport (default: 10; ①-3: 1; quick: 1)
  --deadline-ms MS          deadline of every call, after which it fails as DEADLINE_EXCEEDED (default: from
                            the case, ${DEADLINE_RULE.floorMs / 1000} s + ${DEADLINE_RULE.perRowMs * 1000} µs per row moved: ①-1 ${DEADLINE_RULE.floorMs / 1000} s, ①-3 ${(DEADLINE_RULE.floorMs + DEADLINE_RULE.perRowMs * 1e6) / 1000} s)
  --out DIR                 parent folder of the run folders (default: results)
  --client-url URL          use a running client (e.g. under docker-compose) instead of starting the apps;
                            the run is labelled with the variant the client reports (--variants must match it)
  --pin                     pin client, server-a and server-b to cores 0, 1, 2 with taskset (needs ≥ 4 cores)
  --help                    this text
`;

const FLAGS = new Set(['profile', 'network', 'cases', 'transports', 'variants', 'runs', 'warmup', 'warmup-ms', 'settle-ms', 'forks', 'visits', 'deadline-ms', 'out', 'client-url', 'pin', 'help']);
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

function count(name: string, raw: string | undefined, min: number, max = 100_000): number | null {
  if (raw === undefined) return null;
  const result = parseIntField(`--${name}`, raw, { min, max });
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
    throw new UsageError('--client-url drives one running client, so it takes one variant (or none: the client says which it is)');
  }
  if (clientUrl !== null && !/^https?:\/\/[^/\s]+\/?$/.test(clientUrl)) {
    throw new UsageError(`--client-url must look like http://host:port, got ${JSON.stringify(clientUrl)}`);
  }

  const forks = count('forks', flags.get('forks'), 0);
  if (forks !== null && forks > 0 && clientUrl !== null) {
    throw new UsageError('--forks starts new apps for each case, which --client-url (apps the bench did not start) rules out; use --forks 0');
  }

  let networks: NetworkProfile[];
  try {
    networks = (flags.has('network') ? list(flags.get('network')!) : ['loopback']).map((name) => findProfile(name));
  } catch (error) {
    if (error instanceof ProfileError) throw new UsageError(error.message);
    throw error;
  }
  if (networks.length === 0) throw new UsageError('--network selected no profile');
  if (clientUrl !== null && networks.some((n) => n.topology !== 'loopback')) {
    throw new UsageError('--network places the apps the bench starts; with --client-url the apps are yours (their path is measured as it is)');
  }

  const warmupMs = count('warmup-ms', flags.get('warmup-ms'), 0) ?? profile.warmupMs;
  return {
    profile,
    networks,
    variants,
    variantsGiven: flags.has('variants'),
    cases,
    transports: TRANSPORTS.filter((t) => transports.includes(t)),
    runs: count('runs', flags.get('runs'), 1),
    warmup: count('warmup', flags.get('warmup'), 0) ?? profile.warmup,
    warmupMs,
    rewarmMs: Math.min(profile.rewarmMs, warmupMs),
    settleMs: count('settle-ms', flags.get('settle-ms'), 0) ?? profile.settleMs,
    forks: forks ?? (clientUrl !== null ? 0 : null),
    visits: count('visits', flags.get('visits'), 1),
    deadlineMs: count('deadline-ms', flags.get('deadline-ms'), 1, 3_600_000),
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
 * Per variant, the visits of its cases spread evenly over the run: visit v of a case with V visits sits
 * at (v − ½)/V of the way through, so cases with equal visits go round-robin (every case's visit 1 in
 * the blog's order, then every case's visit 2, …) and a case with one visit lands mid-run. Each visit
 * has its share of the runs and goes to fork ((v − 1) mod forks) + 1; a fork's first visit is cold.
 */
export function planCases(options: BenchOptions): PlannedCase[] {
  return options.networks.flatMap((network) => planVariants(options, network));
}

function planVariants(options: BenchOptions, network: NetworkProfile): PlannedCase[] {
  const { profile } = options;
  return options.variants.flatMap((variant) => {
    const visits = options.cases.flatMap((record, caseIndex) => {
      const runs = options.runs ?? (profile.caseDefaults ? record.defaultRuns : undefined) ?? profile.runs;
      const own = <T>(value: T | undefined) => (profile.caseDefaults ? value : undefined);
      // Never more visits than runs (a visit without a timed run would only cost time), nor more forks than visits.
      const visitCount = Math.min(runs, options.visits ?? own(record.defaultVisits) ?? profile.visits);
      const forks = Math.min(visitCount, options.forks ?? own(record.defaultForks) ?? profile.forks);
      const shares = splitRuns(runs, visitCount);
      return shares.map((share, i) => {
        const fork = forks === 0 ? 0 : (i % forks) + 1;
        const cold = i < Math.max(1, forks);
        const planned: PlannedCase = {
          network: network.name,
          variant: variant.id,
          record,
          transports: [...options.transports],
          warmup: options.warmup,
          cold,
          warmupMs: cold ? options.warmupMs : options.rewarmMs,
          settleMs: options.settleMs,
          runs: share,
          forks,
          fork,
          visits: visitCount,
          visit: i + 1,
          firstPosition: shares.slice(0, i).reduce((a, b) => a + b, 0) * options.transports.length,
          deadlineMs: callDeadlineMs(record, options.deadlineMs, 2 * network.oneWayDelayMs),
        };
        return { planned, at: (i + 0.5) / visitCount, caseIndex };
      });
    });
    visits.sort((a, b) => a.at - b.at || a.caseIndex - b.caseIndex);
    return visits.map((v) => v.planned);
  });
}

/** Which set of apps serves a visit: the case's fork, or with no forks the variant's one set (per network). */
export function appSetKey(planned: PlannedCase): string {
  const where = planned.network === 'loopback' ? '' : `${planned.network}:`;
  return where + (planned.forks === 0 ? planned.variant : `${planned.variant}/${planned.record.id}#${planned.fork}`);
}

/** For each set of apps, the plan index of the last visit it serves: after that visit it can stop. */
export function lastVisitOfAppSet(plan: readonly PlannedCase[]): Map<string, number> {
  const last = new Map<string, number>();
  plan.forEach((planned, index) => last.set(appSetKey(planned), index));
  return last;
}
