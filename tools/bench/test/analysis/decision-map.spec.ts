import { decisionMap, type DecisionMap } from '../../src/analysis/decision-map';
import { describeCell, renderDecisionMap } from '../../src/export/decision-map';
import { renderDecisionMapHtml } from '../../src/export/html/decision-map';
import type { Cell } from '../../src/model/model';
import { handMadeCell } from '../hand-made-cell';

const cell = (network: string, transport: 'json' | 'grpc', median: number, ok = true): Cell => {
  const base = handMadeCell({});
  return { ...base, network, transport, ok, summary: ok ? { ...base.summary!, median } : null };
};

/** The map's column for a network (these maps have one runtime). */
const at = (map: DecisionMap, network: string) => map.columns.find((c) => c.network === network)!;

describe('decision map', () => {
  const results = [
    cell('loopback', 'json', 28.5), cell('loopback', 'grpc', 89.0),
    cell('region', 'json', 78.5), cell('region', 'grpc', 855.3),
    cell('wan', 'json', 300), cell('wan', 'grpc', 290),
  ];

  it('says who wins each case across each network and by how much, a tie within 1.1×', () => {
    const map = decisionMap(results)!;
    expect(map.columns.map((c) => c.label)).toEqual(['loopback', 'region', 'wan']);
    expect(map.cases.map((c) => c.id)).toEqual(['①-2']);
    expect(describeCell(map.cell('blog', '①-2', at(map, 'loopback')))).toBe('JSON 3.1×');
    expect(describeCell(map.cell('blog', '①-2', at(map, 'region')))).toBe('JSON 10.9×');
    expect(map.cell('blog', '①-2', at(map, 'wan')).winner).toBe('tie');
    const two = decisionMap([cell('a', 'json', 30), cell('a', 'grpc', 10), cell('b', 'json', 1)])!;
    expect(describeCell(two.cell('blog', '①-2', at(two, 'a')))).toBe('gRPC 3.0×');
  });

  it('gains the production path as a column: a path profile is a network of its own, beside its bare network', () => {
    const map = decisionMap([cell('region', 'json', 73.0), cell('region', 'grpc', 849.1), cell('region+names+mesh', 'json', 97.8), cell('region+names+mesh', 'grpc', 173.1)])!;
    expect(map.columns.map((c) => c.label)).toEqual(['region', 'region+names+mesh']);
    expect(describeCell(map.cell('blog', '①-2', at(map, 'region+names+mesh')))).toBe('JSON 1.8×');
    expect(renderDecisionMap(map)).toContain('| blog: case | region | region+names+mesh |');
  });

  it('is absent for a run across one network, and a failed cell has no winner', () => {
    expect(decisionMap(results.slice(0, 2))).toBeNull();
    const map = decisionMap([...results.slice(0, 2), cell('region', 'json', 1), cell('region', 'grpc', 0, false)])!;
    expect(describeCell(map.cell('blog', '①-2', at(map, 'region')))).toBe('—');
  });

  it('has a column per runtime when the run had several (--node), each pairing that runtime\'s cells', () => {
    const on = (runtime: string, r: Cell): Cell => ({ ...r, runtime });
    const map = decisionMap([on('20', results[0]), on('20', results[1]), on('24', cell('loopback', 'json', 20)), on('24', cell('loopback', 'grpc', 40))])!;
    expect(map.columns.map((c) => c.label)).toEqual(['Node 20', 'Node 24']);
    expect(map.columns.map((column) => describeCell(map.cell('blog', '①-2', column)))).toEqual(['JSON 3.1×', 'JSON 2.0×']);
    expect(renderDecisionMap(map).split('\n')[0]).toBe('| blog: case | Node 20 | Node 24 |');
  });

  it('renders the same map as Markdown and as an HTML heat map', () => {
    const md = renderDecisionMap(decisionMap(results)!);
    expect(md.split('\n')[0]).toBe('| blog: case | loopback | region | wan |');
    expect(md).toContain('| ①-2 | JSON 3.1× (28.5 vs 89.0 ms) | JSON 10.9× (78.5 vs 855.3 ms) | tie (300.0 vs 290.0 ms) |');
    const html = renderDecisionMapHtml(results)!;
    expect(html).toContain('data-winner="json"');
    expect(html).toContain('data-winner="tie"');
    expect(html).toMatch(/style="background:#0072B2[0-9a-f]{2}"/);
    expect(renderDecisionMapHtml(results.slice(0, 2))).toBeNull();
  });
});
