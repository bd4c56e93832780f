import * as path from 'node:path';
import { parseOptions, UsageError } from '../../src/plan/options';
import { appSetKey, lastVisitOfAppSet, planVisits, splitRuns } from '../../src/plan/plan';

describe('parseOptions', () => {
  it('defaults to the default profile: seven cases, both transports, a set of apps per case visited 4 times, timed calls within a budget', () => {
    const options = parseOptions([], '/work');
    expect(options.preset.name).toBe('default');
    expect(options.out).toBe(path.resolve('/work', 'results'));
    expect(options.clientUrl).toBeNull();
    const plan = planVisits(options);
    // Six cases in four visits, ①-3 in one: 6 × 4 + 1 visits.
    expect(plan).toHaveLength(25);
    // ①-3's one visit first, alone on the machine; then every other case's visit 1 in the blog's order.
    expect(plan.map((p) => `${p.record.id}/${p.runs}/${p.warmup}/${p.warmupMs}/${p.cold}/${p.budgetMs}/${p.minRuns}`).slice(0, 8)).toEqual([
      '①-3/9/0/2000/true/20000/3',
      '①-1/25/0/2000/true/5000/3',
      '①-2/75/0/2000/true/5000/3',
      '②-1/25/0/2000/true/5000/3',
      '②-2/150/0/2000/true/5000/3',
      '②-3/8/0/2000/true/5000/3',
      '20k×4/13/0/2000/true/5000/3',
      // Visit 2 finds the case's one set of apps warm: no cold call, a 300-ms re-warm.
      '①-1/25/0/300/false/5000/3',
    ]);
    // ①-3: one visit, its budget spent by its minimum of 3 runs.
    expect(plan.find((p) => p.record.id === '①-3')).toMatchObject({ runs: 9, visits: 1, forks: 1, budgetMs: 20_000, minRuns: 3 });
    // A set of apps per case, and 20k×4 one per visit (four): ten.
    expect(new Set(plan.map(appSetKey)).size).toBe(10);
    // --runs asks for exact runs: no budget.
    expect(new Set(planVisits(parseOptions(['--runs', '20'])).map((p) => p.budgetMs))).toEqual(new Set([null]));
  });

  it('keeps the former default schedule as --profile thorough: 100 runs (more for ①-2 and ②-2, fewer for the slow ones) in 10 visits of 2 forks, all made', () => {
    const plan = planVisits(parseOptions(['--profile', 'thorough'], '/work'));
    // Six cases in ten visits, ①-3 in one: 6 × 10 + 1 visits.
    expect(plan).toHaveLength(61);
    expect(plan.map((p) => `${p.record.id}/${p.transports.join('+')}/${p.runs}/${p.warmup}/${p.warmupMs}/${p.cold}`).slice(0, 8)).toEqual([
      '①-3/json+grpc/9/1/3000/true',
      '①-1/json+grpc/10/1/3000/true',
      '①-2/json+grpc/30/1/3000/true',
      '②-1/json+grpc/10/1/3000/true',
      '②-2/json+grpc/60/1/3000/true',
      '②-3/json+grpc/3/1/3000/true',
      '20k×4/json+grpc/5/1/3000/true',
      // Visit 2 goes to fork 2: a new set of apps, cold too.
      '①-1/json+grpc/10/1/3000/true',
    ]);
    // From visit 3 on, forks come back warm: no cold call, a 500-ms re-warm.
    expect(plan.filter((p) => p.record.id === '②-2').map((p) => `${p.fork}:${p.cold}:${p.warmupMs}`).slice(0, 4)).toEqual([
      '1:true:3000', '2:true:3000', '1:false:500', '2:false:500',
    ]);
    const runsPerCase = new Map<string, number>();
    for (const p of plan) runsPerCase.set(p.record.id, (runsPerCase.get(p.record.id) ?? 0) + p.runs);
    expect(Object.fromEntries(runsPerCase)).toEqual({ '①-1': 100, '①-2': 300, '①-3': 9, '②-1': 100, '②-2': 600, '②-3': 30, '20k×4': 50 });
    expect(new Set(plan.map((p) => p.budgetMs))).toEqual(new Set([null]));
  });

  it('reads both --flag value and --flag=value (as Nx forwards them)', () => {
    const options = parseOptions(['--profile=quick', '--cases', '1-1,20kx4', '--transports=grpc', '--runs', '4', '--warmup=0', '--warmup-ms', '250', '--out', 'x', '--client-url=http://h:1/'], '/w');
    expect(options).toMatchObject({ transports: ['grpc'], runs: 4, warmup: 0, warmupMs: 250, out: '/w/x', clientUrl: 'http://h:1' });
    expect(options.cases.map((c) => c.id)).toEqual(['①-1', '20k×4']);
    expect(planVisits(options).map((p) => [p.runs, p.transports])).toEqual([[4, ['grpc']], [4, ['grpc']]]);
  });

  it('plans every case for each variant, one variant after the other', () => {
    const plan = planVisits(parseOptions(['--variants', 'bare,blog', '--cases', '1-1,1-2', '--forks', '0', '--visits', '1']));
    expect(plan.map((p) => `${p.variant}/${p.record.id}`)).toEqual(['blog/①-1', 'blog/①-2', 'bare/①-1', 'bare/①-2']);
  });

  it('lets --runs override a case default', () => {
    const plan = planVisits(parseOptions(['--cases', '1-3', '--runs', '2']));
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

  it('gives each case a set of apps by default, two on thorough (①-3 one, 20k×4 four), none on quick or with --client-url', () => {
    const forksOf = (argv: string[]) => planVisits(parseOptions(argv)).filter((p) => p.visit === 1).map((p) => `${p.record.id}:${p.forks}`);
    expect(forksOf(['--cases', '1-2,1-3,20kx4'])).toEqual(['①-3:1', '①-2:1', '20k×4:4']);
    expect(forksOf(['--profile', 'thorough', '--cases', '1-2,1-3,20kx4'])).toEqual(['①-3:1', '①-2:2', '20k×4:4']);
    expect(forksOf(['--profile', 'quick', '--cases', '1-2'])).toEqual(['①-2:0']);
    expect(forksOf(['--cases', '1-3', '--forks', '2', '--visits', '2'])).toEqual(['①-3:2']);
    expect(forksOf(['--cases', '1-2', '--client-url', 'http://h:1'])).toEqual(['①-2:0']);
    // Never more forks than visits, nor more visits than runs.
    expect(forksOf(['--cases', '1-3', '--forks', '3'])).toEqual(['①-3:1']);
    expect(planVisits(parseOptions(['--profile', 'thorough', '--cases', '1-2', '--runs', '3'])).map((p) => `${p.visit}/${p.visits}#${p.fork}/${p.forks}`)).toEqual(['1/3#1/2', '2/3#2/2', '3/3#1/2']);
  });

  it('spreads the visits evenly over the run, splitting the runs and numbering the samples on', () => {
    const plan = planVisits(parseOptions(['--profile', 'thorough', '--cases', '1-2,1-3,20kx4']));
    // ①-3's one visit first, before any other set of apps is up (its calls' fresh memory costs more beside
    // them on a VM); then ten visits each, round-robin.
    expect(plan.map((p) => `${p.record.id}#${p.fork}:${p.runs}@${p.firstPosition}`).slice(0, 5)).toEqual([
      '①-3#1:9@0', '①-2#1:30@0', '20k×4#1:5@0', '①-2#2:30@60', '20k×4#2:5@10',
    ]);
    expect(plan.map((p) => `${p.record.id}:${p.visit}`).slice(9, 13)).toEqual(['①-2:5', '20k×4:5', '①-2:6', '20k×4:6']);
    expect(plan[plan.length - 1]).toMatchObject({ visit: 10, fork: 2, runs: 5, firstPosition: 90, cold: false });
    // An explicit --visits is for every case, as --runs is: ①-3's nine runs over three visits of its one fork.
    const three = planVisits(parseOptions(['--profile', 'thorough', '--cases', '1-3,1-2', '--visits', '3']));
    expect(three.map((p) => `${p.record.id}#${p.fork}:${p.runs}@${p.firstPosition}:${p.cold ? 'cold' : 'warm'}`)).toEqual([
      '①-2#1:100@0:cold', '①-3#1:3@0:cold', '①-2#2:100@200:cold', '①-3#1:3@6:warm', '①-2#1:100@400:warm', '①-3#1:3@12:warm',
    ]);
    expect(splitRuns(5, 3)).toEqual([2, 2, 1]);
    expect(splitRuns(60, 1)).toEqual([60]);
  });

  it('keys each visit to the set of apps that serves it, and knows each set\'s last visit', () => {
    const plan = planVisits(parseOptions(['--profile', 'thorough', '--variants', 'blog,bare', '--cases', '1-1,1-2', '--visits', '3']));
    expect(plan.map(appSetKey)).toEqual([
      'blog/①-1#1', 'blog/①-2#1', 'blog/①-1#2', 'blog/①-2#2', 'blog/①-1#1', 'blog/①-2#1',
      'bare/①-1#1', 'bare/①-2#1', 'bare/①-1#2', 'bare/①-2#2', 'bare/①-1#1', 'bare/①-2#1',
    ]);
    expect(Object.fromEntries(lastVisitOfAppSet(plan))).toEqual({
      'blog/①-1#1': 4, 'blog/①-2#1': 5, 'blog/①-1#2': 2, 'blog/①-2#2': 3,
      'bare/①-1#1': 10, 'bare/①-2#1': 11, 'bare/①-1#2': 8, 'bare/①-2#2': 9,
    });
    const forkless = planVisits(parseOptions(['--variants', 'blog,bare', '--cases', '1-1,1-2', '--forks', '0', '--visits', '2']));
    expect(forkless.map((p) => `${appSetKey(p)}:${p.record.id}:${p.cold}`)).toEqual([
      'blog:①-1:true', 'blog:①-2:true', 'blog:①-1:false', 'blog:①-2:false',
      'bare:①-1:true', 'bare:①-2:true', 'bare:①-1:false', 'bare:①-2:false',
    ]);
    expect(lastVisitOfAppSet([]).size).toBe(0);
  });

  it('takes path profiles in --network like the suites (issue #34): one spelling per path, each visit keyed by its name, bad ones refused', () => {
    const options = parseOptions(['--network', 'region,region+mesh+names,region+names+mesh', '--cases', '1-1', '--forks', '0', '--visits', '1'], '/work');
    expect(options.networks.map((n) => `${n.name}:${n.network.name}:${n.features.join('+')}`)).toEqual(['region:region:', 'region+names+mesh:region:names+mesh']);
    const plan = planVisits(options);
    expect(plan.map((p) => p.network)).toEqual(['region', 'region+names+mesh']);
    // The path's RTT is its network's: the same deadline on both.
    expect(plan[0].deadlineMs).toBe(plan[1].deadlineMs);
    expect(new Set(plan.map(appSetKey)).size).toBe(2);
    expect(() => parseOptions(['--network', 'loopback+names'], '/work')).toThrow(new UsageError('path profile "loopback+names": names need the network stage\'s namespaces; use veth for a path with no added delay'));
    expect(() => parseOptions(['--network', 'region+dns'], '/work')).toThrow(/no path feature "dns" \(known: names, mesh\)/);
    expect(() => parseOptions(['--network', 'region+mesh', '--security', 'tls,mtls'], '/work')).toThrow(/--network region\+mesh with --security tls,mtls: the mesh's sidecars speak mTLS between them.*add plain/);
    // With plain among them, the mesh runs plain only and the other paths every security.
    const mixed = planVisits(parseOptions(['--network', 'region,region+mesh', '--security', 'plain,tls,mtls', '--cases', '1-1'], '/work'));
    expect([...new Set(mixed.map((p) => `${p.network}/${p.security}`))]).toEqual(['region/plain', 'region/tls', 'region/mtls', 'region+mesh/plain']);
    expect(parseOptions(['--network', 'region+names', '--security', 'tls'], '/work').securities.map((s) => s.name)).toEqual(['tls']);
  });

  it('quick profile skips the slowest cases', () => {
    const options = parseOptions(['--profile', 'quick']);
    const ids = options.cases.map((c) => c.id);
    expect(ids).not.toContain('①-3');
    expect(ids.length).toBeGreaterThan(0);
    // Three runs everywhere: a case's own default (50 for 20k×4) is for the default profile.
    expect(new Set(planVisits(options).map((p) => p.runs))).toEqual(new Set([3]));
  });

  it.each([
    [['--profile', 'slow'], '--profile must be default, thorough or quick, got "slow"'],
    [['--cases', '9-9'], /unknown case "9-9"/],
    [['--transports', 'json,xml'], /--transports must list some of json, grpc, json-h2/],
    [['--variants', 'bare', '--transports', 'json,json-h2'], /json-h2 \(bare\) not served/],
    [['--variants', 'bare', '--transports', 'json,nest-tcp'], /nest-tcp \(bare\) not served/],
    [['--runs', '0'], /--runs must be at least 1/],
    [['--runs', 'ten'], /--runs must be a whole number/],
    [['--warmup', '-1'], /--warmup must be a whole number/],
    [['--warmup-ms', '1.5'], /--warmup-ms must be a whole number/],
    [['--client-url', 'localhost:3000'], /--client-url must look like/],
    [['--bogus'], /unknown option --bogus/],
    [['--variants', 'fastest'], /unknown variant "fastest"; known variants: blog, tuned, blog-window, bare, go/],
    [['--variants', 'blog,bare', '--client-url', 'http://h:1'], /--client-url drives one running client/],
    [['--runs'], /--runs needs a value/],
    [['--forks', 'two'], /--forks must be a whole number/],
    [['--forks', '2', '--client-url', 'http://h:1'], /--forks starts new apps for each case/],
    [['--visits', '0'], /--visits must be at least 1/],
    [['stray'], /unexpected argument "stray"/],
    [['--cases', '1-3', '--warmup', '10'], /--warmup 10: ①-3 would ask the client for .* above the cap MAX_RUN_ROWS = 10000000 rows per \/bench\/run.*; use --warmup 9 or less/],
    [['--cases', '2-3', '--warmup', '100'], /--warmup 100: ②-3 would ask the client for .*1000 × 101 = 101000 calls, above the cap MAX_RUN_CALLS = 100000 calls per \/bench\/run.*; use --warmup 99 or less/],
  ])('refuses %p', (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(UsageError);
    expect(() => parseOptions(argv)).toThrow(message);
  });
});
