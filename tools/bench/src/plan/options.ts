import { helpText, parseCommandLine, UsageError, type Command, type CommandLine, errorText } from '../cli';
import { MAX_RUN_CALLS, MAX_RUN_ROWS, overRunLimits } from '@bench/harness';
import { CASES, selectCases } from './cases';
import { DEADLINE_RULE } from './deadlines';
import { BLOG_TRANSPORTS, TRANSPORTS, type CaseRecord, type Transport } from '../model';
import { PRESETS, type Preset } from './presets';
import type { PathProfile } from '../network/path';
import { TUNINGS, type SecurityRecord } from '@bench/config';
import { ablationIds, selectVariants, servedTransports, VARIANTS, type VariantRecord } from './variants';
import { DEFAULT_RUNTIME, type RuntimeRecord } from './runtimes';
import { CPU_PROFILE_OPTION, profileOption, runAxesOf, RUN_OPTIONS, type RunAxes } from './run-options';

/** Everything a run needs to know, validated once here at the edge. */
export interface BenchOptions {
  preset: Preset;
  /** Network or path profiles to run across, one after the other (network/stage/profiles.ts, network/path/path.ts); default loopback. Cells are keyed by the path's name. */
  networks: PathProfile[];
  /** Node runtimes to run on (--node; runtimes.ts), each with its own sets of apps, one after the other. */
  runtimes: RuntimeRecord[];
  /** What the connections between the services are wrapped in (--security; libs/config SECURITY_MODES), one after the other. */
  securities: SecurityRecord[];
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
  /** Re-warm per transport when a visit finds its fork warm: the preset's, never longer than warmupMs. */
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
  /** --cpu-profile: each app profiled over the timed calls (run/cpu-profiles.ts). */
  cpuProfile: boolean;
  help: boolean;
}

export { UsageError };

/** A default that depends on --profile, from the presets themselves: `2000 (profile default); 3000 (thorough); 0 (quick)`. */
function perPreset(value: (preset: Preset) => string | number): string {
  const byValue = new Map<string, string[]>();
  for (const preset of Object.values(PRESETS)) byValue.set(String(value(preset)), [...(byValue.get(String(value(preset))) ?? []), preset.name]);
  if (byValue.size === 1) return [...byValue.keys()][0];
  return [...byValue].map(([shown, names], i) => `${shown} (${i === 0 ? 'profile ' : ''}${names.join(', ')})`).join('; ');
}

/** A preset's number with the cases that have their own (`100 (①-2: 300, ①-3: 9)`), where the preset honours them. */
function withCaseDefaults(preset: Preset, value: number, own: (record: CaseRecord) => number | undefined): string {
  if (!preset.caseDefaults) return String(value);
  const exceptions = selectCases(preset.cases).filter((c) => own(c) !== undefined && own(c) !== value);
  return exceptions.length ? `${value} (${exceptions.map((c) => `${c.id}: ${own(c)}`).join(', ')})` : String(value);
}

function runsOf(preset: Preset): string {
  const runs = withCaseDefaults(preset, preset.runs, (c) => c.defaultRuns);
  if (preset.budgetMs === null) return runs;
  return `at most ${runs}, until ${preset.budgetMs / 1000} s of timed calls per case are spent (at least ${preset.minRunsPerVisit} per visit)`;
}

/** bench:all's options: the parser reads them, the help is generated from them, defaults from the data the run uses. */
const BENCH_ALL_OPTIONS = {
  profile: profileOption(Object.values(PRESETS)),
  ...RUN_OPTIONS,
  cases: {
    kind: 'list',
    value: 'IDS',
    description: `comma-separated case ids or aliases: ${CASES.map((c) => (c.aliases.length ? `${c.id} (${c.aliases[0]})` : c.id)).join(', ')}`,
    defaultText: perPreset((p) => p.cases.join(',')),
  },
  transports: { kind: 'list', value: 'LIST', default: BLOG_TRANSPORTS, description: `which transports to run, of ${TRANSPORTS.join(', ')} (docs/decomposition.md); the Nest variants serve all, bare and go the first two` },
  variants: {
    kind: 'list',
    value: 'LIST',
    defaultText: 'blog',
    description: `configurations to run, one after the other, each with its own apps: ${VARIANTS.map((v) => `${v.id}: ${v.description}`).join('; ')}`,
  },
  ablate: {
    kind: 'list',
    value: 'IDS',
    defaultText: 'none',
    description:
      `also run tuned with each of these tunings switched off in turn (tuned-without-<id>) and blog with each switched on ` +
      `(blog-with-<id>), for the bases in --variants, on the transports each tuning changes; all: every tuning of ` +
      `${TUNINGS.map((t) => t.id).join(', ')} (docs/variants.md, "Ablation")`,
  },
  runs: {
    kind: 'int',
    value: 'N',
    min: 1,
    max: 100_000,
    description: 'exactly N timed repetitions per case, no time budget',
    defaultText: perPreset(runsOf),
  },
  warmup: { kind: 'int', value: 'N', min: 0, max: 100_000, description: 'untimed calls per case and transport before timing, at least', defaultText: perPreset((p) => p.warmup) },
  'warmup-ms': {
    kind: 'int',
    value: 'MS',
    min: 0,
    max: 100_000,
    description: 'and go on warming up until MS ms have passed: V8 needs tens of calls to optimize the small cases',
    defaultText: perPreset((p) => p.warmupMs),
  },
  'settle-ms': { kind: 'int', value: 'MS', min: 0, max: 100_000, description: 'idle ms before each timed call, letting GC and socket teardown finish', defaultText: perPreset((p) => p.settleMs) },
  forks: {
    kind: 'int',
    value: 'N',
    min: 0,
    max: 100_000,
    description:
      "sets of new apps per case, each kept up (idle between visits) until the case's last visit, so no case inherits another's heaps; " +
      '0: one set of apps per variant serves every case (always with --client-url)',
    defaultText: perPreset((p) => withCaseDefaults(p, p.forks, (c) => c.defaultForks)),
  },
  visits: {
    kind: 'int',
    value: 'N',
    min: 1,
    max: 100_000,
    description:
      "split each case's runs over N visits spread evenly over the run and dealt to its forks in turn; a fork's first visit makes the cold call " +
      `and warm-up, later ones re-warm per transport for ${perPreset((p) => `${p.rewarmMs} ms`)}`,
    defaultText: perPreset((p) => withCaseDefaults(p, p.visits, (c) => c.defaultVisits)),
  },
  'deadline-ms': {
    kind: 'int',
    value: 'MS',
    min: 1,
    max: 3_600_000,
    description: 'deadline of every call, after which it fails as DEADLINE_EXCEEDED',
    defaultText:
      `from the case, ${DEADLINE_RULE.floorMs / 1000} s + ${DEADLINE_RULE.perRowMs * 1000} µs per row moved: ` +
      `①-1 ${DEADLINE_RULE.floorMs / 1000} s, ①-3 ${(DEADLINE_RULE.floorMs + DEADLINE_RULE.perRowMs * 1e6) / 1000} s`,
  },
  'client-url': {
    kind: 'text',
    value: 'URL',
    description:
      'use a running client (e.g. under docker-compose) instead of starting the apps; the run is labelled with the variant the client reports ' +
      '(--variants must match it)',
  },
  pin: { kind: 'switch', description: 'pin client, server-a and server-b to cores 0, 1, 2 with taskset (needs ≥ 4 cores)' },
  'cpu-profile': CPU_PROFILE_OPTION,
} as const;

export const BENCH_ALL_COMMAND: Command<typeof BENCH_ALL_OPTIONS> = {
  name: 'bench:all',
  synopsis: 'npx nx run bench:all [options]',
  about:
    "Runs the blog's cases for JSON over HTTP (server-a) and gRPC (server-b) through the client app and\n" +
    'writes results/<UTC timestamp>/results.json, results.md, results.csv and report.html.',
  options: BENCH_ALL_OPTIONS,
};

/** bench:all's help, generated from its options. */
export const USAGE = helpText(BENCH_ALL_COMMAND);

/** bench:all's options from its command line (argv as words). */
export function parseOptions(argv: readonly string[], cwd: string = process.cwd()): BenchOptions {
  return optionsOf(parseCommandLine(BENCH_ALL_COMMAND, argv), cwd);
}

/** bench:all's options from its command line as the tool frame (cli/run-tool) parsed it: checked against each other and the data. */
export function optionsOf({ values, help }: CommandLine<typeof BENCH_ALL_OPTIONS>, cwd: string = process.cwd()): BenchOptions {
  const preset = PRESETS[values.profile];
  const cases = casesOf(values.cases ?? preset.cases);
  const transports = transportsOf(values.transports);
  const variants = variantsOf(values.variants, values.ablate ?? [], cases, transports);
  const clientUrl = clientUrlOf(values['client-url'] ?? null, variants);
  const forks = values.forks ?? null;
  if (values['cpu-profile'] && clientUrl !== null) throw new UsageError('--cpu-profile profiles the apps the bench starts, which --client-url rules out');
  if (forks !== null && forks > 0 && clientUrl !== null) {
    throw new UsageError('--forks starts new apps for each case, which --client-url (apps the bench did not start) rules out; use --forks 0');
  }
  const axes = runAxesOf(values, cwd);
  checkAxes(axes, clientUrl);
  const warmup = values.warmup ?? preset.warmup;
  checkRunCap(cases, warmup);
  const warmupMs = values['warmup-ms'] ?? preset.warmupMs;
  return {
    preset,
    networks: axes.networks,
    runtimes: axes.runtimes,
    securities: axes.securities,
    variants,
    variantsGiven: values.variants !== undefined,
    cases,
    transports: TRANSPORTS.filter((t) => transports.includes(t)),
    runs: values.runs ?? null,
    warmup,
    warmupMs,
    rewarmMs: Math.min(preset.rewarmMs, warmupMs),
    settleMs: values['settle-ms'] ?? preset.settleMs,
    forks: forks ?? (clientUrl !== null ? 0 : null),
    visits: values.visits ?? null,
    deadlineMs: values['deadline-ms'] ?? null,
    out: axes.out,
    clientUrl: clientUrl?.replace(/\/$/, '') ?? null,
    pin: values.pin,
    cpuProfile: values['cpu-profile'],
    help,
  };
}

function casesOf(ids: readonly string[]): CaseRecord[] {
  let cases: CaseRecord[];
  try {
    cases = selectCases(ids);
  } catch (error) {
    throw new UsageError(errorText(error));
  }
  if (cases.length === 0) throw new UsageError('--cases selected no case');
  return cases;
}

function transportsOf(transports: readonly string[]): Transport[] {
  const badTransport = transports.find((t) => !TRANSPORTS.includes(t as Transport));
  if (badTransport !== undefined || transports.length === 0) {
    throw new UsageError(`--transports must list some of ${TRANSPORTS.join(', ')}, got ${JSON.stringify(transports.join(','))}`);
  }
  return transports as Transport[];
}

/** --variants and --ablate's variants, each able to serve the transports and cases asked of it. */
function variantsOf(given: readonly string[] | undefined, ablate: readonly string[], cases: readonly CaseRecord[], transports: readonly Transport[]): VariantRecord[] {
  let variants: VariantRecord[];
  try {
    const asked = given ?? ['blog'];
    const tunings = ablate.includes('all') ? TUNINGS.map((t) => t.id) : ablate;
    variants = selectVariants([...asked, ...(tunings.length > 0 ? ablationIds(asked, tunings) : [])]);
  } catch (error) {
    throw new UsageError(errorText(error));
  }
  if (variants.length === 0) throw new UsageError('--variants selected no variant');
  const payloadCase = cases.find((c) => c.payload !== undefined);
  const plainVariant = variants.find((v) => !v.servesPayloads);
  const unserved = variants.flatMap((v) => transports.filter((t) => !servedTransports(v).includes(t)).map((t) => `${t} (${v.id})`));
  if (unserved.length > 0) {
    throw new UsageError(`--transports: ${unserved.join(', ')} not served; the bare and go clients serve only ${BLOG_TRANSPORTS.join(' and ')}`);
  }
  if (payloadCase && plainVariant) {
    // The bare and Go clients would not know the endpoint (Go would even run the blog rows instead).
    throw new UsageError(`case ${payloadCase.id} calls a payload endpoint, which only the Nest apps serve (variants blog, tuned), not ${plainVariant.id}`);
  }
  return variants;
}

function clientUrlOf(clientUrl: string | null, variants: readonly VariantRecord[]): string | null {
  if (clientUrl !== null && variants.length > 1) {
    throw new UsageError('--client-url drives one running client, so it takes one variant (or none: the client says which it is)');
  }
  if (clientUrl !== null && !/^https?:\/\/[^/\s]+\/?$/.test(clientUrl)) {
    throw new UsageError(`--client-url must look like http://host:port, got ${JSON.stringify(clientUrl)}`);
  }
  return clientUrl;
}

/** The axes against --client-url (apps the bench did not start) and each other. */
function checkAxes({ networks, runtimes, securities }: RunAxes, clientUrl: string | null): void {
  if (clientUrl !== null && networks.some((n) => n.network.topology !== 'loopback')) {
    throw new UsageError('--network places the apps the bench starts; with --client-url the apps are yours (their path is measured as it is)');
  }
  if (clientUrl !== null && (runtimes.length > 1 || runtimes[0].name !== DEFAULT_RUNTIME)) {
    throw new UsageError('--node chooses the Node the bench starts the apps on; with --client-url the apps are yours');
  }
  if (clientUrl !== null && securities.some((m) => m.tls)) throw new UsageError('--security tls / mtls makes certificates for the apps the bench starts; with --client-url the apps are yours');
  // A mesh's own security is the sidecars' mTLS: its apps run with plain only (planVisits pairs them so);
  // a selection that leaves a mesh nothing to run is refused.
  const meshed = networks.find((n) => n.features.includes('mesh'));
  if (meshed && !securities.some((s) => !s.tls)) {
    throw new UsageError(`--network ${meshed.name} with --security ${securities.map((s) => s.name).join(',')}: the mesh's sidecars speak mTLS between them and plaintext to the apps (as Istio's do); add plain to --security`);
  }
}

/**
 * The client refuses a /bench/run above MAX_RUN_ROWS (rows × requests × calls) or MAX_RUN_CALLS
 * (requests × calls); the bench's largest is a visit's first, the cold call plus `warmup` warm-up calls.
 * Refused here, before any app starts, rather than as a failed cell per case.
 */
function checkRunCap(cases: readonly CaseRecord[], warmup: number): void {
  const over = cases.map((c) => ({ id: c.id, why: overRunLimits(c.rows, c.requests, 1 + warmup), most: mostWarmup(c) })).filter((c) => c.why !== null);
  if (over.length === 0) return;
  const fewest = Math.min(...over.map((c) => c.most));
  throw new UsageError(
    `--warmup ${warmup}: ${over.map((c) => c.id).join(', ')} would ask the client for (1 cold + ${warmup} warm-up) calls in one /bench/run: ${over[0].why}; ` +
      `use --warmup ${fewest} or less, or leave ${over.length === 1 ? 'that case' : 'those cases'} out`,
  );
}

/** The largest --warmup the case's first /bench/run stays within both caps with. */
function mostWarmup(c: CaseRecord): number {
  return Math.min(Math.floor(MAX_RUN_ROWS / (c.rows * c.requests)), Math.floor(MAX_RUN_CALLS / c.requests)) - 1;
}
