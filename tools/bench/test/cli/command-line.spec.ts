// The bench's one argument parser (src/cli): what it accepts, how it refuses, and that every tool's
// help is generated from its table and printed on --help.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { helpText, parseCommandLine, toolExitCode, UsageError, type Command } from '../../src/cli';
import { BROKERS_COMMAND } from '../../src/brokers/main';
import { COMPARE_COMMAND } from '../../src/compare-main';
import { NETWORK_COMMAND } from '../../src/network/main';
import { BENCH_ALL_COMMAND } from '../../src/plan/options';
import { PRESETS } from '../../src/plan/presets';
import { suiteCommand } from '../../src/suites/common/args';
import { ECHO_SPEC } from '../../src/suites/echo/main';
import { LATENCY_SPEC } from '../../src/suites/latency/main';
import { LOAD_SPEC } from '../../src/suites/load/main';
import { SUITES_COMMAND } from '../../src/suites/main';
import { PINGPONG_SPEC } from '../../src/suites/pingpong/main';
import { SERIALIZATION_SPEC } from '../../src/suites/serialization/main';
import { SOAK_SPEC } from '../../src/suites/soak/main';
import { SERVICE_SPEC } from '../../src/suites/service/main';
import { itNeeding } from '../needs';

const ROOT = path.resolve(__dirname, '../../../..');

const DEMO = {
  name: 'bench:demo',
  synopsis: 'npx nx run bench:demo [options]',
  about: 'A demo tool.',
  options: {
    out: { kind: 'text', value: 'DIR', default: 'results', description: 'where to write' },
    mode: { kind: 'text', value: 'NAME', choices: ['fast', 'slow'], description: 'how' },
    cases: { kind: 'list', value: 'IDS', description: 'which cases' },
    calls: { kind: 'int', value: 'N', min: 1, max: 100, defaultText: 'from the profile', description: 'how many calls' },
    pin: { kind: 'switch', description: 'pin the processes' },
  },
} as const satisfies Command;

/** Every tool's command, by its target: the entry points' own tables. */
const COMMANDS: Record<string, Command> = {
  all: BENCH_ALL_COMMAND,
  brokers: BROKERS_COMMAND,
  compare: COMPARE_COMMAND,
  network: NETWORK_COMMAND,
  suites: SUITES_COMMAND,
  ...Object.fromEntries([ECHO_SPEC, LATENCY_SPEC, LOAD_SPEC, PINGPONG_SPEC, SERIALIZATION_SPEC, SERVICE_SPEC, SOAK_SPEC].map((spec) => [spec.suite, suiteCommand(spec)])),
};

describe('parseCommandLine', () => {
  it('reads --name value and --name=value, lists, numbers and switches, and fills in defaults', () => {
    const line = parseCommandLine(DEMO, ['--out=x', '--cases', ' 1-1, 1-2 ,', '--calls', '7', '--pin', '--mode=slow']);
    expect(line).toEqual({ values: { out: 'x', mode: 'slow', cases: ['1-1', '1-2'], calls: 7, pin: true }, positionals: [], help: false });
    expect(parseCommandLine(DEMO, []).values).toEqual({ out: 'results', mode: undefined, cases: undefined, calls: undefined, pin: false });
    // The last of a repeated option wins.
    expect(parseCommandLine(DEMO, ['--calls', '1', '--calls=2']).values.calls).toBe(2);
  });

  it.each([
    [['--bogus'], 'unknown option --bogus'],
    [['-x'], 'unknown option -x'],
    [['--calls'], '--calls needs a value'],
    [['--calls', '--pin'], '--calls needs a value'],
    [['--calls', 'ten'], '--calls must be a whole number written in digits, got "ten"'],
    [['--calls', '-1'], '--calls must be a whole number written in digits, got "-1"'],
    [['--calls', '0'], '--calls must be at least 1, got 0'],
    [['--calls=101'], '--calls must be at most 100, got 101'],
    [['--pin=yes'], '--pin takes no value'],
    [['--mode', 'medium'], '--mode must be fast or slow, got "medium"'],
    [['stray'], 'unexpected argument "stray"'],
  ])('refuses %p: %s', (argv, message) => {
    expect(() => parseCommandLine(DEMO, argv)).toThrow(UsageError);
    expect(() => parseCommandLine(DEMO, argv)).toThrow(message);
  });

  it('takes words only where the command says so, and --help or -h anywhere', () => {
    expect(parseCommandLine({ ...DEMO, positionals: true }, ['up', 'region', '--pin']).positionals).toEqual(['up', 'region']);
    expect(parseCommandLine(DEMO, ['--calls', '3', '--help']).help).toBe(true);
    expect(parseCommandLine(DEMO, ['-h']).help).toBe(true);
  });
});

describe('helpText', () => {
  it('lists every option of the table with its value, range and default, and --help', () => {
    const help = helpText(DEMO);
    expect(help.startsWith('Usage: npx nx run bench:demo [options]\n\nA demo tool.\n\nOptions:\n')).toBe(true);
    expect(help).toContain('--out DIR');
    expect(help).toContain('where to write (default: results)');
    expect(help).toContain('--mode fast|slow');
    expect(help).toContain('how many calls (1–100; default: from the profile)');
    expect(help).toMatch(/--pin +pin the processes\n/);
    expect(help).toContain('-h, --help');
  });

  it.each(Object.keys(COMMANDS))("bench:%s: names every option of its table, in the help's own lines", (target) => {
    const command = COMMANDS[target];
    const help = helpText(command);
    expect(command.name).toBe(`bench:${target}`);
    expect(help.startsWith(`Usage: npx nx run bench:${target}`)).toBe(true);
    const flags = help.match(/^ {2}(?:-\w, )?--[a-z][a-z0-9-]*/gm)?.map((f) => f.replace(/^ {2}(-\w, )?--/, ''));
    expect(flags).toEqual([...Object.keys(command.options), 'help']);
    for (const line of help.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
  });

  it("bench:all's defaults come from the profiles the run uses", () => {
    const help = helpText(BENCH_ALL_COMMAND);
    for (const profile of Object.values(PRESETS)) expect(help.replace(/\s+/g, ' ')).toContain(`${profile.name}: ${profile.description}`);
    expect(help.replace(/\s+/g, ' ')).toContain(`; ${PRESETS.quick.runs} (quick))`);
  });
});

describe('every tool on --help and on bad input', () => {
  const io = () => {
    const out = { stdout: '', stderr: '' };
    return { out, io: { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) } } };
  };
  const neverRuns = () => {
    throw new Error('main must not run');
  };

  it.each(Object.keys(COMMANDS))('bench:%s --help prints its help and exits 0; an unknown option exits 2 with the message and the help', async (target) => {
    const command = COMMANDS[target];
    const help = io();
    expect(await toolExitCode(command, neverRuns, ['--help'], {}, help.io)).toBe(0);
    expect(help.out).toEqual({ stdout: helpText(command), stderr: '' });
    const bad = io();
    expect(await toolExitCode(command, neverRuns, ['--no-such-option'], {}, bad.io)).toBe(2);
    expect(bad.out).toEqual({ stdout: '', stderr: `bench:${target}: unknown option --no-such-option\n\n${helpText(command)}` });
  });

  it("a UsageError from the tool's own checks exits 2 too; any other error exits with the tool's code", async () => {
    const usage = io();
    expect(await toolExitCode(DEMO, () => Promise.reject(new UsageError('--calls and --pin do not go together')), [], {}, usage.io)).toBe(2);
    expect(usage.out.stderr.startsWith('bench:demo: --calls and --pin do not go together\n\nUsage: ')).toBe(true);
    const failed = io();
    expect(await toolExitCode(DEMO, () => Promise.reject(new Error('disk full')), [], { errorExitCode: 3 }, failed.io)).toBe(3);
    expect(failed.out.stderr).toBe('bench:demo: disk full\n');
  });

  // The built entry points themselves, as `nx run bench:<target>` starts them.
  const project = JSON.parse(fs.readFileSync(path.join(ROOT, 'tools/bench/project.json'), 'utf8')) as { targets: Record<string, { options?: { command?: string } }> };
  const entries = Object.entries(project.targets).flatMap(([target, t]) => {
    const m = /^node (tools\/bench\/dist\/\S+\.js)$/.exec(t.options?.command ?? '');
    return m ? [[target, m[1]] as const] : [];
  });
  const unbuilt = entries.filter(([, file]) => !fs.existsSync(path.join(ROOT, file))).map(([, file]) => file);
  itNeeding('every built entry point prints its help on --help and exits 0', [unbuilt.length === 0 ? null : `${unbuilt.join(', ')} (npx nx run bench:build)`], () => {
    expect(entries.map(([target]) => target).sort()).toEqual(Object.keys(COMMANDS).sort());
    for (const [target, file] of entries) {
      const result = spawnSync(process.execPath, [path.join(ROOT, file), '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      expect({ target, status: result.status, help: result.stdout }).toEqual({ target, status: 0, help: helpText(COMMANDS[target]) });
    }
  });
});
