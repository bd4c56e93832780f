import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BROKER_KINDS } from '@bench/config';
import { brokerMissing } from '../../src/brokers';
import { describeNeeding } from '../needs';

// bench:all as a user runs it with Nest's six transports: the brokers they go through started by the run
// itself (run/run-brokers.ts), every reply verified, what a broker refuses at its defaults failed with
// its own reason, the brokers recorded in provenance, and nothing of them left once the run ends.
const ROOT = path.resolve(__dirname, '../../../..');
const MAIN = path.join(ROOT, 'tools/bench/dist/main.js');
const NEST = ['nest-tcp', 'nest-redis', 'nest-nats', 'nest-rmq', 'nest-mqtt', 'nest-kafka'];

interface Cell {
  transport: string;
  case: string;
  ok: boolean;
  error: string | null;
  samplesMs: number[];
  broker?: { kind: string; calls: number; cpuMs: number; counters: { messagesIn: number | null; messagesOut: number | null; bytesIn: number | null } | null } | null;
}

/** results.csv's summary rows as objects (RFC 4180: a quoted field may hold commas and doubled quotes). */
function csvSummaries(text: string): Record<string, string>[] {
  const parse = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map((m) => (m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]));
  const [header, ...lines] = text.trim().split('\n').map(parse);
  return lines.filter((fields) => fields[0] === 'summary').map((fields) => Object.fromEntries(header.map((name, i) => [name, fields[i]])));
}

/** Processes whose command line names a broker's folder of a run (their temp folders are named nbx-…). */
function brokerProcesses(): string[] {
  const out = spawnSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).stdout;
  return out.split('\n').filter((line) => /nbx-run-brokers-/.test(line));
}

describeNeeding('bench:all through the brokers it starts', [...BROKER_KINDS.map(brokerMissing), fs.existsSync(MAIN) ? null : 'the built bench (npx nx run-many -t build)'], () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'nest-transports-run-'));
  let run: { status: number | null; stdout: string; stderr: string };
  let csv: Record<string, string>[];
  let doc: { results: Cell[]; provenance: { networks: Record<string, { brokers?: Record<string, { version: string; placement: string }> }> } };

  beforeAll(() => {
    const argv = [MAIN, '--transports', NEST.join(','), '--profile', 'quick', '--cases', '①-1,①-2', '--runs', '2', '--out', out];
    run = spawnSync(process.execPath, argv, { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
    const [folder] = fs.readdirSync(out).filter((name) => /^\d{4}-/.test(name));
    doc = JSON.parse(fs.readFileSync(path.join(out, folder, 'results.json'), 'utf8'));
    csv = csvSummaries(fs.readFileSync(path.join(out, folder, 'results.csv'), 'utf8'));
  }, 250_000);

  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('starts every broker the transports name, records its version and placement, and calls through each', () => {
    const brokers = doc.provenance.networks.loopback.brokers ?? {};
    expect(Object.keys(brokers).sort()).toEqual([...BROKER_KINDS].sort());
    for (const record of Object.values(brokers)) {
      expect(record.version).toMatch(/^\d+\.\d+/);
      expect(record.placement).toMatch(/loopback/);
    }
    const small = doc.results.filter((c) => c.case === '①-1');
    expect(small.map((c) => c.transport).sort()).toEqual([...NEST].sort());
    for (const cell of small) expect({ transport: cell.transport, ok: cell.ok }).toEqual({ transport: cell.transport, ok: true });
  });

  it("gives each brokered cell the broker's own counters, moved by its calls, and the broker's CPU, in results.json and results.csv", () => {
    for (const cell of doc.results.filter((c) => c.case === '①-1')) {
      const calls = cell.samplesMs.length;
      if (cell.transport === 'nest-tcp') {
        expect(cell.broker).toBeUndefined();
        continue;
      }
      const broker = cell.broker;
      // Every request crosses the broker at least once: its messages in are at least the timed calls.
      expect({ transport: cell.transport, calls: broker?.calls, movedIn: (broker?.counters?.messagesIn ?? 0) >= calls, cpu: (broker?.cpuMs ?? 0) > 0 }).toEqual({ transport: cell.transport, calls, movedIn: true, cpu: true });
      const row = csv.find((r) => r.case === '①-1' && r.transport === cell.transport)!;
      expect({ transport: cell.transport, broker: row.broker, movedIn: Number(row.broker_messages_in) >= calls, cpu: Number(row.broker_cpu_ms) > 0, withBroker: Number(row.apps_and_broker_cpu_per_1000_calls_ms) > Number(row.apps_cpu_per_1000_calls_ms) }).toEqual({
        transport: cell.transport,
        broker: broker?.kind,
        movedIn: true,
        cpu: true,
        withBroker: true,
      });
    }
    expect(run.stdout).toMatch(/The brokers, counted by themselves over the timed calls:\n- loopback blog ①-1 nest-\w+ via \w+: /);
  });

  it('fails a reply over a broker default with the broker’s own reason, and only that cell', () => {
    const bigger = new Map(doc.results.filter((c) => c.case === '①-2').map((c) => [c.transport, c]));
    expect(bigger.get('nest-nats')?.ok).toBe(false);
    expect(bigger.get('nest-nats')?.error).toMatch(/max_payload/);
    expect(bigger.get('nest-kafka')?.ok).toBe(false);
    expect(bigger.get('nest-kafka')?.error).toMatch(/larger than the max message size/);
    for (const transport of ['nest-tcp', 'nest-redis', 'nest-rmq']) expect({ transport, ok: bigger.get(transport)?.ok }).toEqual({ transport, ok: true });
    // A failed cell is a finding, so the run says so with its exit code, not a crash.
    expect(run.status).toBe(1);
    expect(run.stderr).not.toMatch(/Unhandled|TypeError/);
  });

  it('leaves no broker process and no broker folder behind', () => {
    expect(brokerProcesses()).toEqual([]);
    expect(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('nbx-run-brokers-'))).toEqual([]);
  });
});
