import * as fs from 'node:fs';
import { parseCpuTicks, readCpuTicks, waitUntilQuiet } from '../../src/run/quiesce';
import type { QuietRule } from '../../src/model/run-records';
import { missingHere } from '../needs';

const rule: QuietRule = { windowMs: 200, maxTicks: 1, timeoutMs: 1_000 };

/** A scripted clock and /proc: each pid's tick counts in reading order; each sleep moves the clock on. */
function scripted(ticks: Record<number, Array<number | null>>) {
  let clock = 0;
  const reads: Record<number, number> = {};
  return {
    read: (pid: number) => ticks[pid][Math.min((reads[pid] = (reads[pid] ?? -1) + 1), ticks[pid].length - 1)],
    sleep: async (ms: number) => void (clock += ms),
    now: () => clock,
  };
}

describe('waitUntilQuiet', () => {
  it('returns after one window when every process used at most maxTicks', async () => {
    const fake = scripted({ 10: [100, 101], 11: [5, 5] });
    expect(await waitUntilQuiet([10, 11], rule, fake.read, fake.sleep, fake.now)).toEqual({ waitedMs: 200, quiet: true });
  });

  it('waits window after window while a process is busy (a heap being shrunk), then goes on', async () => {
    // pid 10: 30 ticks, then 12, then 1 in the three windows.
    const fake = scripted({ 10: [0, 30, 30, 42, 42, 43], 11: [7, 7, 7, 7, 7, 7] });
    expect(await waitUntilQuiet([10, 11], rule, fake.read, fake.sleep, fake.now)).toEqual({ waitedMs: 600, quiet: true });
  });

  it('gives up after the timeout, saying the machine was not quiet', async () => {
    let n = 0;
    const busy = () => (n += 50);
    const fake = scripted({});
    expect(await waitUntilQuiet([10], rule, busy, fake.sleep, fake.now)).toEqual({ waitedMs: 1_000, quiet: false });
  });

  it('counts a process that has gone as quiet, and does not wait at all with nothing to watch', async () => {
    const fake = scripted({ 10: [100, null] });
    expect(await waitUntilQuiet([10], rule, fake.read, fake.sleep, fake.now)).toEqual({ waitedMs: 200, quiet: true });
    expect(await waitUntilQuiet([], rule, fake.read, fake.sleep, fake.now)).toEqual({ waitedMs: 0, quiet: true });
  });
});

describe('parseCpuTicks and readCpuTicks', () => {
  it('reads user + system ticks of a live process, and null for one that does not exist', () => {
    if (missingHere('readCpuTicks', [fs.existsSync('/proc/self/stat') ? null : "Linux's /proc (the bench reads CPU ticks there)"])) return;
    expect(readCpuTicks(process.pid)).toEqual(expect.any(Number));
    // A pid above the kernel's maximum cannot exist.
    const max = Number(fs.readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
    expect(readCpuTicks(max + 1)).toBeNull();
  });

  it('finds the fields after a command name with spaces and parentheses', () => {
    // Field 14 (utime) = 7, field 15 (stime) = 3, after a comm of "(a) b)".
    expect(parseCpuTicks('42 ((a) b)) S 1 42 42 0 -1 4194304 100 0 0 0 7 3 0 0 20 0 1 0 100 1000 50')).toBe(10);
  });
});
