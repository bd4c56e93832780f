// The files of a run folder, as a list: each a name and how it is rendered from the run's document.
// bench:all and every suite write theirs through writeExports, so the folder and the line that names
// its files come from one list.
import * as path from 'node:path';
import { writeFileAtomic, type ProfiledRecord, type RunDocument } from '../model';
import { renderCsv } from './csv';
import { renderReport } from './html';
import { renderMarkdown } from './markdown';
import { hasCpuProfiles, renderCpuProfileCsv } from './cpu-profile';
import { hasRanking, renderRankingCsv } from './ranking';
import { withoutAblations } from '../analysis';

/** One file of a run folder and how it is rendered from the document. */
export interface Exporter<D> {
  file: string;
  render(doc: D): string;
  /** Written only when this holds (a file only some runs have); absent: always. */
  when?(doc: D): boolean;
}

/** results.json: the document itself, the source of truth every other file is rendered from. */
export const JSON_EXPORTER: Exporter<unknown> = { file: 'results.json', render: (doc) => JSON.stringify(doc, null, 2) + '\n' };

/** cpu-profiles.csv (--cpu-profile) of a document whose profiled records `records` reads: bench:all's cells, a suite's units; only when one was profiled. */
export function cpuProfileCsvExporter<D>(records: (doc: D) => readonly ProfiledRecord[]): Exporter<D> {
  return { file: 'cpu-profiles.csv', render: (doc) => renderCpuProfileCsv(records(doc)), when: (doc) => hasCpuProfiles(records(doc)) };
}

/** bench:all's files: the document, results.md, results.csv, the HTML report, and ranking.csv where a case ran over three transports or more. */
export const RUN_EXPORTERS: readonly Exporter<RunDocument>[] = [
  JSON_EXPORTER,
  { file: 'results.md', render: renderMarkdown },
  { file: 'results.csv', render: (doc) => renderCsv(doc.results, doc.provenance.networks) },
  { file: 'report.html', render: renderReport },
  { file: 'ranking.csv', render: (doc) => renderRankingCsv(withoutAblations(doc.results)), when: (doc) => hasRanking(withoutAblations(doc.results)) },
  cpuProfileCsvExporter((doc) => doc.results),
];

/** Writes every exporter's file into the run folder, each atomically (a reader never sees half a file). */
export function writeExports<D>(runDir: string, doc: D, exporters: readonly Exporter<D>[]): void {
  for (const exporter of exporters) if (!exporter.when || exporter.when(doc)) writeFileAtomic(path.join(runDir, exporter.file), exporter.render(doc));
}

/** "results.json, results.md, report.html": the files a run folder gets, for the line that says where they are. */
export function exportedFiles<D>(exporters: readonly Exporter<D>[], doc?: D): string {
  return exporters.filter((e) => !e.when || (doc !== undefined && e.when(doc))).map((e) => e.file).join(', ');
}
