/** Milliseconds for a table: 3 significant decimals under 10 ms, fewer above. */
export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (value < 10) return value.toFixed(3);
  if (value < 1000) return value.toFixed(1);
  return Math.round(value).toLocaleString('en-US');
}

/** Bytes with a binary unit. */
export function bytes(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (value < 1024) return `${value} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = value / 1024;
  let unit = 0;
  while (v >= 1024 && unit < units.length - 1) {
    v /= 1024;
    unit++;
  }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[unit]}`;
}

export function ratio(value: number | null): string {
  return value === null ? '—' : `${value.toFixed(2)}×`;
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** settings.forks and forksPerCase in words (runs from before forks existed had none). */
export function describeForks(forks: unknown, forksPerCase: unknown): string {
  if (typeof forks !== 'number' || forks === 0) return 'one set of apps for all cases of a variant, one visit per case';
  const perCase = (forksPerCase ?? {}) as Record<string, number>;
  const exceptions = Object.entries(perCase).filter(([, n]) => n !== forks).map(([id, n]) => `${id}: ${n}`);
  return `each case in ${forks} forks (its runs split over ${forks} visits on new apps, round-robin over the cases)` +
    (exceptions.length > 0 ? ` (${exceptions.join(', ')})` : '');
}

/**
 * provenance.memoryReclaim in words: null for runs that did not record it; DAMON's daemons otherwise
 * (a VM that pages out idle memory makes idle apps fault it back in, so a reader should know).
 */
export function describeMemoryReclaim(value: unknown): string | null {
  if (value === undefined) return null;
  if (!Array.isArray(value)) return 'no DAMON interface (no proactive memory reclaim)';
  const running = value.filter((k) => (k as { state?: unknown })?.state === 'on');
  if (running.length === 0) return 'DAMON present, not running (no proactive memory reclaim)';
  const schemes = running.flatMap((k) => ((k as { schemes?: unknown }).schemes ?? []) as { action?: unknown; minIdleS?: unknown }[]);
  const what = schemes.map((s) => `${String(s.action)}${typeof s.minIdleS === 'number' ? ` of memory idle ≥ ${s.minIdleS} s` : ''}`);
  return `DAMON running: ${what.length > 0 ? what.join(', ') : 'monitoring only'}`;
}
