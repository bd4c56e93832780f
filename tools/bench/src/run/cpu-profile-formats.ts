// The two profile formats --cpu-profile writes, read, merged and turned into call trees: V8's
// `.cpuprofile` (Chrome DevTools, speedscope) and Go's pprof (gzipped protobuf; go tool pprof, speedscope).
// A cell's profile is one file per process although it is sampled in stretches (one per timed call,
// between which the other transports run): the stretches are merged here as they come.
import * as zlib from 'node:zlib';
import * as protobuf from 'protobufjs';
import type { ProfileFrame, ProfileTree } from '../model';

// ── V8's .cpuprofile ──────────────────────────────────────────────────────────────────────────────

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; scriptId: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const frameKey = (f: CpuProfileNode['callFrame']) => `${f.functionName}\u0000${f.url}\u0000${f.lineNumber}\u0000${f.columnNumber}`;

/** Checks that a parsed file is a .cpuprofile (nodes, samples and deltas that agree), or throws saying what is wrong. */
export function asCpuProfile(value: unknown): CpuProfile {
  const p = value as Partial<CpuProfile> | null;
  if (!p || !Array.isArray(p.nodes) || p.nodes.length === 0 || !Array.isArray(p.samples) || !Array.isArray(p.timeDeltas)) throw new Error('not a V8 CPU profile (nodes, samples, timeDeltas)');
  if (p.samples.length !== p.timeDeltas.length) throw new Error(`a V8 CPU profile with ${p.samples.length} samples and ${p.timeDeltas.length} time deltas`);
  return p as CpuProfile;
}

/**
 * Profile `b` appended to `a`: nodes on the same path from the root (the same functions, scripts and
 * positions) become one, the samples follow one another (b's first delta kept at 0: the time between
 * the stretches, when the other transports ran, is not in the profile). Pure.
 */
export function mergeCpuProfiles(a: CpuProfile, b: CpuProfile): CpuProfile {
  const nodes: CpuProfileNode[] = a.nodes.map((n) => ({ ...n, children: [...(n.children ?? [])] }));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  let nextId = Math.max(...nodes.map((n) => n.id)) + 1;
  const bById = new Map(b.nodes.map((n) => [n.id, n]));
  const mapped = new Map<number, number>();
  // b's root is a's root; then each child joins its parent's child of the same frame, or becomes one.
  const visit = (bNode: CpuProfileNode, into: CpuProfileNode) => {
    mapped.set(bNode.id, into.id);
    into.hitCount = (into.hitCount ?? 0) + (bNode === b.nodes[0] ? 0 : (bNode.hitCount ?? 0));
    for (const childId of bNode.children ?? []) {
      const child = bById.get(childId);
      if (!child) continue;
      const key = frameKey(child.callFrame);
      let target = (into.children ?? []).map((id) => byId.get(id)!).find((n) => frameKey(n.callFrame) === key);
      if (!target) {
        target = { id: nextId++, callFrame: { ...child.callFrame }, hitCount: 0, children: [] };
        nodes.push(target);
        byId.set(target.id, target);
        (into.children ??= []).push(target.id);
      }
      visit(child, target);
    }
  };
  visit(b.nodes[0], nodes[0]);
  const span = (p: CpuProfile) => p.endTime - p.startTime;
  return {
    nodes,
    startTime: a.startTime,
    endTime: a.startTime + span(a) + span(b),
    samples: [...a.samples, ...b.samples.map((id) => mapped.get(id) ?? nodes[0].id)],
    timeDeltas: [...a.timeDeltas, ...b.timeDeltas.map((d, i) => (i === 0 ? 0 : d))],
  };
}

/** The profile's call tree, each sample weighted by the time to the next (the last by the mean interval). */
export function cpuProfileTree(profile: CpuProfile): ProfileTree {
  const selfUs = new Map<number, number>();
  const { samples, timeDeltas } = profile;
  // The mean of the deltas between samples of one stretch (a stretch's first delta is 0 once merged).
  const between = timeDeltas.slice(1).filter((d) => d > 0);
  const meanUs = between.length > 0 ? between.reduce((sum, d) => sum + d, 0) / between.length : 0;
  for (let i = 0; i < samples.length; i++) {
    const next = i + 1 < samples.length ? timeDeltas[i + 1] : meanUs;
    // A stretch starts with delta 0 (mergeCpuProfiles): its last sample before it gets the mean too.
    const weight = next > 0 ? next : meanUs;
    selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + weight);
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const build = (node: CpuProfileNode): ProfileTree => ({
    frame: { name: node.callFrame.functionName, file: node.callFrame.url, line: node.callFrame.lineNumber + 1 },
    selfUs: selfUs.get(node.id) ?? 0,
    children: (node.children ?? []).map((id) => byId.get(id)).filter((n): n is CpuProfileNode => n !== undefined).map(build),
  });
  return build(profile.nodes[0]);
}

// ── Go's pprof (github.com/google/pprof proto/profile.proto, the fields a CPU profile uses) ─────────

const PPROF_SCHEMA = {
  nested: {
    Profile: {
      fields: {
        sampleType: { rule: 'repeated', type: 'ValueType', id: 1 },
        sample: { rule: 'repeated', type: 'Sample', id: 2 },
        location: { rule: 'repeated', type: 'Location', id: 4 },
        function: { rule: 'repeated', type: 'Function', id: 5 },
        stringTable: { rule: 'repeated', type: 'string', id: 6 },
        timeNanos: { type: 'int64', id: 9 },
        durationNanos: { type: 'int64', id: 10 },
        periodType: { type: 'ValueType', id: 11 },
        period: { type: 'int64', id: 12 },
      },
    },
    ValueType: { fields: { type: { type: 'int64', id: 1 }, unit: { type: 'int64', id: 2 } } },
    Sample: { fields: { locationId: { rule: 'repeated', type: 'uint64', id: 1 }, value: { rule: 'repeated', type: 'int64', id: 2 } } },
    Location: { fields: { id: { type: 'uint64', id: 1 }, line: { rule: 'repeated', type: 'Line', id: 4 } } },
    Line: { fields: { functionId: { type: 'uint64', id: 1 }, line: { type: 'int64', id: 2 } } },
    Function: { fields: { id: { type: 'uint64', id: 1 }, name: { type: 'int64', id: 2 }, systemName: { type: 'int64', id: 3 }, filename: { type: 'int64', id: 4 }, startLine: { type: 'int64', id: 5 } } },
  },
};

const PROFILE = protobuf.Root.fromJSON(PPROF_SCHEMA).lookupType('Profile');

interface ValueType {
  type: number;
  unit: number;
}

/** A pprof profile with its numbers as numbers (a CPU profile's never pass 2^53). */
export interface Pprof {
  sampleType: ValueType[];
  sample: { locationId: number[]; value: number[] }[];
  location: { id: number; line: { functionId: number; line: number }[] }[];
  function: { id: number; name: number; systemName: number; filename: number; startLine: number }[];
  stringTable: string[];
  timeNanos: number;
  durationNanos: number;
  periodType: ValueType | null;
  period: number;
}

/** Reads a pprof file's bytes (gzipped or not). */
export function decodePprof(bytes: Uint8Array): Pprof {
  const raw = bytes[0] === 0x1f && bytes[1] === 0x8b ? zlib.gunzipSync(bytes) : bytes;
  const object = PROFILE.toObject(PROFILE.decode(raw), { longs: Number, arrays: true, defaults: true }) as Pprof;
  if (object.stringTable[0] !== '') throw new Error('not a pprof profile (its string table does not start with "")');
  return object;
}

export function encodePprof(profile: Pprof): Buffer {
  return zlib.gzipSync(PROFILE.encode(PROFILE.fromObject(profile)).finish());
}

/**
 * The profile with the period it was sampled at: StartCPUProfile states its own 100 Hz whatever rate was
 * set before it (tools/go-reference/internal/cpuprofile), so each sample's time is its count × the period asked for. Pure.
 */
export function withPeriod(p: Pprof, periodNanos: number): Pprof {
  const count = p.sampleType.findIndex((t) => p.stringTable[t.unit] === 'count');
  const time = timeIndex(p);
  if (count < 0 || time === count) return { ...p, period: periodNanos };
  return { ...p, period: periodNanos, sample: p.sample.map((s) => ({ ...s, value: s.value.map((v, i) => (i === time ? s.value[count] * periodNanos : v)) })) };
}

/** The frames of one location, outermost first (a location lists its inlined calls innermost first). */
function framesOf(p: Pprof, locationId: number, functions: Map<number, Pprof['function'][number]>, locations: Map<number, Pprof['location'][number]>): ProfileFrame[] {
  const location = locations.get(locationId);
  if (!location) return [{ name: `0x${locationId.toString(16)}`, file: '', line: 0 }];
  return [...location.line].reverse().map((l) => {
    const f = functions.get(l.functionId);
    return { name: f ? p.stringTable[f.name] : '?', file: f ? p.stringTable[f.filename] : '', line: l.line };
  });
}

/** The index of the sample value that is time (cpu/nanoseconds), else the last. */
function timeIndex(p: Pprof): number {
  const at = p.sampleType.findIndex((t) => p.stringTable[t.unit] === 'nanoseconds');
  return at >= 0 ? at : p.sampleType.length - 1;
}

/** Profile `b`'s samples appended to `a`'s, functions and locations shared by name, file and line. Pure. */
export function mergePprofs(a: Pprof, b: Pprof): Pprof {
  const out: Pprof = { ...a, sample: [...a.sample], location: [...a.location], function: [...a.function], stringTable: [...a.stringTable], durationNanos: a.durationNanos + b.durationNanos };
  const strings = new Map(out.stringTable.map((s, i) => [s, i]));
  const str = (s: string) => strings.get(s) ?? (out.stringTable.push(s), strings.set(s, out.stringTable.length - 1), out.stringTable.length - 1);
  const fnKey = (name: string, file: string) => `${name}\u0000${file}`;
  const functions = new Map(out.function.map((f) => [fnKey(out.stringTable[f.name], out.stringTable[f.filename]), f.id]));
  const locKey = (lines: { functionId: number; line: number }[]) => lines.map((l) => `${l.functionId}:${l.line}`).join('/');
  const locations = new Map(out.location.map((l) => [locKey(l.line), l.id]));
  let nextFn = Math.max(0, ...out.function.map((f) => f.id)) + 1;
  let nextLoc = Math.max(0, ...out.location.map((l) => l.id)) + 1;
  const fnMap = new Map<number, number>();
  for (const f of b.function) {
    const key = fnKey(b.stringTable[f.name], b.stringTable[f.filename]);
    let id = functions.get(key);
    if (id === undefined) {
      id = nextFn++;
      functions.set(key, id);
      out.function.push({ id, name: str(b.stringTable[f.name]), systemName: str(b.stringTable[f.systemName]), filename: str(b.stringTable[f.filename]), startLine: f.startLine });
    }
    fnMap.set(f.id, id);
  }
  const locMap = new Map<number, number>();
  for (const l of b.location) {
    const line = l.line.map((x) => ({ functionId: fnMap.get(x.functionId) ?? 0, line: x.line }));
    const key = locKey(line);
    let id = locations.get(key);
    if (id === undefined) {
      id = nextLoc++;
      locations.set(key, id);
      out.location.push({ id, line });
    }
    locMap.set(l.id, id);
  }
  for (const s of b.sample) out.sample.push({ locationId: s.locationId.map((id) => locMap.get(id) ?? 0), value: [...s.value] });
  return out;
}

/** The profile's call tree, each sample weighted by its time (cpu nanoseconds). */
export function pprofTree(p: Pprof): ProfileTree {
  const functions = new Map(p.function.map((f) => [f.id, f]));
  const locations = new Map(p.location.map((l) => [l.id, l]));
  const at = timeIndex(p);
  const root: ProfileTree = { frame: { name: '(root)', file: '', line: 0 }, selfUs: 0, children: [] };
  for (const sample of p.sample) {
    const frames = [...sample.locationId].reverse().flatMap((id) => framesOf(p, id, functions, locations));
    let node = root;
    for (const frame of frames) {
      // One node per function under its caller, whichever of its lines was running.
      let child = node.children.find((c) => c.frame.name === frame.name && c.frame.file === frame.file);
      if (!child) node.children.push((child = { frame, selfUs: 0, children: [] }));
      node = child;
    }
    node.selfUs += (sample.value[at] ?? 0) / 1000;
  }
  return root;
}
