// The network stage's own cost per cell: how much CPU its delayer took beside the apps' own over the
// same timed calls. Two cores are shared by client, servers, the servers' receive thread and the
// delayer, so a run says what the emulated path took from the apps, cell by cell.
import { placeLabeller } from '../model';
import type { Cell } from '../model';

export interface PathCostRow {
  network: string;
  variant: string;
  case: string;
  transport: string;
  delayerCpuMs: number;
  packets: number;
  /** Delayer CPU per packet it held, µs (null: no packets). */
  perPacketUs: number | null;
  /** The servers' receive thread over the same calls, ms (null: the stage had none; its work is then in the delayer's). */
  receiveCpuMs: number | null;
  /** Client + server CPU over the same calls, ms (null: not reported). */
  appsCpuMs: number | null;
  /** delayer ÷ (delayer + receive thread + apps): its share of the run's CPU, 0–1 (null: the apps' CPU is unknown). */
  share: number | null;
}

const cpu = (cost: Cell['client']) => (cost ? cost.cpuUserMs + cost.cpuSystemMs : null);

/** delayer ÷ (delayer + receive thread + apps); null when the apps' CPU is unknown. */
function shareOf(delayerCpuMs: number, receiveCpuMs: number | null, appsCpuMs: number | null): number | null {
  const whole = appsCpuMs === null ? null : delayerCpuMs + (receiveCpuMs ?? 0) + appsCpuMs;
  return whole === null || whole <= 0 ? null : delayerCpuMs / whole;
}

/** One row per succeeded cell that crossed a stage with a delayer. */
export function pathCostRows(results: readonly Cell[]): PathCostRow[] {
  const placeOf = placeLabeller(results);
  return results.flatMap((r) => {
    if (!r.ok || !r.delayer) return [];
    const client = cpu(r.client);
    const server = cpu(r.server);
    const appsCpuMs = client === null || server === null ? null : client + server;
    const { cpuMs, packets } = r.delayer;
    const receiveCpuMs = r.delayer.receiveCpuMs ?? null;
    return [
      {
        network: placeOf(r),
        variant: r.variant,
        case: r.case,
        transport: r.transport,
        delayerCpuMs: cpuMs,
        packets,
        perPacketUs: packets > 0 ? (cpuMs * 1000) / packets : null,
        receiveCpuMs,
        appsCpuMs,
        share: shareOf(cpuMs, receiveCpuMs, appsCpuMs),
      },
    ];
  });
}

/**
 * The whole run's row: every cell's delayer, receive thread and apps added up, so the share is the
 * delayer's part of the run's CPU (for a run of one case, that case's). Null when there is no cell.
 * The apps' total is unknown if any cell's is; the receive thread's only if no cell had one.
 */
export function pathCostTotal(rows: readonly PathCostRow[]): PathCostRow | null {
  if (rows.length === 0) return null;
  const total = (pick: (r: PathCostRow) => number | null) => rows.reduce((sum, r) => sum + (pick(r) ?? 0), 0);
  const delayerCpuMs = total((r) => r.delayerCpuMs);
  const packets = total((r) => r.packets);
  const receiveCpuMs = rows.every((r) => r.receiveCpuMs === null) ? null : total((r) => r.receiveCpuMs);
  const appsCpuMs = rows.some((r) => r.appsCpuMs === null) ? null : total((r) => r.appsCpuMs);
  return {
    network: TOTAL_LABEL,
    variant: '',
    case: '',
    transport: '',
    delayerCpuMs,
    packets,
    perPacketUs: packets > 0 ? (delayerCpuMs * 1000) / packets : null,
    receiveCpuMs,
    appsCpuMs,
    share: shareOf(delayerCpuMs, receiveCpuMs, appsCpuMs),
  };
}

/** The first cell of the whole run's row. */
export const TOTAL_LABEL = 'the whole run';
