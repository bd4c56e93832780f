// A fixed piece of CPU work the bench times before and after every case, in its own process while the
// apps are idle. On a shared VM the machine itself gets faster and slower over minutes; when two runs
// disagree, the probe tells whether the machine moved too (bench:compare shows its ratio per cell).
import { buildRows } from '@bench/samples';

/** A probe reading in ms: lower is a faster machine. */
export type MachineProbe = () => number;

const WARM_ROUNDS = 2;
const PROBE_ROUNDS = 9;
const PROBE_ROWS = 5_000;

/** One round: build the blog's rows, serialize and parse them (allocation, strings, JSON: the apps' work). */
function probeRound(): number {
  const started = performance.now();
  const parsed = JSON.parse(JSON.stringify({ rows: buildRows(PROBE_ROWS) })) as { rows: unknown[] };
  if (parsed.rows.length !== PROBE_ROWS) throw new Error('machine probe: the JSON round trip lost rows');
  return performance.now() - started;
}

/**
 * The fastest of PROBE_ROUNDS rounds (~7 ms each here), after WARM_ROUNDS untimed ones. The fastest,
 * because slower rounds measure a GC or an interruption; on an idle machine it repeats within ~5%,
 * while the median of the same rounds moved by a third.
 */
export const probeMachine: MachineProbe = () => {
  for (let i = 0; i < WARM_ROUNDS; i++) probeRound();
  let fastest = Infinity;
  for (let i = 0; i < PROBE_ROUNDS; i++) fastest = Math.min(fastest, probeRound());
  return fastest;
};
