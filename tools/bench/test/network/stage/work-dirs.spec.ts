import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createWorkDir, sweepWorkDirs } from '../../../src/network/stage/work-dirs';

// The network stage's work folders (nbx-XXXXXX): each names its owner, and only a dead owner's are swept.
describe('stage work folders', () => {
  let parent: string;
  beforeEach(() => (parent = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-workdirs-'))));
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

  it("sweeps a dead owner's folder and keeps a live one's, an ownerless one (unless asked) and any other nbx- folder", () => {
    const live = createWorkDir(parent);
    const dead = createWorkDir(parent);
    fs.writeFileSync(path.join(dead, 'owner.json'), JSON.stringify({ pid: deadPid(), startTicks: null }));
    fs.writeFileSync(path.join(dead, 'bridge-3000.sock'), '');
    const ownerless = fs.mkdtempSync(path.join(parent, 'nbx-'));
    fs.writeFileSync(path.join(ownerless, 'bridge-4000.sock'), '');
    const testFolder = fs.mkdtempSync(path.join(parent, 'nbx-lock-test-'));
    const notOurs = fs.mkdtempSync(path.join(parent, 'nbx-'));
    fs.writeFileSync(path.join(notOurs, 'notes.txt'), 'someone else');

    expect(sweepWorkDirs({ parent })).toEqual([dead]);
    expect([live, ownerless, testFolder, notOurs].map((dir) => fs.existsSync(dir))).toEqual([true, true, true, true]);
    // With no other stage alive (the sweeper holds the lock), an ownerless folder of sockets is a killed run's too.
    expect(sweepWorkDirs({ parent, ownerlessToo: true })).toEqual([ownerless]);
    expect([live, testFolder, notOurs].map((dir) => fs.existsSync(dir))).toEqual([true, true, true]);
  });

  it('does not take a PID reused by a later process for the owner', () => {
    const reused = createWorkDir(parent);
    fs.writeFileSync(path.join(reused, 'owner.json'), JSON.stringify({ pid: process.pid, startTicks: 1 }));
    expect(sweepWorkDirs({ parent })).toEqual([reused]);
  });
});
