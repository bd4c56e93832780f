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

/** settings.processes in words (runs from before the option were all `shared`). */
export function describeProcesses(processes: unknown): string {
  return processes === 'fresh' ? 'new server-a, server-b and client for every case' : 'one set of apps for all cases of a variant';
}
