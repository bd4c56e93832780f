// The suites' command lines, as tables for the bench's one parser (cli/): the shared flags of
// plan/run-options.ts (--profile picks one of the suite's presets, --out, --node, --network, --security),
// then each suite's numeric settings, overridable one by one (--calls 2000).
import { parseCommandLine, helpText, type Command, type CommandLine, type IntOption, type OptionTable, type OptionValues } from '../../cli';
import { CPU_PROFILE_OPTION, profileOption, runAxesOf, RUN_OPTIONS, type RunAxes } from '../../plan';

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
  /** Options beyond the numeric settings (text, lists), read into SuiteArgs.extras by their flag. */
  extraOptions?: OptionTable;
}

/** A suite's command line: the shared axes (run-options.ts; each network and runtime a run folder of its own), the preset and the settings. */
export interface SuiteArgs<S> extends RunAxes {
  preset: SuitePreset;
  settings: S;
  /** The values of the spec's extraOptions, by flag. */
  extras: Record<string, unknown>;
  /** --cpu-profile: what the suite starts and its own process profiled over its measured parts (common/profiling.ts). */
  cpuProfile: boolean;
}

/** --profile, --out, --node and --cpu-profile: every suite's, and bench:suites' (which passes them on); the entries are run-options.ts'. */
export const SUITE_RUN_OPTIONS = { profile: profileOption(SUITE_PRESETS.map((name) => ({ name }))), out: RUN_OPTIONS.out, node: RUN_OPTIONS.node, 'cpu-profile': CPU_PROFILE_OPTION } as const;

function flagOf(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** A suite's command: the shared options, then one whole-number option per setting, its defaults from the presets. */
export function suiteCommand<S extends Record<string, number>>(spec: SuiteOptionsSpec<S>): Command {
  const settings = Object.entries(spec.options as Record<string, NumericOption>).map(([key, option]): [string, IntOption] => [
    flagOf(key),
    { kind: 'int', value: 'N', min: option.min, max: option.max, description: option.description, defaultText: SUITE_PRESETS.map((p) => `${p} ${spec.presets[p][key]}`).join(', ') },
  ]);
  const options: OptionTable = { profile: SUITE_RUN_OPTIONS.profile, ...RUN_OPTIONS, 'cpu-profile': SUITE_RUN_OPTIONS['cpu-profile'], ...spec.extraOptions, ...Object.fromEntries(settings) };
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
  const extras = Object.fromEntries(Object.keys(spec.extraOptions ?? {}).map((flag) => [flag, values[flag]]));
  return { preset, ...runAxesOf(values as OptionValues<typeof RUN_OPTIONS>), settings: settings as S, extras, cpuProfile: values['cpu-profile'] === true };
}
