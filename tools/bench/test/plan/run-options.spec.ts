import * as fs from 'node:fs';
import * as path from 'node:path';
import { BENCH_ALL_COMMAND } from '../../src/plan/options';
import { NETWORK_OPTION, NODE_OPTION, OUT_OPTION, RUN_OPTIONS, SECURITY_OPTION } from '../../src/plan/run-options';
import { suiteCommand } from '../../src/suites/common/args';
import { SUITES_COMMAND } from '../../src/suites/main';
import { ECHO_SUITE } from '../../src/suites/echo/main';
import { LATENCY_SUITE } from '../../src/suites/latency/main';
import { LOAD_SUITE } from '../../src/suites/load/main';
import { PINGPONG_SUITE } from '../../src/suites/pingpong/main';
import { SERIALIZATION_SUITE } from '../../src/suites/serialization/main';
import { SERVICE_SUITE } from '../../src/suites/service/main';
import { SOAK_SUITE } from '../../src/suites/soak/main';
import type { OptionTable } from '../../src/cli';

const SRC = path.join(__dirname, '../../src');
const SHARED = Object.keys(RUN_OPTIONS);
const SUITE_SPECS = [ECHO_SUITE, LATENCY_SUITE, LOAD_SUITE, PINGPONG_SUITE, SERIALIZATION_SUITE, SERVICE_SUITE, SOAK_SUITE].map((s) => s.spec);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** `flag: { kind: …` (an option table's entry) for --profile and the shared flags, with where it is. */
function declarationsIn(text: string): string[] {
  const entry = new RegExp(`(?:^|[\\s{,])['"]?(profile|${SHARED.join('|')})['"]?\\s*:\\s*\\{\\s*kind\\s*:`, 'g');
  return [...text.matchAll(entry)].map((m) => `--${m[1]}`);
}

function declarations(file: string): string[] {
  return declarationsIn(fs.readFileSync(file, 'utf8')).map((flag) => `${path.relative(SRC, file)}: ${flag}`);
}

describe('the shared run options (plan/run-options.ts)', () => {
  it('are declared once: no other file of src/ declares --profile, --out, --node, --network or --security', () => {
    const elsewhere = sourceFiles(SRC)
      .filter((file) => !file.endsWith(path.join('plan', 'run-options.ts')))
      .flatMap(declarations);
    expect(elsewhere).toEqual([]);
    // The scan sees a declaration where there is one (it is not passing by matching nothing).
    expect(declarationsIn("const OPTIONS = {\n  out: { kind: 'text', value: 'DIR' },\n  'network': {\n    kind: 'list',")).toEqual(['--out', '--network']);
  });

  it.each([['bench:all', BENCH_ALL_COMMAND.options as OptionTable], ...SUITE_SPECS.map((spec): [string, OptionTable] => [`bench:${spec.suite}`, suiteCommand(spec).options])])(
    '%s takes every shared entry as it is, and --profile made from its presets',
    (_tool, options) => {
      expect([options.out, options.node, options.network, options.security]).toEqual([OUT_OPTION, NODE_OPTION, NETWORK_OPTION, SECURITY_OPTION]);
      for (const flag of SHARED) expect(options[flag]).toBe(RUN_OPTIONS[flag as keyof typeof RUN_OPTIONS]);
      expect(options.profile).toMatchObject({ kind: 'text', value: 'NAME', default: 'default', description: expect.stringMatching(/^the preset, a set of defaults the other options override: /) });
    },
  );

  it('bench:suites passes on the same --profile, --out and --node as every suite takes', () => {
    expect(SUITES_COMMAND.options.out).toBe(OUT_OPTION);
    expect(SUITES_COMMAND.options.node).toBe(NODE_OPTION);
    expect(SUITES_COMMAND.options.profile).toBe(suiteCommand(ECHO_SUITE.spec).options.profile);
  });
});
