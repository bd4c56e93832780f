import * as path from 'node:path';
import { groupByProcesses, parseOptions, planCases, UsageError } from '../src/options';

describe('parseOptions', () => {
  it('defaults to the default profile: seven cases, both transports, 60 runs (5 for ①-3), fresh apps per case', () => {
    const options = parseOptions([], '/work');
    expect(options.profile.name).toBe('default');
    expect(options.out).toBe(path.resolve('/work', 'results'));
    expect(options.clientUrl).toBeNull();
    const plan = planCases(options);
    expect(plan).toHaveLength(7);
    expect(plan.map((p) => `${p.record.id}/${p.transports.join('+')}/${p.runs}/${p.warmup}/${p.warmupMs}`).slice(0, 3)).toEqual([
      '①-1/json+grpc/60/1/3000',
      '①-2/json+grpc/60/1/3000',
      '①-3/json+grpc/5/1/3000',
    ]);
  });

  it('reads both --flag value and --flag=value (as Nx forwards them)', () => {
    const options = parseOptions(['--profile=quick', '--cases', '1-1,20kx4', '--transports=grpc', '--runs', '4', '--warmup=0', '--warmup-ms', '250', '--out', 'x', '--client-url=http://h:1/'], '/w');
    expect(options).toMatchObject({ transports: ['grpc'], runs: 4, warmup: 0, warmupMs: 250, out: '/w/x', clientUrl: 'http://h:1' });
    expect(options.cases.map((c) => c.id)).toEqual(['①-1', '20k×4']);
    expect(planCases(options).map((p) => [p.runs, p.transports])).toEqual([[4, ['grpc']], [4, ['grpc']]]);
  });

  it('plans every case for each variant, one variant after the other', () => {
    const plan = planCases(parseOptions(['--variants', 'bare,blog', '--cases', '1-1,1-2']));
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

  it('starts fresh apps for every case by default, one set per variant on quick or with --client-url', () => {
    expect(parseOptions([]).processes).toBe('fresh');
    expect(parseOptions(['--profile', 'quick']).processes).toBe('shared');
    expect(parseOptions(['--profile', 'quick', '--processes', 'fresh']).processes).toBe('fresh');
    expect(parseOptions(['--client-url', 'http://h:1']).processes).toBe('shared');
  });

  it('groups the plan by the apps that serve it: a case each when fresh, a variant each when shared', () => {
    const plan = planCases(parseOptions(['--variants', 'blog,bare', '--cases', '1-1,1-2,2-1']));
    const show = (groups: ReturnType<typeof groupByProcesses>) => groups.map((g) => g.map((p) => `${p.variant}/${p.record.id}`).join(' '));
    expect(show(groupByProcesses(plan, 'fresh'))).toEqual(['blog/①-1', 'blog/①-2', 'blog/②-1', 'bare/①-1', 'bare/①-2', 'bare/②-1']);
    expect(show(groupByProcesses(plan, 'shared'))).toEqual(['blog/①-1 blog/①-2 blog/②-1', 'bare/①-1 bare/①-2 bare/②-1']);
    expect(groupByProcesses([], 'shared')).toEqual([]);
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
    [['--processes', 'forked'], /--processes must be fresh or shared, got "forked"/],
    [['--processes', 'fresh', '--client-url', 'http://h:1'], /--processes fresh restarts the apps for every case/],
    [['stray'], /unexpected argument "stray"/],
  ])('refuses %p', (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(UsageError);
    expect(() => parseOptions(argv)).toThrow(message);
  });
});
