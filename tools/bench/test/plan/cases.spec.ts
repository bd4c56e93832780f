import { BLOG_CASES, selectCases } from '../../src/plan/cases';

describe('the blog cases', () => {
  it('are the seven cases of the blog with its figures', () => {
    expect(BLOG_CASES.map((c) => [c.id, c.rows, c.requests])).toEqual([
      ['①-1', 1, 1],
      ['①-2', 10_000, 1],
      ['①-3', 1_000_000, 1],
      ['②-1', 1, 10],
      ['②-2', 1, 100],
      ['②-3', 1, 1_000],
      ['20k×4', 20_000, 4],
    ]);
    expect(BLOG_CASES.find((c) => c.id === '①-3')?.blogMs).toEqual({ json: 5177.148, grpc: 12075.561 });
    expect(BLOG_CASES.find((c) => c.id === '20k×4')?.blogMs).toEqual({ json: 220.704, grpc: 700.893 });
  });

  it('have unique ids and aliases', () => {
    const names = BLOG_CASES.flatMap((c) => [c.id, ...c.aliases].map((n) => n.toLowerCase()));
    expect(new Set(names).size).toBe(names.length);
  });

  it('are found by id or ASCII alias, in catalog order', () => {
    expect(selectCases(['20kx4', '1-3', '②-1']).map((c) => c.id)).toEqual(['①-3', '②-1', '20k×4']);
    expect(selectCases(['20K×4', '20kx4']).map((c) => c.id)).toEqual(['20k×4']);
  });

  it('name the known cases when one is unknown', () => {
    expect(() => selectCases(['1-4'])).toThrow(/unknown case "1-4"; known cases: ①-1 \(1-1\)/);
  });
});
