// What a run leaves on the terminal at its end: the verdict results.md opens with (stdout), then how many
// cells failed and where the files are (stderr), so a newcomer reads the answer before the paths.
import { withoutAblations, type RunDocument } from '../results';
import { renderVerdictSection } from './markdown';

export interface RunEnd {
  stdout: string;
  stderr: string;
}

/** The end of a bench:all run written to `folder` (as the user should type it); `summary` names the failed cells (measure/'s failureSummary). */
export function renderRunEnd(doc: RunDocument, folder: string, summary: string | null): RunEnd {
  const failed = doc.results.filter((r) => !r.ok).length;
  return {
    stdout: `\n${renderVerdictSection(withoutAblations(doc.results)).join('\n')}\nEvery cell with its CI and the blog's figure: ${folder}/results.md\n\n`,
    stderr:
      `${summary ? summary + '\n' : ''}bench: ${doc.results.length - failed} ok, ${failed} failed${doc.incomplete ? ', run incomplete' : ''}; ` +
      `results in ${folder}/ (results.json, .md, .csv, report.html)\n`,
  };
}
