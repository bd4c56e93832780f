// Proactive memory reclaim (Linux DAMON, e.g. on a Firecracker VM) pages out memory that no process
// touched for a while: apps that sit idle between visits pay it back in page faults, and its own
// sampling runs beside the benchmark. The bench records it in every report; it never changes it.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const DAMON_ADMIN = '/sys/kernel/mm/damon/admin/kdamonds';

export interface ReclaimScheme {
  /** What DAMON does to matching memory, e.g. `pageout`. */
  action: string;
  /** Memory idle at least this long (s) matches; null when the age is unbounded below or unreadable. */
  minIdleS: number | null;
}

export interface Kdamond {
  state: string;
  schemes: ReclaimScheme[];
}

/** Reads one sysfs file, trimmed, or null if it cannot be read. */
export type FileReader = (file: string) => string | null;

const readSysfs: FileReader = (file) => {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
};

function count(read: FileReader, file: string): number {
  const n = Number(read(file));
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/**
 * The kernel's DAMON daemons and their schemes, or null where DAMON's sysfs interface is absent.
 * A scheme's minimum age is counted in aggregation intervals; it is converted to seconds here.
 */
export function readMemoryReclaim(read: FileReader = readSysfs, root: string = DAMON_ADMIN): Kdamond[] | null {
  if (read(path.join(root, 'nr_kdamonds')) === null) return null;
  return Array.from({ length: count(read, path.join(root, 'nr_kdamonds')) }, (_, k) => {
    const kdamond = path.join(root, String(k));
    const schemes: ReclaimScheme[] = [];
    for (let c = 0; c < count(read, path.join(kdamond, 'contexts', 'nr_contexts')); c++) {
      const context = path.join(kdamond, 'contexts', String(c));
      const aggregationUs = Number(read(path.join(context, 'monitoring_attrs', 'intervals', 'aggr_us')));
      for (let s = 0; s < count(read, path.join(context, 'schemes', 'nr_schemes')); s++) {
        const scheme = path.join(context, 'schemes', String(s));
        const minAge = Number(read(path.join(scheme, 'access_pattern', 'age', 'min')));
        const minIdleS = Number.isFinite(minAge) && minAge > 0 && Number.isFinite(aggregationUs) ? (minAge * aggregationUs) / 1e6 : null;
        schemes.push({ action: read(path.join(scheme, 'action')) ?? 'unknown', minIdleS });
      }
    }
    return { state: read(path.join(kdamond, 'state')) ?? 'unknown', schemes };
  });
}
