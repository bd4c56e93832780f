import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '@bench/testing';
import { listRuns } from '../src/model/runs';

// What the README's "Benchmark your own payload" promises, end to end, in a throw-away copy of this
// workspace: one generator call, then bench:all builds everything (the .proto included) and measures
// the new endpoint's case on both transports, replies checked. Minutes, not seconds: it builds.
const ROOT = path.resolve(__dirname, '../../..');
const NX = path.join(ROOT, 'node_modules/nx/dist/bin/nx.js');
/** Build outputs, caches and history: the copy makes its own or needs none. */
const NOT_COPIED = new Set(['node_modules', 'dist', '.nx', '.git', 'coverage']);
/** Run folders live at the top (`results/`); only they are left out. */
const NOT_COPIED_AT_TOP = new Set(['results']);
const STEP_TIMEOUT_MS = 8 * 60_000;

/**
 * node_modules for the copy: every package linked from this workspace's, except our own @bench/* libs,
 * which must be the copy's (npm links workspaces to their folders; the copy's libs are rebuilt).
 */
function linkNodeModules(copy: string): void {
  const modules = path.join(copy, 'node_modules');
  fs.mkdirSync(path.join(modules, '@bench'), { recursive: true });
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry !== '@bench') fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  for (const lib of fs.readdirSync(path.join(copy, 'libs'))) {
    fs.symlinkSync(path.join(copy, 'libs', lib), path.join(modules, '@bench', lib));
  }
}

function nx(copy: string, args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [NX, ...args], {
    cwd: copy,
    env: { ...process.env, ...env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', CI: 'true', FORCE_COLOR: '0', NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: STEP_TIMEOUT_MS,
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe('the endpoint generator in a fresh copy of the workspace', () => {
  let copy: string;

  beforeAll(() => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-endpoint-'));
    fs.cpSync(ROOT, copy, { recursive: true, filter: (source) => !NOT_COPIED.has(path.basename(source)) && !(path.dirname(source) === ROOT && NOT_COPIED_AT_TOP.has(path.basename(source))) });
    // Generated contracts are a build's output: the copy starts without them, as a fresh clone does.
    fs.rmSync(path.join(copy, 'proto/payloads'), { recursive: true, force: true });
    linkNodeModules(copy);
  });
  afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

  it('generates an endpoint that builds, passes lint and its tests, and runs on the quick profile', async () => {
    const generated = nx(copy, ['g', './tools/bench:endpoint', '--name', 'e2e-widgets', '--no-interactive']);
    expect(generated.output).toContain('CREATE libs/payloads/src/e2e-widgets/e2e-widgets.payload.ts');
    expect(generated.status).toBe(0);

    // Lint all three projects (the generator edits their existing files) and run the payloads' tests whole;
    // of the servers' tests only the generated ones: the rest are CI's own, unchanged by the generator, and
    // ran them twice (~3 min of the suite). bench:all below starts both servers with the new endpoint.
    const linted = nx(copy, ['run-many', '-t', 'lint', '-p', 'payloads,server-a,server-b', '--outputStyle=stream']);
    if (linted.status !== 0) throw new Error(`lint of the generated code failed:\n${linted.output.slice(-4000)}`);
    const payloads = nx(copy, ['run', 'payloads:test', '--outputStyle=stream']);
    expect(payloads.output).toContain('e2e-widgets');
    if (payloads.status !== 0) throw new Error(`the payloads' tests failed:\n${payloads.output.slice(-4000)}`);
    const servers = nx(copy, ['run-many', '-t', 'test', '-p', 'server-a,server-b', '--outputStyle=stream', '--', '--testPathPatterns=e2e-widgets']);
    if (servers.status !== 0) throw new Error(`the generated servers' tests failed:\n${servers.output.slice(-4000)}`);
    for (const app of ['server-a', 'server-b']) expect(servers.output).toMatch(new RegExp(`PASS.*apps/${app}/test/e2e-widgets\\.spec\\.ts`));

    const out = path.join(copy, 'results');
    const ports = { CLIENT_PORT: String(await freePort()), SERVER_A_PORT: String(await freePort()), SERVER_B_PORT: String(await freePort()) };
    const bench = nx(copy, ['run', 'bench:all', '--profile', 'quick', '--cases', 'e2e-widgets-1,e2e-widgets-1k', `--out=${out}`], ports);
    if (bench.status !== 0) throw new Error(`bench:all failed:\n${bench.output.slice(-4000)}`);
    expect(fs.readFileSync(path.join(copy, 'proto/payloads/e2e-widgets.proto'), 'utf8')).toContain('service E2eWidgetsService');

    const [runDir] = listRuns(out);
    const doc = JSON.parse(fs.readFileSync(path.join(runDir, 'results.json'), 'utf8')) as {
      results: { case: string; transport: string; ok: boolean; bytes: number | null; samplesMs: number[] }[];
    };
    expect(doc.results.map((r) => [r.case, r.transport, r.ok])).toEqual([
      ['e2e-widgets-1', 'json', true],
      ['e2e-widgets-1', 'grpc', true],
      ['e2e-widgets-1k', 'json', true],
      ['e2e-widgets-1k', 'grpc', true],
    ]);
    for (const result of doc.results) {
      expect(result.samplesMs).toHaveLength(3);
      expect(result.bytes).toBeGreaterThan(0);
    }
  }, 3 * STEP_TIMEOUT_MS);
});
