import type { PlannedCase, RawResult } from './model';
import { summarize } from './stats';
import { ms } from './export/format';

/** One line per case on stderr, so stdout keeps only the final table. */
export function printCaseStart(planned: PlannedCase, index: number, total: number): void {
  const { record, transport, runs, warmup } = planned;
  process.stderr.write(
    `[${index + 1}/${total}] ${record.id} ${transport}: ${record.rows} row(s) × ${record.requests}, ` +
      `cold + ${warmup} warm-up + ${runs} timed … `,
  );
}

export function printCaseEnd(result: RawResult): void {
  const wall = `${(result.wallMs / 1000).toFixed(1)} s`;
  if (result.error !== null || result.measurement === null) {
    process.stderr.write(`FAILED after ${wall}: ${result.error}\n`);
    return;
  }
  const summary = summarize(result.measurement.samplesMs);
  process.stderr.write(`median ${ms(summary?.median)} ms (cold ${ms(result.measurement.coldMs)} ms) in ${wall}\n`);
}
