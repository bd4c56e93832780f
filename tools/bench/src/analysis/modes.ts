// Modes in a cell's calls (issue #43): whether its timed calls fall into separated groups, by a gap test on
// the sorted samples, and, when the kernel's TCP counters moved with them, the mechanism in words (a SYN
// the full accept queue dropped costs the kernel's initial retransmission timeout, 1 s); or whether they
// split by a GC pause inside the server's encode, call by call, or by the set of apps that served them,
// the server's encode telling the sets apart. Read from the document; written by no run. docs/method.md
// justifies the tests' thresholds.
import type { Cell, TcpCounters } from '../model';
import { count, mean, median, ms, percentile, visitOfEachSample } from '../model';

/** The gap between two groups must be wider than this many times the wider group's interquartile range. */
export const MODE_GAP_IQRS = 3;
/** …and at least this share of the faster group's centre: a gap that small changes no reading of the cell. */
export const MODE_GAP_OF_CENTRE = 0.2;
/** Each group holds at least this many calls… */
export const MODE_MIN_CALLS = 3;
/** …and at least this share of the cell's calls. */
export const MODE_MIN_SHARE = 0.05;
/**
 * Calls split by whether their server encode held a GC pause make two modes when their centres are at least
 * this share of the faster one's apart: a smaller split cannot move the median by more than the 10 % two
 * runs may differ by (analysis/repeatability.ts), so it changes no reading of the cell.
 */
export const GC_SPLIT_APART = 0.1;
/** …and the pause explains the split: the slow group's median pause is at least this share of the centres' distance. */
export const GC_SPLIT_EXPLAINED = 0.5;
/**
 * A cell served by several sets of apps (forks) makes two modes by process when its sets' medians, sorted,
 * have a step of at least this share between two neighbours (as GC_SPLIT_APART: a smaller one cannot move
 * the median past the 10 % two runs may differ by), so the sets fall into two groups, not along a slope…
 */
export const PROCESS_SPLIT_APART = 0.1;
/**
 * …and the server's encode outside GC pauses explains it: its mean per call differs between the groups by
 * at least this share of the groups' distance. The rest of the call (the client, the network, the build)
 * then moved less than the encode did, so it was not the machine slowing those visits down but the
 * server process's own work.
 */
export const PROCESS_SPLIT_EXPLAINED = 0.5;
/** The kernel's initial retransmission timeout (TCP_TIMEOUT_INIT, RFC 6298): what a dropped SYN costs. */
export const INITIAL_RTO_MS = 1_000;
/** Node's listen backlog when the app asks for none (net.Server#listen): server-a's unless tuned. */
export const NODE_DEFAULT_BACKLOG = 511;

/** One group of calls: how many, its centre (median) and its extent. */
export interface ModeGroup {
  calls: number;
  centreMs: number;
  lowMs: number;
  highMs: number;
}

/** What the gap test found: one group, or two split at the widest qualifying gap (faster first). */
export interface Modes {
  groups: ModeGroup[];
  /** The split's gap ÷ the wider group's interquartile range (null: one group). */
  gapIqrs: number | null;
}

function group(sorted: readonly number[]): ModeGroup {
  return { calls: sorted.length, centreMs: median(sorted), lowMs: sorted[0], highMs: sorted[sorted.length - 1] };
}

const iqr = (sorted: readonly number[]) => percentile(sorted, 75) - percentile(sorted, 25);

/**
 * The gap test: the samples sorted, every split leaving at least max(MODE_MIN_CALLS, MODE_MIN_SHARE × n)
 * calls on each side is a candidate; one qualifies when its gap is wider than MODE_GAP_IQRS × the wider
 * group's interquartile range and at least MODE_GAP_OF_CENTRE × the faster group's centre. The
 * qualifying split with the largest gap-to-IQR ratio makes two groups; none: one group.
 */
export function detectModes(samplesMs: readonly number[]): Modes {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  if (sorted.length === 0) return { groups: [], gapIqrs: null };
  const least = Math.max(MODE_MIN_CALLS, Math.ceil(MODE_MIN_SHARE * sorted.length));
  let best: { at: number; ratio: number } | null = null;
  for (let at = least; at <= sorted.length - least; at++) {
    const gap = sorted[at] - sorted[at - 1];
    const low = sorted.slice(0, at);
    if (gap <= 0 || gap < MODE_GAP_OF_CENTRE * median(low)) continue;
    const spread = Math.max(iqr(low), iqr(sorted.slice(at)));
    const ratio = spread > 0 ? gap / spread : Number.POSITIVE_INFINITY;
    if (ratio > MODE_GAP_IQRS && (best === null || ratio > best.ratio)) best = { at, ratio };
  }
  if (best === null) return { groups: [group(sorted)], gapIqrs: null };
  return { groups: [group(sorted.slice(0, best.at)), group(sorted.slice(best.at))], gapIqrs: best.ratio };
}

/** A cell's modes and what explains them, as the reports show them. */
export interface CellModes extends Modes {
  /** The calls split by the set of apps that served them, the server's encode explaining it (processSplit); null: not so. */
  process: ProcessSplit | null;
  /** The slow group's calls that the kernel counters account for, with the mechanism; null: none found. */
  mechanism: { kind: 'syn-retransmission'; slowCalls: number; synRetrans: number; listenOverflows: number; backlog: number | null; extraMsPerCall: number } | null;
  /** The calls split by a GC pause inside the server's encode, when that makes the groups (gcSplit); null: not so. */
  gc: GcSplit | null;
  /** In words: "one mode", or the groups and, when known, the mechanism. */
  note: string;
}

/** The listen backlog a cell's server-a asked for, as far as its variant says: Node's default for the blog's variants, else unknown. */
function backlogOf(cell: Pick<Cell, 'variant' | 'transport'>): number | null {
  return /^blog(?!-with-listen-backlog$)|^tuned-without-listen-backlog$/.test(cell.variant) ? NODE_DEFAULT_BACKLOG : null;
}

/**
 * Whether the counters moved in step with the slow group: at least one SYN retransmission per slow call,
 * and the groups' centres apart by about the initial RTO (half of it to twice it: the slow calls waited
 * one timeout, not two).
 */
function synMechanism(groups: readonly ModeGroup[], tcp: Partial<TcpCounters> | null | undefined, cell: Pick<Cell, 'variant' | 'transport'>, calls: number): CellModes['mechanism'] {
  if (groups.length !== 2 || !tcp || tcp.synRetrans === undefined) return null;
  const [fast, slow] = groups;
  const apart = slow.centreMs - fast.centreMs;
  if (tcp.synRetrans < slow.calls || apart < INITIAL_RTO_MS / 2 || apart > 2 * INITIAL_RTO_MS) return null;
  return { kind: 'syn-retransmission', slowCalls: slow.calls, synRetrans: tcp.synRetrans, listenOverflows: tcp.listenOverflows ?? 0, backlog: backlogOf(cell), extraMsPerCall: (apart * slow.calls) / calls };
}

/**
 * One mode whose calls (most or all of them) paid: at least half took the initial RTO or longer, the
 * SYN retransmissions are at least one per such call, and those calls sit about one RTO above the rest
 * (half of it to twice it), or, when none is faster, below two RTOs (they waited one timeout, not two).
 * Too few fast calls to make a group of their own (run 2026-11-29T00-04-41Z's ②-3 JSON: 1 call of 318 ms,
 * 16 of ≈ 1.2 s, 3,346 SYN retransmissions) still leave the rest explained.
 */
function mostCallsPaid(samplesMs: readonly number[], tcp: Partial<TcpCounters> | null | undefined, cell: Pick<Cell, 'variant' | 'transport'>): CellModes['mechanism'] {
  const slow = samplesMs.filter((s) => s >= INITIAL_RTO_MS);
  const fast = samplesMs.filter((s) => s < INITIAL_RTO_MS);
  if (!tcp || tcp.synRetrans === undefined || slow.length * 2 < samplesMs.length || tcp.synRetrans < slow.length) return null;
  const apart = fast.length > 0 ? median(slow) - median(fast) : null;
  const inStep = apart === null ? median(slow) < 2 * INITIAL_RTO_MS : apart >= INITIAL_RTO_MS / 2 && apart <= 2 * INITIAL_RTO_MS;
  if (!inStep) return null;
  const extraMsPerCall = ((apart ?? INITIAL_RTO_MS) * slow.length) / samplesMs.length;
  return { kind: 'syn-retransmission', slowCalls: slow.length, synRetrans: tcp.synRetrans, listenOverflows: tcp.listenOverflows ?? 0, backlog: backlogOf(cell), extraMsPerCall };
}

/** The mechanism in words: "10 of 23 calls paid a 1-s SYN retransmission: the accept queue (backlog 511) overflowed 1,781 times". */
export function mechanismText(m: NonNullable<CellModes['mechanism']>, calls: number): string {
  const queue = m.backlog === null ? 'the accept queue' : `the accept queue (backlog ${count(m.backlog)})`;
  const why = m.listenOverflows > 0 ? `${queue} overflowed ${count(m.listenOverflows)} time${m.listenOverflows === 1 ? '' : 's'}` : 'SYNs were lost with no listen overflow counted';
  const who = m.slowCalls === calls ? `every one of its ${count(calls)} calls` : `${count(m.slowCalls)} of ${count(calls)} calls`;
  return `${who} paid a ${INITIAL_RTO_MS / 1000}-s SYN retransmission: ${why} (${count(m.synRetrans)} SYN retransmissions)`;
}

/**
 * The calls split by V8's GC: those whose server encode held a garbage-collection pause (callPhases, per
 * call) against those whose did not, when both groups are large enough (as the gap test's), their centres
 * at least GC_SPLIT_APART apart and the slow group's pause explains the distance. A 10,000-row protobuf
 * encode meets a young-generation collection about every other call (~13 ms of a ~45-ms call): the calls
 * then fall into two groups too close for the gap test, and the median sits in whichever holds more.
 */
export function gcSplit(cell: Pick<Cell, 'samplesMs' | 'callPhases'>): GcSplit | null {
  const gcs = cell.callPhases?.serverEncodeGcMs;
  const n = cell.samplesMs.length;
  if (!gcs || gcs.length !== n || gcs.some((g) => g === null)) return null;
  const held: number[] = [];
  const none: number[] = [];
  cell.samplesMs.forEach((s, i) => (gcs[i]! > 0 ? held : none).push(s));
  const least = Math.max(MODE_MIN_CALLS, Math.ceil(MODE_MIN_SHARE * n));
  if (held.length < least || none.length < least) return null;
  const [withGc, withoutGc] = [group(held.sort((a, b) => a - b)), group(none.sort((a, b) => a - b))];
  const apart = withGc.centreMs - withoutGc.centreMs;
  const pauseMs = median((gcs as number[]).filter((g) => g > 0));
  if (apart < GC_SPLIT_APART * withoutGc.centreMs || pauseMs < GC_SPLIT_EXPLAINED * apart) return null;
  return { withGc, withoutGc, pauseMs };
}

/** A cell's calls split by a GC pause inside the server's encode (gcSplit). */
export interface GcSplit {
  withGc: ModeGroup;
  withoutGc: ModeGroup;
  /** The median pause inside the encode of a call that held one. */
  pauseMs: number;
}

/** "two modes by GC: 145 calls at ≈ 45.3 ms whose server encode held no GC pause, 128 at ≈ 57.9 ms whose held one (≈ 12.7 ms); …". */
export function gcSplitText(split: GcSplit): string {
  const { withGc, withoutGc } = split;
  return (
    `two modes by GC: ${count(withoutGc.calls)} calls at ≈ ${ms(withoutGc.centreMs)} ms whose server encode held no GC pause, ` +
    `${count(withGc.calls)} at ≈ ${ms(withGc.centreMs)} ms whose encode held one (≈ ${ms(split.pauseMs)} ms); ` +
    `the median lies in the group that holds more calls, between them when near even, and moves with their shares`
  );
}

/** One group of a cell's sets of apps: its calls, and the server's mean encode per call and the GC pauses inside it. */
export interface ProcessGroup extends ModeGroup {
  sets: number;
  encodeMs: number;
  encodeGcMs: number;
}

/** A cell's calls split by the set of apps (fork) that served them (processSplit): faster sets, slower sets. */
export interface ProcessSplit {
  fast: ProcessGroup;
  slow: ProcessGroup;
  /** The encode outside GC pauses: its difference between the sides ÷ the sides' centres' distance. */
  encodeShare: number;
}

/**
 * Two modes by process: the cell's calls grouped by the set of apps that served them, each set's median
 * sorted, split at the largest step between neighbours when that step is at least PROCESS_SPLIT_APART and
 * each side holds as many calls as the gap test asks; kept when the server's encode outside GC pauses
 * differs between the sides by PROCESS_SPLIT_EXPLAINED of their centres' distance. A server process draws
 * one of two speeds for its encode at its start and keeps it: one server-b of 20k×4 encoded in 170–180 ms
 * what others took 270–300 ms for, with the same GC pauses (docs/repeatability.md); within a run only
 * several sets show it.
 */
export function processSplit(cell: Pick<Cell, 'samplesMs' | 'callPhases' | 'visits'>): ProcessSplit | null {
  const n = cell.samplesMs.length;
  const encode = cell.callPhases?.serverEncodeMs;
  const encodeGc = cell.callPhases?.serverEncodeGcMs;
  const visitOf = visitOfEachSample(cell);
  if (!visitOf || !encode || !encodeGc || encode.length !== n || encodeGc.length !== n) return null;
  if (encode.some((e) => e === null) || encodeGc.some((g) => g === null)) return null;
  // Each fork's calls, by index into samplesMs and callPhases.
  const byFork = new Map<number, number[]>();
  visitOf.forEach((v, i) => {
    const calls = byFork.get(v.fork) ?? [];
    calls.push(i);
    byFork.set(v.fork, calls);
  });
  const sets = [...byFork.values()].map((calls) => ({ calls, medianMs: median(calls.map((i) => cell.samplesMs[i])) })).sort((a, b) => a.medianMs - b.medianMs);
  if (sets.length < 2) return null;
  const step = (k: number) => sets[k].medianMs / sets[k - 1].medianMs;
  let at = 1;
  for (let k = 2; k < sets.length; k++) if (step(k) > step(at)) at = k;
  if (step(at) < 1 + PROCESS_SPLIT_APART) return null;
  const side = (part: typeof sets): ProcessGroup => {
    const calls = part.flatMap((set) => set.calls);
    const sorted = calls.map((i) => cell.samplesMs[i]).sort((a, b) => a - b);
    return { ...group(sorted), sets: part.length, encodeMs: mean(calls.map((i) => encode[i]!)), encodeGcMs: mean(calls.map((i) => encodeGc[i]!)) };
  };
  const [fast, slow] = [side(sets.slice(0, at)), side(sets.slice(at))];
  const least = Math.max(MODE_MIN_CALLS, Math.ceil(MODE_MIN_SHARE * n));
  if (fast.calls < least || slow.calls < least) return null;
  const encodeShare = (slow.encodeMs - slow.encodeGcMs - (fast.encodeMs - fast.encodeGcMs)) / (slow.centreMs - fast.centreMs);
  return encodeShare >= PROCESS_SPLIT_EXPLAINED ? { fast, slow, encodeShare } : null;
}

/** "two modes by process: 2 of 4 sets of apps at ≈ 321.6 ms (21 calls), 2 at ≈ 452.9 ms (16); the server's encode …". */
export function processSplitText(split: ProcessSplit): string {
  const { fast, slow } = split;
  const sets = fast.sets + slow.sets;
  const gc = fast.encodeGcMs === 0 && slow.encodeGcMs === 0 ? 'no GC pause inside it' : `GC pauses inside it ≈ ${ms(fast.encodeGcMs)} vs ≈ ${ms(slow.encodeGcMs)} ms`;
  return (
    `two modes by process: ${count(fast.sets)} of ${count(sets)} sets of apps at ≈ ${ms(fast.centreMs)} ms (${count(fast.calls)} calls), ` +
    `${count(slow.sets)} at ≈ ${ms(slow.centreMs)} ms (${count(slow.calls)}); the server's encode ≈ ${ms(fast.encodeMs)} vs ≈ ${ms(slow.encodeMs)} ms per call (${gc}), ` +
    `outside GC ${Math.round(split.encodeShare * 100)} % of the sets' difference: the server process's own work ran at two speeds, not the machine`
  );
}

/** Whether a cell's modes say something beyond "one mode": two groups, a mechanism, a GC or a process split. */
export function hasModeNote(m: CellModes | null): boolean {
  return m !== null && (m.groups.length > 1 || m.mechanism !== null || m.gc !== null || m.process !== null);
}

/** A cell's modes, the mechanism when the counters show it, and the note the reports print; null for a failed cell or one without calls. */
export function cellModes(cell: Pick<Cell, 'ok' | 'samplesMs' | 'variant' | 'transport' | 'pathCounters' | 'callPhases' | 'visits'>): CellModes | null {
  if (!cell.ok || cell.samplesMs.length === 0) return null;
  const modes = detectModes(cell.samplesMs);
  const calls = cell.samplesMs.length;
  if (modes.groups.length === 1) {
    const mechanism = mostCallsPaid(cell.samplesMs, cell.pathCounters?.tcp, cell);
    if (mechanism) return { ...modes, mechanism, gc: null, process: null, note: `one mode; ${mechanismText(mechanism, calls)}` };
    return byGc(cell) ?? byProcess(cell) ?? { ...modes, mechanism: null, gc: null, process: null, note: 'one mode' };
  }
  const mechanism = synMechanism(modes.groups, cell.pathCounters?.tcp, cell, calls);
  if (!mechanism) {
    const explained = byGc(cell) ?? byProcess(cell);
    if (explained) return explained;
  }
  const [fast, slow] = modes.groups;
  const groups = `two modes: ${count(fast.calls)} calls at ≈ ${ms(fast.centreMs)} ms, ${count(slow.calls)} at ≈ ${ms(slow.centreMs)} ms`;
  const tcp = cell.pathCounters?.tcp;
  const unexplained = tcp ? '; no TCP counter moved with them' : '; no TCP counters recorded';
  return { ...modes, mechanism, gc: null, process: null, note: `${groups}${mechanism ? `; ${mechanismText(mechanism, calls)}` : tcpMoved(tcp) ?? unexplained}` };
}

/** The cell's modes as its GC split makes them (faster group first), when it has one. */
function byGc(cell: Pick<Cell, 'samplesMs' | 'callPhases'>): CellModes | null {
  const gc = gcSplit(cell);
  return gc && { groups: [gc.withoutGc, gc.withGc], gapIqrs: null, mechanism: null, gc, process: null, note: gcSplitText(gc) };
}

/** The cell's modes as its sets of apps make them (faster sets first), when they split by the server's encode. */
function byProcess(cell: Pick<Cell, 'samplesMs' | 'callPhases' | 'visits'>): CellModes | null {
  const split = processSplit(cell);
  return split && { groups: [split.fast, split.slow], gapIqrs: null, mechanism: null, gc: null, process: split, note: processSplitText(split) };
}

/** Counters that moved but do not account for the slow group, named; null when none moved. */
function tcpMoved(tcp: Partial<TcpCounters> | null | undefined): string | null {
  if (!tcp) return null;
  const moved = (['synRetrans', 'timeouts', 'retransSegs', 'listenOverflows'] as const).filter((k) => (tcp[k] ?? 0) > 0);
  return moved.length === 0 ? null : `; TCP counters moved (${moved.map((k) => `${k} ${count(tcp[k]!)}`).join(', ')}) but not one per slow call 1 s apart`;
}
