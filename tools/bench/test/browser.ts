/// <reference lib="dom" />
// Shared by the browser tests: Debian's Chromium driven by playwright-core, and a page that records
// every console error, page error, failed request and request it makes.
import * as fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { describeNeeding } from './needs';

/** Debian's Chromium (apt-get install chromium); Playwright's own browser downloads are not used. */
export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export const chromiumAvailable = fs.existsSync(CHROMIUM);

/** `describe` when Chromium is here; otherwise failing under CI=true, skipped elsewhere (needs.ts). */
export function describeInChromium(name: string, body: () => void): void {
  describeNeeding(name, [chromiumAvailable ? null : `${CHROMIUM} (Debian's chromium: apt-get install -y chromium)`], body);
}

export interface WatchedPage {
  page: Page;
  errors: string[];
  requests: string[];
}

/** Playwright gives every launch a fresh temporary profile and removes it on close. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

export async function openWatched(browser: Browser, url: string): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => errors.push(`request failed: ${request.url()} (${request.failure()?.errorText ?? '?'})`));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors, requests };
}
