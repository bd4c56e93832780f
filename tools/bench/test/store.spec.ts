import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRunFolder, pointLatestAt, runFolderName, writeFileAtomic } from '../src/results/store';

describe('results store', () => {
  let parent: string;
  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-store-'));
  });
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

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

  it('points latest at the newest run', () => {
    const a = createRunFolder(parent, new Date('2026-01-01T00:00:00Z'));
    const b = createRunFolder(parent, new Date('2026-01-02T00:00:00Z'));
    pointLatestAt(parent, a);
    pointLatestAt(parent, b);
    expect(fs.realpathSync(path.join(parent, 'latest'))).toBe(fs.realpathSync(b));
    expect(fs.readlinkSync(path.join(parent, 'latest'))).toBe(path.basename(b));
  });
});
