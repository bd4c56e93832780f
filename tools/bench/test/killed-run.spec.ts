import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listRuns } from '../src/model/runs';
import { VARIANTS } from '../src/plan/variants';
import { missingHere } from './needs';

// A bench that dies without a word (SIGKILL: no exit hook runs) leaves neither its apps nor a run that
// bench:compare would take for a finished one. Runs the built bench as a user would.
const ROOT = path.resolve(__dirname, '../../..');
const MAIN = path.join(ROOT, 'tools/bench/dist/main.js');
const COMPARE = path.join(ROOT, 'tools/bench/dist/compare-main.js');

/** How long the apps may take to notice (a generous bound a defect, apps that never exit, would blow past). */
const APPS_GONE_WITHIN_MS = 15_000;

/** Running and not a zombie (a dead child not yet reaped by whoever adopted it). */
function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The pids of the first set of apps the run recorded (results.json is saved once a set has started). */
async function startedPids(out: string, bench: ChildProcess): Promise<number[]> {
  const until = Date.now() + 120_000;
  while (Date.now() < until && bench.exitCode === null) {
    const [run] = listRuns(out);
    if (run) {
      try {
        const doc = JSON.parse(fs.readFileSync(path.join(run, 'results.json'), 'utf8'));
        const sets = Object.values(doc.settings.startedApps ?? {}) as { pids: Record<string, number> }[][];
        const pids = sets.flat()[0]?.pids;
        if (pids) return Object.values(pids);
      } catch {
        // being written: read again
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the bench started no apps (exit ${bench.exitCode})`);
}

async function gone(pids: number[], withinMs: number): Promise<number[]> {
  const until = Date.now() + withinMs;
  while (pids.some(isRunning) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  return pids.filter(isRunning);
}

const goBuilt = VARIANTS.find((v) => v.id === 'go')!.mains.client;

/** The Go reference's binaries, built as the bench builds them (a no-op once built); null when there, else what it lacks. */
function goReference(): string | null {
  if (fs.existsSync(path.join(ROOT, goBuilt))) return null;
  const build = spawnSync('bash', ['tools/go-reference/build.sh'], { cwd: ROOT, encoding: 'utf8' });
  if (fs.existsSync(path.join(ROOT, goBuilt))) return null;
  const why = /go-reference: skipped: (.*)/.exec(build.stdout)?.[1] ?? `build.sh exited ${build.status}`;
  return `the Go reference (bash tools/go-reference/build.sh: ${why}; it needs Go ≥ 1.26 on PATH, from go.dev/dl, and protoc: apt-get install -y protobuf-compiler)`;
}

describe('a bench killed with SIGKILL mid-run', () => {
  let out: string;
  const leftovers: number[] = [];
  beforeEach(() => (out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-killed-'))));
  afterEach(() => {
    // Should the test fail, stop what it started rather than leave it for the next test to trip on.
    for (const pid of leftovers.splice(0).filter(isRunning)) process.kill(pid, 'SIGKILL');
    fs.rmSync(out, { recursive: true, force: true });
  });

  it.each(['blog', 'bare', 'go'])('leaves no app of variant %s running', async (variant) => {
    if (variant === 'go' && missingHere('killed-run go', [goReference()])) return;
    const bench = spawn(process.execPath, [MAIN, '--profile', 'quick', '--variants', variant, '--cases', '1-1,2-1', '--out', out], { cwd: ROOT, stdio: 'ignore' });
    const pids = await startedPids(out, bench);
    leftovers.push(...pids);
    expect(pids.filter(isRunning)).toEqual(pids);
    bench.kill('SIGKILL');
    await new Promise((resolve) => bench.once('exit', resolve));
    expect(await gone(pids, APPS_GONE_WITHIN_MS)).toEqual([]);
  }, 180_000);

  it('leaves a run that bench:compare refuses, naming the cells it lacks, unless --allow-incomplete', async () => {
    const bench = spawn(process.execPath, [MAIN, '--profile', 'quick', '--cases', '1-1,2-1', '--out', out], { cwd: ROOT, stdio: 'ignore' });
    leftovers.push(...(await startedPids(out, bench)));
    bench.kill('SIGKILL');
    await new Promise((resolve) => bench.once('exit', resolve));
    const [killed] = listRuns(out);
    const doc = JSON.parse(fs.readFileSync(path.join(killed, 'results.json'), 'utf8'));
    expect(doc.incomplete).toBe(true);
    expect(doc.settings.plannedCells).toHaveLength(4);

    const compare = (...args: string[]) => spawnSync(process.execPath, [COMPARE, '--base', killed, '--head', killed, ...args], { cwd: ROOT, encoding: 'utf8' });
    const refused = compare();
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`the base run ${path.basename(killed)} is incomplete`);
    expect(refused.stderr).toMatch(/cell\(s\) missing: loopback\/blog (①-1|②-1) (json|grpc)/);
    expect(refused.stderr).toContain('--allow-incomplete');
    const allowed = compare('--allow-incomplete');
    expect({ status: allowed.status, stderr: allowed.stderr }).toEqual({ status: 0, stderr: expect.stringContaining('comparing the cells both runs have') });
  }, 180_000);
});
