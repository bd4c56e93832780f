// The runs index's embedded data keys each cell as results' cellKey does, so its compare view pairs
// cells exactly as bench:compare does (a tls cell never with its plain twin).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compareKit, type ComparableResult } from '../../src/compare/compare';
import { renderIndex } from '../../src/compare/index-page';
import type { RunDocument } from '../../src/model/model';
import { listSuiteRuns, type StoredRun } from '../../src/model/runs';
import { buildRunDocument } from '../fixtures';

/** The fixture run with each cell twice: once plain (no `security`, as older runs) and once over TLS, `tlsFactor` slower. */
function withTlsTwins(doc: RunDocument, tlsFactor: number): RunDocument {
  const copy = JSON.parse(JSON.stringify(doc)) as RunDocument;
  const tls = copy.results.map((r) => {
    const twin = JSON.parse(JSON.stringify(r)) as typeof r;
    twin.security = 'tls';
    if (twin.summary) twin.summary.median *= tlsFactor;
    return twin;
  });
  for (const r of copy.results) delete r.security;
  copy.results.push(...tls);
  return copy;
}

function embedded(html: string): { results: ComparableResult[] }[] {
  const match = /<script type="application\/json" id="runs-data">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error('no runs-data in the index');
  return JSON.parse(match[1]);
}

describe('the runs index', () => {
  it('embeds each cell with its network, runtime and security, and compares tls with tls', async () => {
    const doc = await buildRunDocument();
    const runs: { run: StoredRun; hasReport: boolean }[] = [withTlsTwins(doc, 2), withTlsTwins(doc, 3)].map((d, i) => ({ run: { name: `2026-01-0${i + 1}T00-00-00Z`, doc: d } as StoredRun, hasReport: false }));
    const [base, head] = embedded(renderIndex(runs));
    expect(new Set(head.results.map((r) => r.security))).toEqual(new Set(['plain', 'tls']));
    expect(head.results.every((r) => typeof r.network === 'string' && typeof r.runtime === 'string')).toBe(true);
    const rows = compareKit().compareRuns(base, head);
    const okCells = doc.results.filter((r) => r.ok && r.summary).length;
    expect(rows).toHaveLength(2 * okCells);
    // Plain with plain (same medians), tls with tls (3× over 2×): never a tls cell with its plain twin.
    for (const row of rows) expect(row.headMedian / row.baseMedian).toBeCloseTo(row.security === 'tls' ? 1.5 : 1, 6);
    expect(rows.filter((row) => row.security === 'tls')).toHaveLength(okCells);
  });
});

describe("the runs index's suite runs", () => {
  it('name what sets one folder of a suite apart from its siblings: its network and security mode beyond loopback and plain', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'index-suites-'));
    try {
      const folder = (name: string, settings: Record<string, string>) => {
        fs.mkdirSync(path.join(out, name));
        fs.writeFileSync(path.join(out, name, 'results.json'), JSON.stringify({ incomplete: false, settings }));
        fs.writeFileSync(path.join(out, name, 'report.html'), '');
      };
      folder('echo-2026-11-28T10-00-00Z', { network: 'loopback', security: 'plain' });
      folder('echo-2026-11-28T10-00-01Z', { network: 'loopback', security: 'mtls' });
      folder('echo-2026-11-28T10-00-02Z', { network: 'region', security: 'tls' });
      // A folder from before --security on the suites: plain.
      folder('echo-2026-11-28T09-00-00Z', { network: 'loopback' });
      const entries = listSuiteRuns(out);
      expect(entries.map((e) => e.axes)).toEqual([null, null, 'mtls', 'region · tls']);
      const html = renderIndex([], entries);
      expect(html).toContain('<td>echo · mtls</td>');
      expect(html).toContain('<td>echo · region · tls</td>');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
