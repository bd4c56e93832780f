/// <reference lib="dom" />
// The CPU profiles' section of report.html in a real Chromium from disk: flame graphs and diffs drawn
// with no script and no console error, each frame on screen inside its graph, its figures on hover.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { renderReport } from '../../../src/export/html';
import { describeInChromium, launchChromium, openWatched, type WatchedPage } from '../../browser';
import { buildRunDocument } from '../../fixtures';
import { profiledCells } from '../../profiled-cell';

jest.setTimeout(60_000);

describeInChromium('CPU profiles in report.html, in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-flames-'));
    const file = path.join(dir, 'report.html');
    fs.writeFileSync(file, renderReport({ ...(await buildRunDocument()), results: profiledCells() }));
    browser = await launchChromium();
    watched = await openWatched(browser, pathToFileURL(file).href);
  });

  afterAll(async () => {
    await browser?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('renders with no error, no script and nothing fetched', async () => {
    const { page, errors, requests } = watched;
    expect(errors).toEqual([]);
    expect(requests).toHaveLength(1);
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('nav a[href="#cpu-profiles"]').count()).toBe(1);
  });

  it('draws a flame graph per transport and busy process once the case is opened', async () => {
    const { page } = watched;
    const group = page.locator('#cpu-profiles details').first();
    await group.locator('summary').click();
    const flames = group.locator('svg[data-chart="flame"]');
    // JSON: server-a and the client work; gRPC: server-b and the client (the idle servers have no graph).
    expect(await flames.evaluateAll((svgs) => svgs.map((s) => `${s.getAttribute('data-transport')} ${s.getAttribute('data-process')}`))).toEqual(['json server-a', 'json client', 'grpc server-b', 'grpc client']);
    for (const svg of await flames.all()) {
      const frames = await svg.locator('[data-frame] rect').evaluateAll((rects) => {
        const outer = rects[0].ownerSVGElement!.getBoundingClientRect();
        return rects.map((r) => {
          const b = r.getBoundingClientRect();
          return { w: b.width, h: b.height, inside: b.left >= outer.left - 0.5 && b.right <= outer.right + 0.5 && b.top >= outer.top - 0.5 && b.bottom <= outer.bottom + 0.5 };
        });
      });
      expect(frames.length).toBeGreaterThan(1);
      expect(frames.every((f) => f.w >= 1 && f.h > 10 && f.inside)).toBe(true);
      await expect(svg.isVisible()).resolves.toBe(true);
    }
    // gRPC's server-b: the root, grpc-js's call, protobufjs's encode under it, each with its figures on hover.
    const serverB = group.locator('svg[data-chart="flame"][data-process="server-b"]');
    expect(await serverB.locator('[data-frame]').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-package')))).toEqual(['(root)', 'grpc-js', 'protobufjs']);
    expect(await serverB.locator('[data-package="protobufjs"] title').textContent()).toBe("encode (protobufjs): 10.0 ms per call with its callees, 10.0 ms itself; 76.9 % of the process's busy time");
  });

  it('draws the diff between the two transports per process, coloured by who spends more', async () => {
    const { page } = watched;
    const diffs = page.locator('#cpu-profiles details').first().locator('svg[data-chart="diff"]');
    expect(await diffs.evaluateAll((svgs) => svgs.map((s) => `${s.getAttribute('data-transports')} ${s.getAttribute('data-process')}`))).toEqual(['json,grpc server-a', 'json,grpc server-b', 'json,grpc client']);
    const client = diffs.nth(2);
    expect(await client.locator('[data-package="undici"]').getAttribute('data-lean')).toBe('a');
    expect(await client.locator('[data-package="grpc-js"]').getAttribute('data-lean')).toBe('b');
    await expect(client.isVisible()).resolves.toBe(true);
    expect(await page.locator('table[data-table="cpu-packages"] tr[data-package-row="protobufjs"] td').allTextContents()).toEqual([expect.stringContaining('protobufjs'), '–', '–', '10.0', '5.00']);
  });
});
