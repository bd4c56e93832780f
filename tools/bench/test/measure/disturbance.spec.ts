// What else used the machine during a visit (issue #43): /proc's counters parsed as the kernel writes them,
// the run's processes found from their roots, and a real visit with an outside busy loop flagged.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { FakeDriver } from '../../src/measure/drivers/fake-driver';
import { parsePidStat, parseProcStat, readCpu, sharesBetween, treeTicks } from '../../src/measure/disturbance';
import { runVisits } from '../../src/measure/runner';
import { describeDisturbance, isDisturbed, type VisitDisturbance } from '../../src/model';
import { missingHere } from '../needs';
import { plannedVisit } from '../planned-visit';

/** This machine's /proc/stat's first lines, as the kernel wrote them (2 vCPUs, steal counted). */
const PROC_STAT = ['cpu  955380 119265 193168 685749 7868 0 11006 804 0 0', 'cpu0 465093 59718 92322 362771 1721 0 4248 406 0 0', 'cpu1 490286 59547 100846 322977 6146 0 6757 398 0 0'].join('\n');

describe('the machine’s CPU from /proc', () => {
  it('reads the processes’ time (user + nice + system), steal and the total from /proc/stat’s cpu line', () => {
    expect(parseProcStat(PROC_STAT)).toEqual({ processes: 955380 + 119265 + 193168, steal: 804, total: 955380 + 119265 + 193168 + 685749 + 7868 + 0 + 11006 + 804 });
    expect(() => parseProcStat('intr 1 2 3')).toThrow('no cpu line in /proc/stat');
  });

  it('reads a process’s parent and CPU (its reaped children’s too), whatever its name holds', () => {
    const stat = '4242 (node -e (x) y) S 17 4242 4242 0 -1 4194304 120 0 0 0 30 7 5 2 20 0 11 0 123 456 789';
    expect(parsePidStat(stat)).toEqual({ ppid: 17, ticks: 30 + 7 + 5 + 2 });
    expect(parsePidStat('1 (init) S')).toBeNull();
  });

  it('counts the roots and every process below them, once each, and nothing beside them', () => {
    const all = new Map([
      [1, { ppid: 0, ticks: 1000 }],
      [10, { ppid: 1, ticks: 5 }],
      [11, { ppid: 10, ticks: 7 }],
      [12, { ppid: 11, ticks: 11 }],
      [20, { ppid: 1, ticks: 500 }],
    ]);
    expect(treeTicks(all, [10])).toBe(23);
    expect(treeTicks(all, [10, 11])).toBe(23);
    expect(treeTicks(all, [99])).toBe(0);
  });

  it('gives the shares of the machine outside the run and stolen, never below 0', () => {
    const before = { total: 1000, processes: 300, steal: 10, run: 100 };
    expect(sharesBetween(before, { total: 1400, processes: 500, steal: 30, run: 250 })).toEqual({ outsideShare: 0.125, stealShare: 0.05 });
    expect(sharesBetween(before, { total: 1400, processes: 350, steal: 10, run: 250 })).toEqual({ outsideShare: 0, stealShare: 0 });
    expect(sharesBetween(before, before)).toBeNull();
  });

  it('flags a visit above a tenth of the machine, steal included', () => {
    expect(isDisturbed({ outsideShare: 0.02, stealShare: 0.01 })).toBe(false);
    expect(isDisturbed({ outsideShare: 0.08, stealShare: 0.04 })).toBe(true);
    expect(isDisturbed({ outsideShare: 0.5, stealShare: 0 })).toBe(true);
  });
});

/** Starts `node -e 'for(;;){}'` outside this process's tree (its shell parent exits, so it is re-parented) and returns its pid. */
function outsideBusyLoop(): number {
  const started = spawnSync('sh', ['-c', `'${process.execPath}' -e 'for(;;){}' >/dev/null 2>&1 & echo $!`], { encoding: 'utf8' });
  const pid = Number(started.stdout.trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`could not start the busy loop: ${started.stderr}`);
  return pid;
}

describe('a visit with an outside busy loop', () => {
  // One visit: cold call, warm-up and 4 timed calls 400 ms apart (settleMs): the run itself idles, so what the machine does is what else runs.
  const visit = plannedVisit('①-1', { transports: ['json'], runs: 4, settleMs: 400 });
  // The run here is the test runner: this worker's parent and every process below it (the other spec files' workers too).
  const runRoot = process.ppid;
  const measure = async (): Promise<VisitDisturbance> => {
    const [result] = await runVisits([visit], new FakeDriver(() => ({ latenciesMs: [1] })), { onVisitDone: () => undefined }, { cpu: () => readCpu([runRoot]) });
    expect(result.disturbance).toHaveLength(1);
    return result.disturbance![0]!;
  };

  /** A visit without the loop, as the baseline; where other work already disturbs it, the machine is not one these tests can judge on. */
  const quietOrSkip = async (name: string): Promise<VisitDisturbance | null> => {
    const quiet = await measure();
    const busy = isDisturbed(quiet) ? `a machine no other process keeps busy (${describeDisturbance(quiet)} during the baseline visit: run alone, under flock -x /tmp/bench.lock)` : null;
    return missingHere(name, [busy]) ? null : quiet;
  };

  it('is flagged, and the same visit without it is not', async () => {
    const quiet = await quietOrSkip('an outside busy loop');
    if (!quiet) return;
    const pid = outsideBusyLoop();
    // Re-parented away from the test runner: outside the run.
    expect([process.pid, runRoot]).not.toContain(parsePidStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))?.ppid);
    let busy: VisitDisturbance;
    try {
      // A loop that has started spinning: its CPU grows.
      busy = await measure();
    } finally {
      process.kill(pid, 'SIGKILL');
    }
    // Judged against the visit itself: one core of the two spun for the whole visit, the shares are of the same visit's CPU.
    expect(isDisturbed(busy)).toBe(true);
    expect(busy.outsideShare - quiet.outsideShare).toBeGreaterThan(0.25);
    expect(busy).toMatchObject({ visit: 1, fork: 0 });
  }, 30_000);

  it('counts a busy child of the run as the run’s, not as a disturbance', async () => {
    if (!(await quietOrSkip('a busy child of the run'))) return;
    const child = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
    try {
      const within = await measure();
      expect(isDisturbed(within)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
