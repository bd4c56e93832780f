// Root-only (issue #45): failures behind a Service as measured events. A replica's server-b SIGKILLed
// from outside the bench during a sweep is recorded in the cell it died in (which process, how, when)
// and the sweep goes on with the other replica; the declared faults (replica-kill, replica-freeze,
// replica-lost) each injected under load and undone, what the callers saw recorded per fault, and
// nothing of them left (the replica-lost rules, the frozen process). Real stage, replicas, apps and
// driver, on a tiny profile; a missing prerequisite fails under CI=true and skips elsewhere (needs.ts).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startStage, type NetworkProfile } from '../src/network/stage';
import { validateProfile } from '../src/network/stage/profile';
import { findStrategy } from '../src/network/service/balancing';
import { measureService, type ServiceResults } from '../src/suites/service/measure';
import { parseFaults } from '../src/suites/service/faults';
import { describeNeeding } from './needs';
import { serviceStageMissing } from './service-stage';

const tiny: NetworkProfile = validateProfile({ name: 'test-tiny', description: 'test only: 3 ms each way', topology: 'namespaces', oneWayDelayMs: 3, rateMbit: null, loss: 0 });
const describeRoot = (name: string, body: () => void) => describeNeeding(name, [serviceStageMissing(tiny)], body);

/** The PID of `app` running in a namespace, found as anyone outside the bench would: `ip netns pids` and the command lines. */
function appPid(namespace: string, app: string): number {
  const pids = spawnSync('ip', ['netns', 'pids', namespace], { encoding: 'utf8' }).stdout.split('\n').map(Number).filter((p) => p > 0);
  const pid = pids.find((p) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(`${app}/dist/main.js`);
    } catch {
      return false;
    }
  });
  if (!pid) throw new Error(`no ${app} in ${namespace}`);
  return pid;
}

const settings = { stepMs: 1500, warmupMs: 300, drainMs: 2000, deadlineMs: 1000, changeRate: 0, changePhaseMs: 2000, faultRate: 40, faultPhaseMs: 1500 };

describeRoot('bench:service under faults (root)', () => {
  it('records a replica SIGKILLed from outside during a sweep as an event of its cell, and the sweep goes on with the survivor', async () => {
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-service-kill-'));
    const stage = await startStage(tiny, { runId: 'jest-kill' });
    let killed: { pid: number; replica: string } | null = null;
    let results: ServiceResults;
    try {
      results = await measureService(
        stage,
        runDir,
        { replicas: 2, millicores: null, strategies: [findStrategy('l4')], rates: [40, 40, 40], security: null, transports: ['grpc'] },
        settings,
        () => undefined,
        (_line, partial) => {
          // After the first step: kill, from outside, the server-b of the replica the pinned channel uses.
          if (killed || partial.cells.length !== 1) return;
          const busy = partial.cells[0].replicas.find((r) => r.requests > 0)!;
          const pid = appPid(`nbx-jest-kill-${busy.name}`, 'server-b');
          process.kill(pid, 'SIGKILL');
          killed = { pid, replica: busy.name };
        },
      );
    } finally {
      await stage.stop();
      fs.rmSync(runDir, { recursive: true, force: true });
    }
    expect(killed).not.toBeNull();
    const { pid, replica } = killed!;
    expect(results.failures).toEqual([]);
    expect(results.cells).toHaveLength(3); // the sweep completed: every rate measured
    const [, died, after] = results.cells;
    expect(died.events).toEqual([expect.objectContaining({ replica, app: 'server-b', pid, how: 'killed by SIGKILL', strategy: 'l4', transport: 'grpc', during: 'the step at 40/s' })]);
    expect(Date.parse(died.events![0].at)).not.toBeNaN();
    for (const cell of [died, after]) expect(cell.replicas.find((r) => r.name === replica)!.gone).toEqual(died.events![0]);
    // The survivor, now the Service's only endpoint, served the last step.
    const survivor = after.replicas.find((r) => r.name !== replica)!;
    expect(survivor.gone).toBeUndefined();
    expect(survivor.requests).toBeGreaterThan(0);
    expect(after.ok).toBeGreaterThan(0);
  }, 180_000);

  it('injects replica-kill, replica-freeze and replica-lost under load, records what the callers saw, and undoes each', async () => {
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-service-faults-'));
    const stage = await startStage(tiny, { runId: 'jest-flt' });
    let results: ServiceResults;
    let rules = '';
    let stopped: string[] = [];
    try {
      results = await measureService(
        stage,
        runDir,
        { replicas: 2, millicores: null, strategies: [findStrategy('l4')], rates: [40], security: null, transports: ['grpc'], faults: parseFaults(['replica-lost', 'replica-kill', 'replica-freeze']) },
        settings,
        () => undefined,
        () => undefined,
      );
      rules = spawnSync('ip', ['netns', 'exec', stage.topology.namespaces.server, 'iptables', '-S'], { encoding: 'utf8' }).stdout;
      // No process of the run is left stopped (SIGSTOP undone by SIGCONT).
      stopped = spawnSync('sh', ['-c', `for ns in $(ip netns list | grep -o 'nbx-jest-flt-r[0-9]*'); do for p in $(ip netns pids $ns); do grep -h '^State:' /proc/$p/status; done; done`], { encoding: 'utf8' }).stdout.split('\n').filter((l) => /\bT\b|stopped/.test(l));
    } finally {
      await stage.stop();
      fs.rmSync(runDir, { recursive: true, force: true });
    }
    expect(results.failures).toEqual([]);
    expect(results.faults!.map((f) => f.fault)).toEqual(['replica-kill', 'replica-freeze', 'replica-lost']); // the records' order
    for (const f of results.faults!) {
      expect(f.target.replica).toMatch(/^r[12]$/);
      expect(f.target.pid).toBeGreaterThan(0);
      expect(f.injectedAtMs).toBeGreaterThanOrEqual(1400);
      expect(f.ok + f.failed + f.hung).toBe(f.due);
      expect(f.bins.reduce((n, b) => n + b.ok + b.failed + b.hung, 0)).toBe(f.due);
      expect(f.faulted!.steadyShare).toBe(1); // l4 pins the channel: the busiest replica had every call
      expect(f.faulted!.silentFromMs).not.toBeNull(); // its own counter stopped answering
    }
    const [kill, freeze, lost] = results.faults!;
    // SIGKILL: the kernel resets the connection, calls fail fast.
    expect(kill.failed).toBeGreaterThan(0);
    expect(Object.keys(kill.byKind).some((k) => /UNAVAILABLE/.test(k))).toBe(true);
    expect(kill.firstFailureAfterMs).not.toBeNull();
    expect(kill.exits).toEqual([expect.objectContaining({ app: 'server-b', how: 'killed by SIGKILL', pid: kill.target.pid })]);
    // SIGSTOP and a lost node: nothing answers, nothing resets: the calls on the pinned channel hang to their deadline (1 s here).
    for (const f of [freeze, lost]) {
      expect(f.hung).toBeGreaterThan(0);
      expect(Object.keys(f.byKind)).toContain('gRPC DEADLINE_EXCEEDED');
      expect(f.undoneAtMs).not.toBeNull();
    }
    expect(rules).not.toMatch(/198\.18\.4\.\d+.*DROP/); // replica-lost's rules were taken out again
    expect(stopped).toEqual([]);
  }, 300_000);
});
