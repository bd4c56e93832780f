import { summarize } from '../../src/model/stats';
import { variantRatios } from '../../src/analysis/breakdown';
import { handMadeCell } from '../hand-made-cell';

describe('the secondary tables of a run on several runtimes', () => {
  it('never pool two runtimes\' cells, and name the runtime beside the network', () => {
    const cell = (runtime: string, variant: string, median: number) => handMadeCell({ runtime, variant, samplesMs: [median], summary: summarize([median]) });
    const table = variantRatios([cell('20', 'blog', 30), cell('20', 'tuned', 10), cell('24', 'blog', 20), cell('24', 'tuned', 10)])!;
    expect(table.rows.map((r) => [r.network, r.ratios[0]])).toEqual([
      ['loopback · Node 20', 1 / 3],
      ['loopback · Node 24', 1 / 2],
    ]);
  });
});
