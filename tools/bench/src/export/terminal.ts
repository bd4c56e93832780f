// What a run leaves on the terminal at its end: the verdict results.md opens with (stdout), then how many
// cells failed and where the files are (stderr), so a newcomer reads the answer before the paths.
import { type RunDocument } from '../model';
import { withoutAblations } from '../analysis';
import { renderVerdictSection } from './markdown';
import { describeDisturbedVisits, modeNotes } from './cell-counters';
import { brokerTerminalLines } from './brokers';
import { rankingTerminalLines } from './ranking';

export interface RunEnd {
  stdout: string;
  stderr: string;
}

/** Where the run's files are and which cells failed (measure/'s failureSummary), as main.ts knows them. */
export interface RunEndPlace {
  /** The run folder, as the user should type it. */
  folder: string;
  /** Its files, listed (exporters.ts's exportedFiles). */
  files: string;
  failures: string | null;
}

/** A heading and its lines as a list, with a blank line after; nothing when there are no lines. */
const listBlock = (heading: string, lines: readonly string[]) => (lines.length ? `${heading}\n${lines.map((n) => `- ${n}`).join('\n')}\n\n` : '');

/** The end of a bench:all run. */
export function renderRunEnd(doc: RunDocument, { folder, files, failures }: RunEndPlace): RunEnd {
  const failed = doc.results.filter((r) => !r.ok).length;
  const disturbed = describeDisturbedVisits(doc.results);
  const named = withoutAblations(doc.results);
  return {
    stdout:
      `\n${renderVerdictSection(named).join('\n')}\n` +
      listBlock("Every transport ranked, fastest first (× the fastest's median; results.md has the CIs):", rankingTerminalLines(named)) +
      listBlock("Modes, and what explains them (the kernel's TCP counters, GC pauses in the encode, the encode per set of apps):", modeNotes(doc.results)) +
      listBlock('The brokers, counted by themselves over the timed calls:', brokerTerminalLines(doc.results, doc.provenance.networks)) +
      `Every cell with its CI and the blog's figure: ${folder}/results.md\n\n`,
    stderr:
      `${failures ? failures + '\n' : ''}${disturbed ? `bench: ${disturbed}\n` : ''}bench: ${doc.results.length - failed} ok, ${failed} failed${doc.incomplete ? ', run incomplete' : ''}; ` +
      `results in ${folder}/ (${files})\n`,
  };
}
