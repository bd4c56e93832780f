import { hasCpuProfiles, renderCpuProfileCsv, renderCpuProfileMarkdown } from '../../src/export/cpu-profile';
import { renderMarkdown } from '../../src/export/markdown';
import { exportedFiles, RUN_EXPORTERS, writeExports } from '../../src/export/exporters';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildRunDocument } from '../fixtures';
import { handMadeCell } from '../hand-made-cell';
import { profiledCells } from '../profiled-cell';

describe('CPU profiles in results.md and cpu-profiles.csv', () => {
  const cells = profiledCells();

  it('is a section of results.md, which says the run was profiled (its times slower than without)', async () => {
    const base = await buildRunDocument();
    const md = renderMarkdown({ ...base, settings: { ...base.settings, cpuProfile: { intervalUs: 200 } }, results: cells });
    expect(md).toContain('## CPU profiles');
    expect(md).toContain("- **profiled run (--cpu-profile, every 200 µs): every timed call ran under the apps' CPU profilers");
    expect(renderMarkdown(base)).not.toContain('profiled run');
  });

  it('renders a row per cell and process with its busy time, packages and top function', () => {
    const md = renderCpuProfileMarkdown(cells).join('\n');
    expect(md).toContain('## CPU profiles: who spends the time (per call)');
    expect(md).toContain('| blog | ①-2 | grpc | server-b | 3 | 13.0 | protobufjs 10.0 (77 %), grpc-js 3.00 (23 %) | encode (protobufjs) 10.0 |');
    expect(md).toContain('| blog | ①-2 | json | client | 3 | 4.00 | JSON 3.00 (75 %), undici 1.00 (25 %) | parse (JSON) 3.00 |');
    
  });

  it('has no section and no csv without profiles', () => {
    expect(renderCpuProfileMarkdown([handMadeCell()])).toEqual([]);
    expect(hasCpuProfiles([handMadeCell()])).toBe(false);
    expect(renderCpuProfileCsv([handMadeCell()]).trim().split('\n')).toHaveLength(1);
  });

  it('writes a package row per package and a function row per top function', () => {
    const lines = renderCpuProfileCsv(cells).trim().split('\n');
    const header = lines[0].split(',');
    expect(header).toEqual(['row_type', 'network', 'node', 'security', 'variant', 'case', 'transport', 'process', 'calls', 'name', 'package', 'where', 'self_ms', 'self_ms_per_call', 'share_of_busy', 'file']);
    const rows = lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i], v])));
    const encode = rows.find((r) => r.row_type === 'package' && r.transport === 'grpc' && r.process === 'server-b' && r.package === 'protobufjs')!;
    expect(encode).toMatchObject({ network: 'loopback', node: '24', security: 'plain', variant: 'blog', case: '①-2', calls: '3', self_ms: '30', self_ms_per_call: '10', file: 'profiles/x/server-b.cpuprofile' });
    expect(rows.some((r) => r.row_type === 'function' && r.name === 'encode' && r.where === 'protobufjs/src/writer.js:3')).toBe(true);
    expect(rows.filter((r) => r.package === '(idle)').every((r) => r.row_type === 'package')).toBe(true);
  });

  it('is a file of the run folder only when a cell has profiles', async () => {
    const base = await buildRunDocument();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cpu-csv-'));
    try {
      writeExports(dir, { ...base, results: [handMadeCell()] }, RUN_EXPORTERS);
      expect(fs.existsSync(path.join(dir, 'cpu-profiles.csv'))).toBe(false);
      const doc = { ...base, results: cells };
      writeExports(dir, doc, RUN_EXPORTERS);
      expect(fs.existsSync(path.join(dir, 'cpu-profiles.csv'))).toBe(true);
      expect(exportedFiles(RUN_EXPORTERS, doc)).toContain('cpu-profiles.csv');
      expect(exportedFiles(RUN_EXPORTERS)).not.toContain('cpu-profiles.csv');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
