// The suites' command lines, as tables for the bench's one parser (cli/): --profile picks a preset, a set of
// defaults, --out the results folder, --network where the servers run, and each suite's numeric
// settings can be overridden one by one (--calls 2000).
import * as path from 'node:path';
import { parseCommandLine, helpText, UsageError, type Command, type CommandLine, type IntOption, type OptionTable, errorText } from '../../cli';
import { loadProfiles } from '../../network';
import { DEFAULT_RUNTIME, RUNTIMES, selectRuntimes, type RuntimeRecord } from '../../plan';

export const SUITE_PRESETS = ['default', 'quick'] as const;
export type SuitePreset = (typeof SUITE_PRESETS)[number];

export interface NumericOption {
  description: string;
  min: number;
  max: number;
}

export interface SuiteOptionsSpec<S extends Record<string, number>> {
  suite: string;
  /** What the suite does: the first paragraph of its help. */
  about: string;
  /** One entry per setting; the command-line flag is the key in kebab case (durationS → --duration-s). */
  options: { readonly [K in keyof S]: NumericOption };
  presets: Readonly<Record<SuitePreset, S>>;
}

export interface SuiteArgs<S> {
  preset: SuitePreset;
  out: string;
  /** --network: the network profiles to measure across, one after the other, each in a run folder of its own (network/profiles.ts); loopback by default. */
  networks: string[];
  /** --node: the Node runtimes to run on (the bench's calls and the servers), one after the other, each in run folders of its own. */
  runtimes: RuntimeRecord[];
  settings: S;
}

/** --profile, --out and --node: every suite's, and bench:suites' (which passes them on). */
export const SUITE_RUN_OPTIONS = {
  profile: { kind: 'text', value: 'NAME', choices: SUITE_PRESETS, default: 'default', description: 'the set of defaults for the settings below' },
  out: { kind: 'text', value: 'DIR', default: 'results', description: 'parent folder of the run folders' },
  node: {
    kind: 'list',
    value: 'LIST',
    default: [DEFAULT_RUNTIME],
    description:
      `Node runtimes to run on, one after the other, each in run folders of its own: the suite's own process (the calling client) and the servers: ` +
      `${RUNTIMES.map((r) => `${r.name} (${r.version})`).join(', ')} (docs/options.md, "Node runtimes")`,
  },
} as const;

/** The runtimes --node names: an unknown one is a usage error listing the known ones. */
export function parseRuntimes(names: readonly string[]): RuntimeRecord[] {
  try {
    const runtimes = selectRuntimes(names);
    if (runtimes.length === 0) throw new Error('selected no runtime');
    return runtimes;
  } catch (error) {
    throw new UsageError(`--node: ${errorText(error)}`);
  }
}

/** argv with --node set to one runtime (for the process that runs the suite on it): `--node X` and `--node=X` both replaced. */
export function withOneRuntime(argv: readonly string[], name: string): string[] {
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--node') i++;
    else if (!argv[i].startsWith('--node=')) rest.push(argv[i]);
  }
  return [...rest, '--node', name];
}

const NETWORK_OPTION = {
  kind: 'list',
  value: 'LIST',
  choices: loadProfiles().map((p) => p.name),
  default: ['loopback'],
  description:
    "the network profiles to measure across, one after the other, each a run folder of its own (network/profiles.ts): other than loopback, the servers run in the stage's server namespace",
} as const;

function flagOf(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** A suite's command: the shared options, then one whole-number option per setting, its defaults from the presets. */
export function suiteCommand<S extends Record<string, number>>(spec: SuiteOptionsSpec<S>): Command {
  const settings = Object.entries(spec.options as Record<string, NumericOption>).map(([key, option]): [string, IntOption] => [
    flagOf(key),
    { kind: 'int', value: 'N', min: option.min, max: option.max, description: option.description, defaultText: SUITE_PRESETS.map((p) => `${p} ${spec.presets[p][key]}`).join(', ') },
  ]);
  const options: OptionTable = { ...SUITE_RUN_OPTIONS, network: NETWORK_OPTION, ...Object.fromEntries(settings) };
  return { name: `bench:${spec.suite}`, synopsis: `npx nx run bench:${spec.suite} [options]`, about: spec.about, options };
}

/** The suite's help, generated from its command. */
export function usage<S extends Record<string, number>>(spec: SuiteOptionsSpec<S>): string {
  return helpText(suiteCommand(spec));
}

/** A suite's settings from its command line (argv as words). */
export function parseSuiteArgs<S extends Record<string, number>>(spec: SuiteOptionsSpec<S>, argv: readonly string[]): SuiteArgs<S> {
  return suiteArgsOf(spec, parseCommandLine(suiteCommand(spec), argv));
}

/** A suite's settings from its command line as the tool frame (cli/run-tool) parsed it. */
export function suiteArgsOf<S extends Record<string, number>>(spec: SuiteOptionsSpec<S>, { values }: CommandLine<OptionTable>): SuiteArgs<S> {
  const preset = values.profile as SuitePreset;
  const settings = { ...spec.presets[preset] } as Record<string, number>;
  for (const key of Object.keys(spec.options)) {
    const given = values[flagOf(key)];
    if (typeof given === 'number') settings[key] = given;
  }
  const networks = values.network as string[];
  if (networks.length === 0) throw new UsageError('--network selected no profile');
  const runtimes = parseRuntimes(values.node as string[]);
  return { preset, out: path.resolve(values.out as string), networks: [...new Set(networks)], runtimes, settings: settings as S };
}
