import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RunDocument } from './model';
import { withRuntimes } from './results';
import { errorText } from '../cli';

/** A run folder and its document. */
export interface StoredRun {
  dir: string;
  name: string;
  doc: RunDocument;
}

/** Run folders under `parent` that hold a results.json, oldest first (names are UTC timestamps). */
export function listRuns(parent: string): string[] {
  if (!fs.existsSync(parent)) return [];
  return fs
    .readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d{4}-\d\d-\d\dT/.test(entry.name))
    .map((entry) => path.join(parent, entry.name))
    .filter((dir) => fs.existsSync(path.join(dir, 'results.json')))
    .sort((a, b) => path.basename(a).localeCompare(path.basename(b)));
}

/** Reads a run folder (or a results.json path), with a clear error when it is not one. */
export function readRun(dirOrFile: string): StoredRun {
  const file = dirOrFile.endsWith('.json') ? dirOrFile : path.join(dirOrFile, 'results.json');
  if (!fs.existsSync(file)) throw new Error(`${dirOrFile} is not a run folder: ${file} does not exist`);
  let doc: RunDocument;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8')) as RunDocument;
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${errorText(error)}`);
  }
  if (!Array.isArray(doc.results)) throw new Error(`${file} has no results array`);
  // Cells of a run from before --node carry no runtime: labelled with the Node their provenance recorded.
  doc.results = withRuntimes(doc.results, doc.provenance);
  const dir = path.dirname(file);
  return { dir, name: path.basename(dir), doc };
}

/**
 * Rewrites `<parent>/index.html` from every run folder there; a folder that cannot be read is listed
 * on stderr and left out rather than breaking the page.
 */
export function writeIndex(
  parent: string,
  render: (runs: { run: StoredRun; hasReport: boolean }[], suiteRuns: SuiteRunEntry[]) => string,
  write: (file: string, text: string) => void,
): void {
  const runs: { run: StoredRun; hasReport: boolean }[] = [];
  for (const dir of listRuns(parent)) {
    try {
      runs.push({ run: readRun(dir), hasReport: fs.existsSync(path.join(dir, 'report.html')) });
    } catch (error) {
      process.stderr.write(`bench: index skips ${dir}: ${errorText(error)}\n`);
    }
  }
  write(path.join(parent, 'index.html'), render(runs, listSuiteRuns(parent)));
}

/** A suite's run folder (`echo-2026-…`, `suites-2026-…`), as the index lists it. */
export interface SuiteRunEntry {
  name: string;
  suite: string;
  incomplete: boolean;
  /** What sets it apart from its siblings of one command: its network and security mode beyond loopback and plain (`region · tls`), or null. */
  axes: string | null;
  /** The file to link: report.html of a suite, summary.md of a bench:suites run. */
  page: string | null;
}

/** Suite run folders under `parent`, oldest first; unreadable ones are left out. */
export function listSuiteRuns(parent: string): SuiteRunEntry[] {
  if (!fs.existsSync(parent)) return [];
  const entries: SuiteRunEntry[] = [];
  for (const entry of fs.readdirSync(parent, { withFileTypes: true })) {
    const match = /^([a-z]+)-(\d{4}-\d\d-\d\dT.*)$/.exec(entry.name);
    if (!entry.isDirectory() || !match) continue;
    const dir = path.join(parent, entry.name);
    const page = ['report.html', 'summary.md'].find((file) => fs.existsSync(path.join(dir, file))) ?? null;
    let incomplete = false;
    let axes: string | null = null;
    try {
      if (fs.existsSync(path.join(dir, 'results.json'))) {
        const doc = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8')) as { incomplete?: boolean; settings?: { network?: string; security?: string } };
        incomplete = doc.incomplete === true;
        axes = [doc.settings?.network ?? 'loopback', doc.settings?.security ?? 'plain'].filter((a) => a !== 'loopback' && a !== 'plain').join(' · ') || null;
      }
    } catch {
      incomplete = true;
    }
    entries.push({ name: entry.name, suite: match[1], incomplete, axes, page });
  }
  return entries.sort((a, b) => a.name.slice(a.suite.length).localeCompare(b.name.slice(b.suite.length)));
}
