import { cpuProfileTree, decodePprof, encodePprof, mergeCpuProfiles, mergePprofs, pprofTree, withPeriod, type CpuProfile, type Pprof } from '../../src/run/cpu-profile-formats';
import type { ProfileTree } from '../../src/model/cpu-profile';

const frame = (functionName: string) => ({ functionName, scriptId: '1', url: `/w/${functionName}.js`, lineNumber: 0, columnNumber: 0 });

/** root → a → b; samples a, b, b at 100 µs. */
const first: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2] },
    { id: 2, callFrame: frame('a'), children: [3] },
    { id: 3, callFrame: frame('b') },
  ],
  startTime: 0,
  endTime: 300,
  samples: [2, 3, 3],
  timeDeltas: [0, 100, 100],
};
/** root → a → c and root → b, other ids: samples c, b. */
const second: CpuProfile = {
  nodes: [
    { id: 7, callFrame: frame('(root)'), children: [8, 10] },
    { id: 8, callFrame: frame('a'), children: [9] },
    { id: 9, callFrame: frame('c') },
    { id: 10, callFrame: frame('b') },
  ],
  startTime: 5000,
  endTime: 5200,
  samples: [9, 10],
  timeDeltas: [50, 100],
};

function flat(tree: ProfileTree, prefix = ''): Record<string, number> {
  const here = `${prefix}/${tree.frame.name}`;
  return Object.assign({ [here]: Math.round(tree.selfUs) }, ...tree.children.map((c) => flat(c, here)));
}

describe('.cpuprofile', () => {
  it('merges two stretches: the same path from the root becomes one node, samples follow one another', () => {
    const merged = mergeCpuProfiles(first, second);
    expect(merged.samples).toHaveLength(5);
    expect(merged.timeDeltas).toEqual([0, 100, 100, 0, 100]);
    expect(merged.nodes.map((n) => n.callFrame.functionName).sort()).toEqual(['(root)', 'a', 'b', 'b', 'c']);
    const a = merged.nodes.find((n) => n.callFrame.functionName === 'a')!;
    expect(a.children).toHaveLength(2);
  });

  it('weights each sample by the time to the next (the last by the mean)', () => {
    expect(flat(cpuProfileTree(first))).toEqual({ '/(root)': 0, '/(root)/a': 100, '/(root)/a/b': 200 });
    expect(flat(cpuProfileTree(mergeCpuProfiles(first, second)))).toEqual({ '/(root)': 0, '/(root)/a': 100, '/(root)/a/b': 200, '/(root)/a/c': 100, '/(root)/b': 100 });
  });
});

/** A CPU profile as Go writes it: samples/count and cpu/nanoseconds at a stated 100 Hz. */
function goProfile(stacks: string[][]): Pprof {
  const strings = ['', 'samples', 'count', 'cpu', 'nanoseconds', 'main.go'];
  const str = (s: string) => (strings.includes(s) ? strings.indexOf(s) : strings.push(s) - 1);
  const names = [...new Set(stacks.flat())];
  const fn = names.map((name, i) => ({ id: i + 1, name: str(name), systemName: str(name), filename: 5, startLine: 1 }));
  return {
    sampleType: [{ type: 1, unit: 2 }, { type: 3, unit: 4 }],
    // Leaf first, as pprof lists a stack.
    sample: stacks.map((stack) => ({ locationId: [...stack].reverse().map((name) => names.indexOf(name) + 1), value: [1, 10_000_000] })),
    location: names.map((_, i) => ({ id: i + 1, line: [{ functionId: i + 1, line: 10 }] })),
    function: fn,
    stringTable: strings,
    timeNanos: 1,
    durationNanos: 1000,
    periodType: { type: 3, unit: 4 },
    period: 10_000_000,
  };
}

describe('pprof', () => {
  const a = goProfile([['main.main', 'main.work'], ['main.main', 'main.work']]);
  const b = goProfile([['runtime.gcDrain'], ['main.main', 'main.other']]);

  it('round-trips through its gzipped protobuf', () => {
    const bytes = encodePprof(a);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    const back = decodePprof(bytes);
    expect(back.sample).toEqual(a.sample);
    expect(back.stringTable).toEqual(a.stringTable);
  });

  it('refuses bytes that are no profile', () => {
    expect(() => decodePprof(Buffer.from('not a profile at all'))).toThrow();
  });

  it('corrects the stated period to the one asked for', () => {
    const corrected = withPeriod(a, 200_000);
    expect(corrected.period).toBe(200_000);
    expect(corrected.sample[0].value).toEqual([1, 200_000]);
  });

  it('merges profiles whose ids differ: functions shared by name, samples appended', () => {
    const merged = mergePprofs(withPeriod(a, 200_000), withPeriod(b, 200_000));
    expect(merged.sample).toHaveLength(4);
    expect(merged.function.map((f) => merged.stringTable[f.name]).sort()).toEqual(['main.main', 'main.other', 'main.work', 'runtime.gcDrain']);
    expect(flat(pprofTree(decodePprof(encodePprof(merged))))).toEqual({ '/(root)': 0, '/(root)/main.main': 0, '/(root)/main.main/main.work': 400, '/(root)/main.main/main.other': 200, '/(root)/runtime.gcDrain': 200 });
  });
});
