// The flags every tool that runs an experiment takes (bench:all and each suite), declared once here so
// that they mean the same everywhere and print the same help: --profile names the preset (each tool has
// its own presets, as data), --out the results folder, --node, --network and --security the axes the
// run frame (run/experiment.ts) walks. test/plan/run-options.spec.ts fails on a second declaration.
import * as path from 'node:path';
import { UsageError, errorText, type OptionValues, type TextOption } from '../cli';
import { loadProfiles, ProfileError } from '../network/stage';
import { findPath, PATH_FEATURES, PathProfileError, type PathProfile } from '../network/path';
import { SECURITY_MODES, type SecurityRecord } from '@bench/config';
import { DEFAULT_RUNTIME, RUNTIMES, selectRuntimes, type RuntimeRecord } from './runtimes';

/** A tool's preset as --profile's help lists it. */
export interface PresetName {
  name: string;
  /** One line for --help; absent when the preset is only its numbers (the suites'). */
  description?: string;
}

/** --profile: the name of one of the tool's presets (its own data), a set of defaults the other flags override. */
export function profileOption(presets: readonly PresetName[]): TextOption & { default: string } {
  const listed = presets.map((p) => (p.description ? `${p.name}: ${p.description}` : p.name)).join(presets.some((p) => p.description) ? '; ' : ', ');
  return { kind: 'text', value: 'NAME', choices: presets.map((p) => p.name), default: 'default', description: `the preset, a set of defaults the other options override: ${listed}` };
}

export const OUT_OPTION = { kind: 'text', value: 'DIR', default: 'results', description: 'parent folder of the run folders' } as const;

export const NODE_OPTION = {
  kind: 'list',
  value: 'LIST',
  default: [DEFAULT_RUNTIME],
  description:
    `Node runtimes to run on, one after the other: ${RUNTIMES.map((r) => `${r.name} (${r.version})`).join(', ')}; bench:all starts every Node app on each ` +
    "(its own sets of apps), a suite runs its own process (the calling client) and its servers on each; each is fetched once from the npm registry into the bench's cache " +
    '(docs/options.md, "Node runtimes")',
} as const;

export const NETWORK_OPTION = {
  kind: 'list',
  value: 'LIST',
  default: ['loopback'],
  description:
    `network profiles to run across, one after the other: ${loadProfiles()
      .map((p) => p.name)
      .join(', ')}; ` +
    "the others than loopback put the apps in the network stage's namespaces with a delay, rate and loss, the calls crossing from its client namespace (root, iptables; docs/network.md); " +
    `or path profiles, a profile with ${PATH_FEATURES.map((f) => `+${f.id}`).join(' and/or ')} (region+names+mesh: service names and sidecars; docs/production-path.md), each keyed by the path's name`,
} as const;

export const SECURITY_OPTION = {
  kind: 'list',
  value: 'LIST',
  default: ['plain'],
  description:
    `what the connections between client and servers are wrapped in, one after the other, each with its own apps: ${SECURITY_MODES.map((m) => `${m.name}: ${m.what}`).join('; ')}; ` +
    'tls and mtls make a throwaway CA for the run with openssl (docs/security.md); a path with +mesh runs with plain only (its sidecars speak mTLS); ' +
    'the suites take plain only (their callers dial plaintext)',
} as const;

/**
 * --cpu-profile: every app the tool starts runs with a CPU profiler over the timed calls only (V8's in the
 * Node apps, runtime/pprof in the Go ones), each cell's profile per process written into the run folder
 * and summarized by package (docs/method.md, "CPU profiles"); a suite profiles its servers (or replicas)
 * and its own process over each measured part. One record, taken as it is by bench:all and every suite.
 */
export const CPU_PROFILE_OPTION = {
  kind: 'switch',
  description:
    'profile every app over the timed calls only (not the cold call or warm-up; a suite: its servers and its own process over its measured parts): V8\'s profiler in the Node apps, runtime/pprof in the Go ones; ' +
    'writes profiles/<cell>/<process>.cpuprofile (Node) or .pprof.gz (Go) into the run folder, the time by package in every export, flame graphs in report.html ' +
    '(docs/method.md, "CPU profiles"; its overhead is stated there)',
} as const;

/** The shared entries, by flag; a tool's table spreads them after its --profile. */
export const RUN_OPTIONS = { out: OUT_OPTION, node: NODE_OPTION, network: NETWORK_OPTION, security: SECURITY_OPTION } as const;

/** The axes and the folder the shared flags select, checked against the data. */
export interface RunAxes {
  out: string;
  /** One path per name, however its features are spelled (region+mesh+names is region+names+mesh). */
  networks: PathProfile[];
  runtimes: RuntimeRecord[];
  securities: SecurityRecord[];
}

/** The shared flags' values, read and checked the same way for every tool. */
export function runAxesOf(values: OptionValues<typeof RUN_OPTIONS>, cwd: string = process.cwd()): RunAxes {
  return { out: path.resolve(cwd, values.out), networks: networksOf(values.network), runtimes: runtimesOf(values.node), securities: securitiesOf(values.security) };
}

function networksOf(names: readonly string[]): PathProfile[] {
  let networks: PathProfile[];
  try {
    networks = [...new Map(names.map((name) => findPath(name)).map((p) => [p.name, p])).values()];
  } catch (error) {
    if (error instanceof ProfileError || error instanceof PathProfileError) throw new UsageError(error.message);
    throw error;
  }
  if (networks.length === 0) throw new UsageError('--network selected no profile');
  return networks;
}

/** The runtimes --node names: an unknown one is a usage error listing the known ones. */
export function runtimesOf(names: readonly string[]): RuntimeRecord[] {
  let runtimes: RuntimeRecord[];
  try {
    runtimes = selectRuntimes(names);
  } catch (error) {
    throw new UsageError(`--node: ${errorText(error)}`);
  }
  if (runtimes.length === 0) throw new UsageError('--node selected no runtime');
  return runtimes;
}

/** The records --security names, in SECURITY_MODES' order. */
function securitiesOf(names: readonly string[]): SecurityRecord[] {
  const unknown = names.filter((name) => !SECURITY_MODES.some((m) => m.name === name));
  if (unknown.length > 0) throw new UsageError(`--security: unknown ${unknown.map((u) => JSON.stringify(u)).join(', ')}; known: ${SECURITY_MODES.map((m) => m.name).join(', ')}`);
  const securities = SECURITY_MODES.filter((m) => names.includes(m.name));
  if (securities.length === 0) throw new UsageError('--security selected no mode');
  return securities;
}
