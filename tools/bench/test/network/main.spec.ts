import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeNeeding } from '../needs';

const MAIN = path.resolve(__dirname, '../../dist/network/main.js');
describeNeeding('bench:network CLI', [fs.existsSync(MAIN) ? null : `${MAIN} (npx nx run bench:build)`], () => {
  // A lock dir of its own: the CLI must not see a real stage that may be up on this machine.
  let lockDir: string;
  beforeAll(() => (lockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbx-cli-test-'))));
  afterAll(() => fs.rmSync(lockDir, { recursive: true, force: true }));
  const cli = (...args: string[]) => spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', env: { ...process.env, NETWORK_STAGE_LOCK_DIR: lockDir } });

  it('exits 2 with a clear message and the usage on a usage error', () => {
    for (const [args, message] of [
      [[], 'no command given'],
      [['fly'], 'unknown command fly'],
      [['up'], 'up needs a profile'],
      [['up', 'moon'], 'unknown network profile "moon"'],
      [['up', 'loopback'], 'profile "loopback" has no stage'],
      [['shell', 'host'], 'shell needs client, server, router or broker'],
      [['status', '--fast'], 'unknown option --fast'],
    ] as const) {
      const result = cli(...args);
      expect([args.join(' '), result.status]).toEqual([args.join(' '), 2]);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('Usage: npx nx run bench:network -- <command>');
    }
  });

  it('status says when no stage is up; shell refuses without one', () => {
    expect(cli('status').stderr).toContain('no network stage is up');
    const shell = cli('shell', 'client');
    expect(shell.status).toBe(1);
    expect(shell.stderr).toContain('no network stage is up: start one with `npx nx run bench:network -- up <profile>`');
  });
});
