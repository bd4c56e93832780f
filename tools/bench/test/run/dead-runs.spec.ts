// What killed runs left, found by their folders' names: a folder named after a live owner stays, one
// whose owner is gone (or was another process with that PID) goes; folders of other names are not ours.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { processStartTicks } from '../../src/cli';
import { ownedTempDir, sweepOwnedTemps } from '../../src/run/dead-runs';

describe('the temp folders a run names after itself', () => {
  let parent: string;
  beforeEach(() => (parent = fs.mkdtempSync(path.join(os.tmpdir(), 'dead-runs-'))));
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  it("keep a live owner's, remove a dead one's and a reused PID's, leave other names alone", () => {
    const mine = ownedTempDir('nbx-run-brokers-', parent);
    expect(path.basename(mine)).toMatch(new RegExp(`^nbx-run-brokers-${process.pid}-${processStartTicks(process.pid)}-[A-Za-z0-9]{6}$`));
    const gone = spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim(); // a PID that ran and ended
    const dead = path.join(parent, `bench-cpu-${gone}-12345-abcdef`);
    const reused = path.join(parent, `nbx-run-brokers-${process.pid}-1-abcdef`); // this PID, another start time
    const other = path.join(parent, 'nbx-run-brokers-notours');
    for (const dir of [dead, reused, other]) fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dead, '1-client.sock'), '');
    expect(sweepOwnedTemps(parent).sort()).toEqual([dead, reused].sort());
    expect(fs.readdirSync(parent).sort()).toEqual([path.basename(mine), 'nbx-run-brokers-notours'].sort());
  });
});
