// The suites' command lines, validated once here: --profile picks a set of defaults, --out the results
// folder, and each suite's numeric settings can be overridden one by one (--calls 2000).
import * as path from 'node:path';
import { parseIntField } from '@bench/validation';

export type SuiteProfile = 'default' | 'quick';

export interface NumericOption {
  description: string;
  min: number;
  max: number;
}

export interface SuiteOptionsSpec<S extends Record<string, number>> {
  suite: string;
  /** One entry per setting; the command-line flag is the key in kebab case (durationS → --duration-s). */
  options: { readonly [K in keyof S]: NumericOption };
  profiles: Readonly<Record<SuiteProfile, S>>;
}

export interface SuiteArgs<S> {
  profile: SuiteProfile;
  out: string;
  /** --network: the network profile to measure across (network/profiles.ts); loopback by default. */
  network: string;
  settings: S;
}

export class UsageError extends Error {}

export function flagOf(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

export function usage<S extends Record<string, number>>(spec: SuiteOptionsSpec<S>): string {
  const lines = [`usage: npx nx run bench:${spec.suite} [--profile default|quick] [--out DIR] [--network PROFILE]` + Object.keys(spec.options).map((k) => ` [${flagOf(k)} N]`).join('')];
  for (const [key, option] of Object.entries(spec.options) as Array<[string, NumericOption]>) {
    lines.push(`  ${flagOf(key).padEnd(22)} ${option.description} (${option.min}–${option.max}; default ${spec.profiles.default[key]}, quick ${spec.profiles.quick[key]})`);
  }
  return lines.join('\n');
}

export function parseSuiteArgs<S extends Record<string, number>>(spec: SuiteOptionsSpec<S>, argv: readonly string[]): SuiteArgs<S> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value\n${usage(spec)}`);
    pairs.push([flag, value]);
  }
  const profileArg = pairs.find(([flag]) => flag === '--profile')?.[1] ?? 'default';
  if (profileArg !== 'default' && profileArg !== 'quick') throw new UsageError(`--profile must be default or quick, got ${JSON.stringify(profileArg)}\n${usage(spec)}`);
  const settings = { ...spec.profiles[profileArg] } as Record<string, number>;
  let out = 'results';
  let network = 'loopback';
  const keyOfFlag = new Map(Object.keys(spec.options).map((k) => [flagOf(k), k]));
  for (const [flag, value] of pairs) {
    if (flag === '--profile') continue;
    if (flag === '--out') {
      out = value;
      continue;
    }
    if (flag === '--network') {
      network = value;
      continue;
    }
    const key = keyOfFlag.get(flag);
    if (!key) throw new UsageError(`unknown option ${flag}\n${usage(spec)}`);
    const parsed = parseIntField(flag, value, spec.options[key]);
    if (!parsed.ok) throw new UsageError(`${parsed.error.message}\n${usage(spec)}`);
    settings[key] = parsed.value;
  }
  return { profile: profileArg, out: path.resolve(out), network, settings: settings as S };
}
