import { decisionMap, describeCell, renderDecisionMap } from '../src/export/decision-map';
import { renderDecisionMapHtml } from '../src/export/html/decision-map';
import type { CaseResult } from '../src/results/model';
import { caseResult } from './case-result';

const cell = (network: string, transport: 'json' | 'grpc', median: number, ok = true): CaseResult => {
  const base = caseResult({});
  return { ...base, network, transport, ok, summary: ok ? { ...base.summary!, median } : null };
};

describe('decision map', () => {
  const results = [
    cell('loopback', 'json', 28.5), cell('loopback', 'grpc', 89.0),
    cell('region', 'json', 78.5), cell('region', 'grpc', 855.3),
    cell('wan', 'json', 300), cell('wan', 'grpc', 290),
  ];

  it('says who wins each case across each network and by how much, a tie within 1.1×', () => {
    const map = decisionMap(results)!;
    expect(map.networks).toEqual(['loopback', 'region', 'wan']);
    expect(map.cases.map((c) => c.id)).toEqual(['①-2']);
    expect(describeCell(map.cell('blog', '①-2', 'loopback'))).toBe('JSON 3.1×');
    expect(describeCell(map.cell('blog', '①-2', 'region'))).toBe('JSON 10.9×');
    expect(map.cell('blog', '①-2', 'wan').winner).toBe('tie');
    expect(describeCell(decisionMap([cell('a', 'json', 30), cell('a', 'grpc', 10), cell('b', 'json', 1)])!.cell('blog', '①-2', 'a'))).toBe('gRPC 3.0×');
  });

  it('is absent for a run across one network, and a failed cell has no winner', () => {
    expect(decisionMap(results.slice(0, 2))).toBeNull();
    const map = decisionMap([...results.slice(0, 2), cell('region', 'json', 1), cell('region', 'grpc', 0, false)])!;
    expect(describeCell(map.cell('blog', '①-2', 'region'))).toBe('—');
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
