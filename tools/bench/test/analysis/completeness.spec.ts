import { completenessOf, describeIncomplete } from '../../src/analysis/completeness';
import { plannedCells } from '../../src/model/planned-cells';
import { CASES } from '../../src/plan/cases';
import type { Visit } from '../../src/model/model';

// What a run planned against what it measured (analysis/completeness.ts): bench:compare's check.
describe('run completeness', () => {
  const record = (id: string) => CASES.find((c) => c.aliases.includes(id))!;
  const visit = (id: string, visits: number, visitNo: number): Visit =>
    ({ network: 'loopback', variant: 'blog', record: record(id), transports: ['json', 'grpc'], visits, visit: visitNo }) as unknown as Visit;
  const plan = [visit('1-1', 2, 1), visit('2-1', 1, 1), visit('1-1', 2, 2)];
  const result = (id: string, transport: string) => ({ network: 'loopback', variant: 'blog', case: record(id).id, transport });

  it('lists every planned cell once, with its visits', () => {
    expect(plannedCells(plan)).toEqual([
      { network: 'loopback', variant: 'blog', case: '①-1', transport: 'json', visits: 2 },
      { network: 'loopback', variant: 'blog', case: '①-1', transport: 'grpc', visits: 2 },
      { network: 'loopback', variant: 'blog', case: '②-1', transport: 'json', visits: 1 },
      { network: 'loopback', variant: 'blog', case: '②-1', transport: 'grpc', visits: 1 },
    ]);
  });

  it('names missing cells and cells short of visits; a finished run is complete', () => {
    const settings = {
      plannedCells: plannedCells(plan),
      visitsDone: { 'loopback/blog ①-1 json': 1, 'loopback/blog ①-1 grpc': 1 },
    };
    const killed = completenessOf({ incomplete: true, settings, results: [result('1-1', 'json'), result('1-1', 'grpc')] as never });
    expect(killed).toEqual({
      complete: false,
      missing: ['loopback/blog ②-1 json', 'loopback/blog ②-1 grpc'],
      short: ['loopback/blog ①-1 json (1 of 2 visits)', 'loopback/blog ①-1 grpc (1 of 2 visits)'],
      unknown: null,
    });
    expect(describeIncomplete('the head run X', killed)).toBe(
      'the head run X is incomplete (it stopped before every planned visit ran); 2 cell(s) missing: loopback/blog ②-1 json, loopback/blog ②-1 grpc; ' +
        '2 cell(s) with fewer visits than planned: loopback/blog ①-1 json (1 of 2 visits), loopback/blog ①-1 grpc (1 of 2 visits)',
    );
    const all = ['1-1', '2-1'].flatMap((id) => [result(id, 'json'), result(id, 'grpc')]);
    const visitsDone = { 'loopback/blog ①-1 json': 2, 'loopback/blog ①-1 grpc': 2, 'loopback/blog ②-1 json': 1, 'loopback/blog ②-1 grpc': 1 };
    expect(completenessOf({ incomplete: false, settings: { ...settings, visitsDone }, results: all as never }).complete).toBe(true);
  });

  it('does not count a variant the run skipped (not built) as missing', () => {
    const go = plannedCells([{ ...visit('1-1', 1, 1), variant: 'go' } as Visit]);
    const c = completenessOf({ incomplete: false, settings: { plannedCells: go, visitsDone: {}, skippedVariants: { go: 'not built' } }, results: [] });
    expect(c.complete).toBe(true);
  });

  it('reads runs from before the plan was recorded by their incomplete flag alone', () => {
    expect(completenessOf({ incomplete: false, settings: {}, results: [] }).complete).toBe(true);
    const old = completenessOf({ incomplete: true, settings: {}, results: [] });
    expect(old).toMatchObject({ complete: false, missing: [], unknown: expect.stringContaining('which cells are missing is not known') });
  });
});
