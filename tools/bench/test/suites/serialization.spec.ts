import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { calibrateIterations, sampleNsPerOp } from '../../src/suites/serialization/calibrate';
import { CODECS } from '../../src/suites/serialization/codecs';
import { lastSink, measureCell } from '../../src/suites/serialization/measure';
import { renderSerialization } from '../../src/suites/serialization/render';
import { SIZES, sizesUpTo } from '../../src/suites/serialization/sizes';
import { SAMPLE_COLUMNS } from '@bench/samples';

describe('serialization suite: calibration', () => {
  // A scripted clock: every iteration costs 0.01 ms.
  const time = (iterations: number) => iterations * 0.01;

  it('doubles until a batch takes the minimum, then scales to the target', () => {
    expect(calibrateIterations(time, { minSampleMs: 5, targetSampleMs: 20, samples: 3 })).toBe(2_000);
    expect(calibrateIterations(time, { minSampleMs: 0.005, targetSampleMs: 0.001, samples: 3 })).toBe(1);
  });

  it('reports nanoseconds per operation for each sample', () => {
    expect(sampleNsPerOp(time, 100, 3)).toEqual([10_000, 10_000, 10_000]);
  });
});

describe('serialization suite: codecs and the size ladder', () => {
  it('climbs from a few bytes to over 100 KB by 1,000 rows, and on to ①-2 and ①-3\'s replies', () => {
    const json = CODECS.find((c) => c.id === 'json')!;
    const sizes = sizesUpTo(1_000).map((s) => json.encode(s.kind, s.build()).length);
    expect(sizes[0]).toBeLessThan(20);
    expect(sizes[sizes.length - 1]).toBeGreaterThan(100_000);
    expect(SIZES.slice(-2).map((s) => s.rows)).toEqual([10_000, 1_000_000]);
  });

  it('round-trips every message with every codec that handles it', () => {
    for (const size of sizesUpTo(1_000)) {
      for (const codec of CODECS.filter((c) => c.handles.includes(size.kind))) {
        const value = size.build() as Record<string, unknown>;
        const back = codec.decode(size.kind, codec.encode(size.kind, value)) as Record<string, unknown>;
        if (size.kind === 'param') expect(back.count).toBe(value.count);
        else {
          // Read fields as a caller would (the fast decoder leaves proto3 defaults on the prototype).
          const rows = (back.samples as Record<string, unknown>[]).map((row) =>
            Object.fromEntries(['rowNum', ...SAMPLE_COLUMNS].map((field) => [field, row[field]])),
          );
          expect(rows).toEqual(value.samples);
        }
      }
    }
  });

  it('measures encode and decode of one cell and renders it against JSON', async () => {
    const size = SIZES[1];
    const calibration = { minSampleMs: 1, targetSampleMs: 2, samples: 2 };
    const cells = [...(await measureCell(size, CODECS.find((c) => c.id === 'json')!, calibration)), ...(await measureCell(size, CODECS[0], calibration))];
    expect(lastSink()).toBeDefined();
    expect(cells.map((c) => `${c.codec}/${c.direction}`)).toEqual(['json/encode', 'json/decode', 'protobuf/encode', 'protobuf/decode']);
    for (const c of cells) {
      expect(c.nsPerOp).toBeGreaterThan(0);
      expect(c.opsPerSecond).toBeCloseTo(1e9 / c.nsPerOp, 6);
      expect(c.nsPerOpSamples).toHaveLength(2);
    }
    const md = renderSerialization(cells, '# test');
    expect(md).toContain('| 1 row | json | 236 | 1.00× |');
    expect(md).toContain('| 1 row | protobuf | 104 | 0.44× |');
  });
});

describe('bench:serialization (built, quick profile)', () => {
  it('writes results.json and results.md in a serialization-<timestamp> folder', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ser-'));
    try {
      const main = path.resolve(__dirname, '../../dist/suites/serialization/main.js');
      const result = spawnSync(process.execPath, [main, '--profile', 'quick', '--out', out], { encoding: 'utf8' });
      expect(result.status).toBe(0);
      const dirs = fs.readdirSync(out).filter((name) => name !== 'index.html');
      expect(dirs).toHaveLength(1);
      const [dir] = dirs;
      expect(dir).toMatch(/^serialization-\d{4}-/);
      expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toContain(`${dir}/report.html`);
      const doc = JSON.parse(fs.readFileSync(path.join(out, dir, 'results.json'), 'utf8'));
      expect(doc).toMatchObject({ suite: 'serialization', settings: { preset: 'quick' }, provenance: { gitCommit: expect.any(String) } });
      // quick stops at 1,000 rows: the request with 3 codecs, then 4 replies with 6.
      expect(doc.results).toHaveLength(2 * (3 * 1 + 4 * 6));
      const md = fs.readFileSync(path.join(out, dir, 'results.md'), 'utf8');
      for (const codec of ['protobuf-fast', 'protobuf-es', 'ts-proto']) expect(md).toContain(`| 1,000 rows | ${codec} |`);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
