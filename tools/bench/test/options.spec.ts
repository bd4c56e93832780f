import * as path from 'node:path';
import { groupByApps, parseOptions, planCases, splitRuns, UsageError } from '../src/options';

describe('parseOptions', () => {
  it('defaults to the default profile: seven cases, both transports, 60 runs (5 for ①-3) in 3 forks', () => {
    const options = parseOptions([], '/work');
    expect(options.profile.name).toBe('default');
    expect(options.out).toBe(path.resolve('/work', 'results'));
    expect(options.clientUrl).toBeNull();
    const plan = planCases(options);
    // Six cases in three forks, ①-3 in one: 6 × 3 + 1 visits.
    expect(plan).toHaveLength(19);
    expect(plan.map((p) => `${p.record.id}/${p.transports.join('+')}/${p.runs}/${p.warmup}/${p.warmupMs}`).slice(0, 3)).toEqual([
      '①-1/json+grpc/20/1/3000',
      '①-2/json+grpc/20/1/3000',
      '①-3/json+grpc/5/1/3000',
    ]);
    const runsPerCase = new Map<string, number>();
    for (const p of plan) runsPerCase.set(p.record.id, (runsPerCase.get(p.record.id) ?? 0) + p.runs);
    expect(Object.fromEntries(runsPerCase)).toEqual({ '①-1': 60, '①-2': 60, '①-3': 5, '②-1': 60, '②-2': 60, '②-3': 30, '20k×4': 50 });
  });

  it('reads both --flag value and --flag=value (as Nx forwards them)', () => {
    const options = parseOptions(['--profile=quick', '--cases', '1-1,20kx4', '--transports=grpc', '--runs', '4', '--warmup=0', '--warmup-ms', '250', '--out', 'x', '--client-url=http://h:1/'], '/w');
    expect(options).toMatchObject({ transports: ['grpc'], runs: 4, warmup: 0, warmupMs: 250, out: '/w/x', clientUrl: 'http://h:1' });
    expect(options.cases.map((c) => c.id)).toEqual(['①-1', '20k×4']);
    expect(planCases(options).map((p) => [p.runs, p.transports])).toEqual([[4, ['grpc']], [4, ['grpc']]]);
  });

  it('plans every case for each variant, one variant after the other', () => {
    const plan = planCases(parseOptions(['--variants', 'bare,blog', '--cases', '1-1,1-2', '--forks', '0']));
    expect(plan.map((p) => `${p.variant}/${p.record.id}`)).toEqual(['blog/①-1', 'blog/①-2', 'bare/①-1', 'bare/①-2']);
  });

  it('lets --runs override a case default', () => {
    const plan = planCases(parseOptions(['--cases', '1-3', '--runs', '2']));
    expect(plan.map((p) => p.runs)).toEqual([2]);
  });

  it('selects payload endpoint cases by id or alias, on the Nest variants only', () => {
    const options = parseOptions(['--cases', 'orders-1k,orders-1x100', '--variants', 'blog,tuned'], '/work');
    expect(options.cases.map((c) => [c.id, c.payload, c.rows, c.requests])).toEqual([
      ['orders-1k', 'orders', 1000, 1],
      ['orders-1×100', 'orders', 1, 100],
    ]);
    expect(() => parseOptions(['--cases', 'orders-1', '--variants', 'blog,bare'], '/work')).toThrow('only the Nest apps serve (variants blog, tuned), not bare');
  });

  it('forks each case 3 times by default (①-3 once), none on quick or with --client-url', () => {
    const forksOf = (argv: string[]) => planCases(parseOptions(argv)).filter((p) => p.fork <= 1).map((p) => `${p.record.id}:${p.forks}`);
    expect(forksOf(['--cases', '1-2,1-3,20kx4'])).toEqual(['①-2:3', '①-3:1', '20k×4:3']);
    expect(forksOf(['--profile', 'quick', '--cases', '1-2'])).toEqual(['①-2:0']);
    expect(forksOf(['--cases', '1-3', '--forks', '2'])).toEqual(['①-3:2']);
    expect(forksOf(['--cases', '1-2', '--client-url', 'http://h:1'])).toEqual(['①-2:0']);
    // Never more forks than runs.
    expect(forksOf(['--cases', '1-2', '--runs', '2'])).toEqual(['①-2:2']);
  });

  it('visits the forks round-robin over the cases, splitting the runs and numbering the samples on', () => {
    const plan = planCases(parseOptions(['--cases', '1-2,1-3,20kx4']));
    expect(plan.map((p) => `${p.record.id}#${p.fork}:${p.runs}@${p.firstPosition}`)).toEqual([
      '①-2#1:20@0', '①-3#1:5@0', '20k×4#1:17@0',
      '①-2#2:20@40', '20k×4#2:17@34',
      '①-2#3:20@80', '20k×4#3:16@68',
    ]);
    expect(splitRuns(5, 3)).toEqual([2, 2, 1]);
    expect(splitRuns(60, 1)).toEqual([60]);
  });

  it('groups the plan by the apps that serve it: each fork alone, forkless visits a variant each', () => {
    const show = (argv: string[]) => groupByApps(planCases(parseOptions(argv))).map((g) => g.map((p) => `${p.variant}/${p.record.id}#${p.fork}`).join(' '));
    expect(show(['--variants', 'blog,bare', '--cases', '1-1,1-2', '--forks', '2'])).toEqual([
      'blog/①-1#1', 'blog/①-2#1', 'blog/①-1#2', 'blog/①-2#2', 'bare/①-1#1', 'bare/①-2#1', 'bare/①-1#2', 'bare/①-2#2',
    ]);
    expect(show(['--variants', 'blog,bare', '--cases', '1-1,1-2', '--forks', '0'])).toEqual(['blog/①-1#0 blog/①-2#0', 'bare/①-1#0 bare/①-2#0']);
    expect(groupByApps([])).toEqual([]);
  });

  it('quick profile skips the slowest cases', () => {
    const options = parseOptions(['--profile', 'quick']);
    const ids = options.cases.map((c) => c.id);
    expect(ids).not.toContain('①-3');
    expect(ids.length).toBeGreaterThan(0);
    // Three runs everywhere: a case's own default (50 for 20k×4) is for the default profile.
    expect(new Set(planCases(options).map((p) => p.runs))).toEqual(new Set([3]));
  });

  it.each([
    [['--profile', 'slow'], /unknown profile "slow"/],
    [['--cases', '9-9'], /unknown case "9-9"/],
    [['--transports', 'json,xml'], /--transports must list json and\/or grpc/],
    [['--runs', '0'], /--runs must be at least 1/],
    [['--runs', 'ten'], /--runs must be a whole number/],
    [['--warmup', '-1'], /--warmup must be a whole number/],
    [['--warmup-ms', '1.5'], /--warmup-ms must be a whole number/],
    [['--client-url', 'localhost:3000'], /--client-url must look like/],
    [['--bogus'], /unknown option --bogus/],
    [['--variants', 'fastest'], /unknown variant "fastest"; known variants: blog, tuned, bare, go/],
    [['--variants', 'blog,bare', '--client-url', 'http://h:1'], /--client-url drives one running client/],
    [['--runs'], /--runs needs a value/],
    [['--forks', 'two'], /--forks must be a whole number/],
    [['--forks', '2', '--client-url', 'http://h:1'], /--forks starts new apps for every visit of a case/],
    [['stray'], /unexpected argument "stray"/],
  ])('refuses %p', (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(UsageError);
    expect(() => parseOptions(argv)).toThrow(message);
  });
});
