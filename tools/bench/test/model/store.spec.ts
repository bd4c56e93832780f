import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRunFolder, pointLatestAt, runFolderName, shownRunFolder, STALE_TEMP_AGE_MS, sweepStaleTemps, writeFileAtomic } from '../../src/model/store';

describe('results store', () => {
  let parent: string;
  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-store-'));
  });
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  it('shows a run folder where its reader finds it: on the host when the container says where --out is there', () => {
    // docker-compose.yml: --out /results, bind-mounted from ./results, the bench's working directory /app.
    expect(shownRunFolder('/results/2026-11-28T18-00-00Z', '/results', {}, '/app')).toBe('../results/2026-11-28T18-00-00Z');
    expect(shownRunFolder('/results/2026-11-28T18-00-00Z', '/results', { BENCH_RESULTS_ON_HOST: './results' }, '/app')).toBe('results/2026-11-28T18-00-00Z');
    expect(shownRunFolder('/tmp/results/2026-11-28T18-00-00Z', '/tmp/results', { BENCH_RESULTS_ON_HOST: 'out/k8s' }, '/app')).toBe('out/k8s/2026-11-28T18-00-00Z');
    expect(shownRunFolder('/results', '/results', { BENCH_RESULTS_ON_HOST: './results' }, '/app')).toBe('results');
  });

  it('names run folders by UTC timestamp', () => {
    expect(runFolderName(new Date('2026-11-21T10:41:59.123Z'))).toBe('2026-11-21T10-41-59Z');
  });

  it('never reuses a run folder, even within the same second', () => {
    const when = new Date('2026-11-21T10:41:59Z');
    const first = createRunFolder(parent, when);
    fs.writeFileSync(path.join(first, 'results.json'), 'earlier run');
    const second = createRunFolder(parent, when);
    expect(path.basename(first)).toBe('2026-11-21T10-41-59Z');
    expect(path.basename(second)).toBe('2026-11-21T10-41-59Z-2');
    expect(fs.readFileSync(path.join(first, 'results.json'), 'utf8')).toBe('earlier run');
  });

  it('writes atomically, leaving no temporary file behind', () => {
    const file = path.join(parent, 'results.json');
    writeFileAtomic(file, '{"a":1}');
    writeFileAtomic(file, '{"a":2}');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":2}');
    expect(fs.readdirSync(parent)).toEqual(['results.json']);
  });

  it('leaves no temporary file behind when a write fails', () => {
    const file = path.join(parent, 'results.json');
    fs.mkdirSync(file); // renaming a file over a folder fails
    expect(() => writeFileAtomic(file, '{}')).toThrow();
    expect(fs.readdirSync(parent)).toEqual(['results.json']);
  });

  it("sweeps a killed writer's temp files at the next run's start, and only those", () => {
    // A PID that ran and exited: what a SIGKILLed bench leaves in its temp files' names.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const run = createRunFolder(parent, new Date('2026-01-01T00:00:00Z'));
    const old = (Date.now() - 2 * STALE_TEMP_AGE_MS) / 1000;
    const place = (dir: string, name: string, age = old) => {
      fs.writeFileSync(path.join(dir, name), 'half');
      fs.utimesSync(path.join(dir, name), age, age);
      return path.join(dir, name);
    };
    const stale = [place(run, `.results.json.${dead}.tmp`), place(parent, `.index.html.${dead}.tmp`)];
    const kept = [
      place(run, `.results.md.${process.pid}.tmp`), // its writer runs
      place(run, `.results.csv.${dead}.tmp`, Date.now() / 1000), // too new to judge by a PID alone
      place(run, 'notes.tmp'), // not a temp file of ours
    ];
    expect(sweepStaleTemps(parent).sort()).toEqual(stale.sort());
    for (const file of kept) expect(fs.existsSync(file)).toBe(true);
    // createRunFolder sweeps too: a new run is where a killed run's leftovers go.
    const again = place(run, `.results.json.${dead}.tmp`);
    createRunFolder(parent, new Date('2026-01-02T00:00:00Z'));
    expect(fs.existsSync(again)).toBe(false);
  });

  it('points latest at the newest run', () => {
    const a = createRunFolder(parent, new Date('2026-01-01T00:00:00Z'));
    const b = createRunFolder(parent, new Date('2026-01-02T00:00:00Z'));
    pointLatestAt(parent, a);
    pointLatestAt(parent, b);
    expect(fs.realpathSync(path.join(parent, 'latest'))).toBe(fs.realpathSync(b));
    expect(fs.readlinkSync(path.join(parent, 'latest'))).toBe(path.basename(b));
  });
});
