// Ctrl-C stops a bench's brokers at once (start.ts's hooks). A bench killed with SIGKILL runs no exit
// hook: its brokers keep running until the next start (or `bench:brokers -- sweep`) finds the state
// file of a dead owner, stops them and removes their folders.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { brokerMissing, sweepLeftovers } from '../../src/brokers';
import { isOurs } from '../../src/brokers/proc';
import { describeNeeding } from '../needs';

const DIST = path.join(__dirname, '..', '..', 'dist', 'brokers', 'index.js');
const built = fs.existsSync(DIST) ? null : 'a built bench (npx nx run bench:build)';

/** A bench that starts NATS in `dir`, prints its PID and waits. */
async function owner(dir: string): Promise<{ owner: ReturnType<typeof spawn>; pid: number }> {
  const child = spawn(process.execPath, ['-e', `require(${JSON.stringify(DIST)}).startBrokers(['nats'], { dir: ${JSON.stringify(dir)} }).then(([b]) => { console.log(String(b.pid)); setInterval(() => {}, 1000); })`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = Number(await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', resolve)));
  return { owner: child, pid };
}

describeNeeding('brokers of a bench that is stopped', [brokerMissing('nats'), built], () => {
  it('by Ctrl-C are stopped and their folders removed before it exits', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'broker-interrupted-'));
    try {
      const { owner: bench, pid } = await owner(dir);
      expect(fs.readdirSync(dir)).toHaveLength(1);
      bench.kill('SIGINT');
      const [, signal] = await new Promise<[number | null, string | null]>((resolve) => bench.once('exit', (code, sig) => resolve([code, sig])));
      // No one else handled SIGINT: the hook re-raised it, so the bench still ends as Ctrl-C ends it.
      expect(signal).toBe('SIGINT');
      expect(isOurs(pid, null)).toBe(false);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('by SIGKILL are stopped and their folders removed by the next sweep', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'broker-killed-'));
    try {
      const { owner: bench, pid } = await owner(dir);
      expect(fs.readdirSync(dir)).toHaveLength(1);
      bench.kill('SIGKILL');
      await new Promise((resolve) => bench.once('exit', resolve));
      // The owner is gone; its broker is not.
      expect(isOurs(pid, null)).toBe(true);
      const report = sweepLeftovers();
      expect(report.killed).toContain(pid);
      expect(isOurs(pid, null)).toBe(false);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
