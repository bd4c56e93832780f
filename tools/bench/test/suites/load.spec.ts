// bench:load through a real broker, run as a user runs it (the built suite, quick preset, one Nest
// transport through NATS): every cell of the sweep measured with no error, the broker it started
// recorded, and no broker process or folder left. Needs nats-server and the built bench and apps.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { brokerMissing } from '../../src/brokers';
import { LOAD_CONCURRENCY, LOAD_ROWS } from '../../src/suites/load/plan';
import type { LoadCell } from '../../src/suites/load/measure';
import { describeNeeding } from '../needs';

jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '../../../..');
const LOAD_MAIN = path.join(ROOT, 'tools/bench/dist/suites/load/main.js');
const built = [LOAD_MAIN, path.join(ROOT, 'apps/server-b/dist/main.js')].every((file) => fs.existsSync(file)) ? null : 'the built bench and apps (npx nx run-many -t build)';
const brokerFolders = () => new Set(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('nbx-run-brokers-')));

describeNeeding('bench:load through a real broker (nest-nats, quick)', [brokerMissing('nats'), built], () => {
  it('measures every cell of the sweep through NATS with no error, records the broker, and leaves nothing behind', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-broker-'));
    const before = brokerFolders();
    try {
      const run = spawnSync(process.execPath, [LOAD_MAIN, '--profile', 'quick', '--transports', 'nest-nats', '--out', out], { cwd: ROOT, encoding: 'utf8', timeout: 200_000 });
      expect({ code: run.status, stderr: run.status === 0 ? '' : run.stderr.slice(-2000) }).toEqual({ code: 0, stderr: '' });
      const folder = fs.readdirSync(out).find((name) => name.startsWith('load-'))!;
      const doc = JSON.parse(fs.readFileSync(path.join(out, folder, 'results.json'), 'utf8')) as { incomplete: boolean; provenance: { brokers?: Record<string, { version: string }> }; results: { cells: LoadCell[]; failures: unknown[] } };
      expect(doc.incomplete).toBe(false);
      expect(doc.results.failures).toEqual([]);
      const cells = doc.results.cells.filter((cell) => cell.target === 'nest-nats');
      expect(cells.map((cell) => [cell.rows, cell.concurrency]).sort()).toEqual(LOAD_ROWS.flatMap((rows) => LOAD_CONCURRENCY.map((concurrency) => [rows, concurrency])).sort());
      for (const cell of cells) expect({ rows: cell.rows, concurrency: cell.concurrency, errors: cell.errors, timeouts: cell.timeouts, answered: cell.calls > 0 }).toEqual({ rows: cell.rows, concurrency: cell.concurrency, errors: 0, timeouts: 0, answered: true });
      expect(doc.provenance.brokers?.nats?.version).toMatch(/^\d+\.\d+\.\d+/);
      expect([...brokerFolders()].filter((name) => !before.has(name))).toEqual([]);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
