import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acquireLock, isHeld, LockHeldError, readLock } from '../../../src/network/stage/lock';
import { startTicks } from '../../../src/network/stage/namespaces';
import { topologyFor } from '../../../src/network/stage/topology';

const t = topologyFor('Run 2026-01-02T03:04:05Z');

describe('network lock', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbx-lock-test-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const info = { runId: 'r', profile: 'zone', namespaces: t.namespaces };

  it('refuses a second run while the holder lives, naming it and what to do', () => {
    const file = path.join(dir, 'lock');
    fs.writeFileSync(file, JSON.stringify({ ...info, pid: process.ppid, startTicks: null, startedAt: 'then' }));
    expect(() => acquireLock(info, file)).toThrow(LockHeldError);
    expect(() => acquireLock(info, file)).toThrow(/another network run is active \(pid \d+, profile zone.*npx nx run bench:network -- down/);
  });

  it('takes over a lock whose holder is dead (a run killed with SIGKILL), and releases it', () => {
    const file = path.join(dir, 'lock');
    fs.writeFileSync(file, JSON.stringify({ ...info, pid: 2 ** 22 + 1, startTicks: null, startedAt: 'then' }));
    const release = acquireLock(info, file);
    expect(readLock(file)?.pid).toBe(process.pid);
    release();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('treats a reused PID (a live PID, another start time) as dead: takes the lock over, and releases it', () => {
    const file = path.join(dir, 'lock');
    const reused = { ...info, pid: process.ppid, startTicks: -1, startedAt: 'then' };
    fs.writeFileSync(file, JSON.stringify(reused));
    // The PID lives; with its own start time it would hold the lock, with another one it does not.
    expect(isHeld({ ...reused, startTicks: startTicks(process.ppid) })).toBe(true);
    expect(isHeld(reused)).toBe(false);
    const release = acquireLock(info, file);
    expect(readLock(file)).toMatchObject({ pid: process.pid, startTicks: startTicks(process.pid), runId: 'r' });
    release();
    expect(fs.existsSync(file)).toBe(false);
  });
});
