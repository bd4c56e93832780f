import { renderMarkdown } from '../../src/export/markdown';
import { renderRunEnd } from '../../src/export/terminal';
import { exportedFiles, RUN_EXPORTERS } from '../../src/export/exporters';
import { failureSummary } from '../../src/measure/failures';
import { buildRunDocument } from '../fixtures';

describe('renderRunEnd: what bench:all leaves on the terminal', () => {
  it('prints the verdict results.md opens with (winner, factor, why), then the counts and where the files are', async () => {
    const doc = await buildRunDocument();
    const end = renderRunEnd(doc, { folder: 'results/2026-11-25T12-00-00Z', files: exportedFiles(RUN_EXPORTERS), failures: failureSummary(doc.results) });
    const markdown = renderMarkdown(doc);
    const verdict = markdown.slice(markdown.indexOf('## Verdict'), markdown.indexOf('\n## ', markdown.indexOf('## Verdict') + 1)).trim();
    expect(verdict).toContain('| winner | by (slower ÷ faster median, CI range) |');
    expect(end.stdout).toContain(verdict);
    expect(end.stdout).toMatch(/\| ①-2 \| (JSON|gRPC|tie) \| \d+\.\d\d× /);
    // The verdict only: the 18-column table stays in results.md.
    expect(end.stdout).not.toContain('| stddev ms |');
    expect(end.stderr).toMatch(/bench: \d+ ok, 1 failed; results in results\/2026-11-25T12-00-00Z\/ \(results.json, results.md, results.csv, report.html\)\n$/);
    expect(end.stderr).toMatch(/cells failed: blog ②-3 grpc/);
  });
});
