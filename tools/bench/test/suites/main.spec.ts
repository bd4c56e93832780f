/// <reference lib="dom" />
// bench:suites on the quick profile, end to end: the built entry point starts the apps for each suite,
// writes every suite's folder (results.json, results.md, report.html) and a summary; then each report
// is opened in headless Chromium and its charts are counted.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '@bench/testing';
import type { Browser } from 'playwright-core';
import { SUITES } from '../../src/suites/catalog';
import { describeInChromium, launchChromium, openWatched } from '../browser';

jest.setTimeout(240_000);

const DIST = path.resolve(__dirname, '../../dist/suites');
let out: string;
let folders: Record<string, string>;
let summary: { suites: Array<{ suite: string; exitCode: number; folder: string }> };

beforeAll(async () => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-suites-'));
  const env = { ...process.env, CLIENT_PORT: String(await freePort()), SERVER_A_PORT: String(await freePort()), SERVER_B_PORT: String(await freePort()) };
  const result = spawnSync(process.execPath, [path.join(DIST, 'main.js'), '--profile', 'quick', '--out', out], { encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(`bench:suites exited ${result.status}:\n${result.stderr.slice(-3000)}`);
  const [summaryDir] = fs.readdirSync(out).filter((d) => d.startsWith('suites-'));
  summary = JSON.parse(fs.readFileSync(path.join(out, summaryDir, 'summary.json'), 'utf8'));
  folders = Object.fromEntries(summary.suites.map((s) => [s.suite, path.join(out, s.folder)]));
});
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

const read = (suite: string) => JSON.parse(fs.readFileSync(path.join(folders[suite], 'results.json'), 'utf8'));

describe('bench:suites --profile quick', () => {
  it('runs every suite in catalog order, each into a folder of its own', () => {
    expect(summary.suites.map((s) => [s.suite, s.exitCode])).toEqual(SUITES.map((s) => [s.id, 0]));
    for (const suite of SUITES) {
      expect(path.basename(folders[suite.id])).toMatch(new RegExp(`^${suite.id}-\\d{4}-\\d\\d-\\d\\dT`));
      for (const file of ['results.json', 'results.md', 'report.html']) expect(fs.existsSync(path.join(folders[suite.id], file))).toBe(true);
      expect(read(suite.id)).toMatchObject({ schemaVersion: 2, suite: suite.id, incomplete: false, settings: { preset: 'quick' }, provenance: { gitCommit: expect.any(String) } });
    }
  });

  it('echo: four transports of 200 checked calls each, jobs/s and the stream cost', () => {
    const doc = read('echo');
    expect(doc.results.failures).toEqual([]);
    expect(doc.results.cells.map((c: { transport: string }) => c.transport)).toEqual(['grpc-unary', 'grpc-bidi', 'rest-protobuf', 'rest-json']);
    for (const c of doc.results.cells) {
      expect(c).toMatchObject({ calls: 200, latency: { n: 200 } });
      expect(c.jobsPerS).toBeCloseTo((1000 * 200) / c.elapsedMs, 6);
    }
    expect(doc.results.streamCost.openAndFirstReplyMs.n).toBe(5);
    expect(fs.readFileSync(path.join(folders.echo, 'results.md'), 'utf8')).toContain('| grpc-bidi | 200 |');
  });

  it('latency: six transports, connect times only where a call opens a connection', () => {
    const cells = read('latency').results.cells as Array<{ transport: string; latency: { n: number }; connect: { calls: number } | null; firstCallMs: number[] }>;
    expect(cells.map((c) => c.transport)).toEqual(['grpc', 'json-keepalive', 'json-new-connection', 'protobuf-keepalive', 'protobuf-new-connection', 'protobuf-new-connection-cached-lookup']);
    for (const c of cells) {
      expect(c.latency.n).toBe(20);
      expect(c.firstCallMs).toHaveLength(1);
      expect(c.connect?.calls ?? 0).toBe(c.transport.includes('new-connection') ? 20 : 0);
    }
  });

  it('pingpong: three transports × four payloads, each with an HDR histogram', () => {
    const doc = read('pingpong');
    expect(doc.results.failures).toEqual([]);
    expect(doc.results.cells).toHaveLength(12);
    for (const c of doc.results.cells) {
      expect(c.calls).toBeGreaterThan(0);
      expect(c.latency.n).toBe(c.calls);
      expect(c.latency.p999Ms).toBeGreaterThanOrEqual(c.latency.p50Ms);
      expect(c.payloadBytesPerS).toBeCloseTo(2 * c.bytes * c.callsPerS, 3);
    }
  });

  it('load: the sweep (1, 10, 100 in flight × 1 and 100 rows) on both servers without errors', () => {
    const cells = read('load').results.cells as Array<{ target: string; rows: number; concurrency: number; errors: number; timeouts: number; calls: number; serverCpuShare: number }>;
    expect(cells.map((c) => `${c.rows}/${c.concurrency}/${c.target}`)).toEqual(
      [1, 100].flatMap((rows) => [1, 10, 100].flatMap((n) => [`${rows}/${n}/http-json`, `${rows}/${n}/grpc`])),
    );
    for (const c of cells) {
      expect(c.errors + c.timeouts).toBe(0);
      expect(c.calls).toBeGreaterThan(0);
      expect(c.serverCpuShare).toBeGreaterThan(0);
    }
  });

  it('lists every suite run, and the bench:suites summary, in results/index.html', () => {
    const index = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    const table = index.slice(index.indexOf('<table id="suite-runs">'));
    for (const suite of SUITES) expect(table).toContain(`${encodeURIComponent(path.basename(folders[suite.id]))}/report.html`);
    expect(table).toMatch(/suites-\d{4}-[^/]*\/summary\.md/);
  });

  it('serialization: every codec at every size it handles', () => {
    expect(read('serialization').results).toHaveLength(2 * (3 * 1 + 4 * 6));
  });
});

describeInChromium('suite reports in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  /** [suite, chart kind, how many such charts, series (lines or bars) in each]. */
  const EXPECTED: Array<[string, string, number, number, 'line' | 'bar']> = [
    ['echo', 'echo-throughput', 1, 4, 'bar'],
    ['echo', 'percentiles', 1, 4, 'line'],
    ['latency', 'percentiles', 1, 6, 'line'],
    ['latency', 'latency-mean', 1, 6, 'bar'],
    ['pingpong', 'percentiles', 4, 3, 'line'],
    ['pingpong', 'pingpong-bandwidth', 1, 3, 'line'],
    ['load', 'load-throughput', 2, 6, 'bar'],
    ['serialization', 'serialization-encode', 1, 6, 'line'],
  ];

  it.each(SUITES.map((s) => s.id))('%s report renders its charts offline with no errors', async (suite) => {
    const { page, errors, requests } = await openWatched(browser, pathToFileURL(path.join(folders[suite], 'report.html')).href);
    for (const [, kind, charts, series, mark] of EXPECTED.filter(([s]) => s === suite)) {
      const svgs = page.locator(`svg[data-chart="${kind}"]`);
      expect(await svgs.count()).toBe(charts);
      for (let i = 0; i < charts; i++) {
        const selector = mark === 'bar' ? 'rect[data-bar]' : 'polyline[data-line]';
        expect(await svgs.nth(i).locator(selector).count()).toBe(series);
        const box = await svgs.nth(i).boundingBox();
        expect(box?.width).toBeGreaterThan(200);
      }
    }
    expect(await page.locator('section[data-section="provenance"]').count()).toBe(1);
    expect(errors).toEqual([]);
    expect(requests.filter((r) => !r.startsWith('file://'))).toEqual([]);
    await page.close();
  });
});
