// bench:brokers through the bench's one CLI frame: usage errors exit 2 with the help; status names
// every broker with its pin and where it is installed (exit 1 while one is missing).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BROKER_DEFINITIONS, brokerMissing } from '../../src/brokers';
import { describeNeeding } from '../needs';

const MAIN = path.join(__dirname, '..', '..', 'dist', 'brokers', 'main.js');
const cli = (...args: string[]) => spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });

describeNeeding('bench:brokers', [fs.existsSync(MAIN) ? null : 'a built bench (npx nx run bench:build)'], () => {
  it('exits 2 with a clear message and the usage on a usage error', () => {
    for (const [args, message] of [
      [[], 'no command given'],
      [['fly'], 'unknown command fly'],
      [['install', 'zeromq'], 'unknown broker zeromq'],
      [['status', 'nats'], 'status takes no argument'],
    ] as const) {
      const result = cli(...args);
      expect([args.join(' '), result.status]).toEqual([args.join(' '), 2]);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('Usage: npx nx run bench:brokers -- <command>');
    }
  });

  it('status names each broker, its pin and whether it is installed', () => {
    const result = cli('status');
    for (const { record } of BROKER_DEFINITIONS) expect(result.stderr).toContain(`${record.name} ${record.version}`);
    const missing = BROKER_DEFINITIONS.filter((d) => brokerMissing(d.record.kind) !== null);
    expect(result.status).toBe(missing.length ? 1 : 0);
    expect(result.stderr.match(/NOT INSTALLED/g)?.length ?? 0).toBe(missing.length);
  });
});
