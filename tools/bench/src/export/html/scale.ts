// Linear scales with round tick values, starting at zero (bars must start at zero to be read honestly).

/** The smallest "round" step (1, 2, 2.5 or 5 × 10^k) that is at least `rough`. */
export function niceStep(rough: number): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= rough * (1 - 1e-9)) return m * power;
  return 10 * power;
}

/** Ticks 0, step, 2·step … up to the first one at or above `max` (about `count` intervals). */
export function zeroTicks(max: number, count = 4): number[] {
  const step = niceStep((max > 0 ? max : 1) / count);
  const top = Math.max(1, Math.ceil((max > 0 ? max : 1) / step - 1e-9));
  return Array.from({ length: top + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

/** Maps [d0, d1] onto [r0, r1] linearly (r0 > r1 for a y axis that grows upwards). */
export function linear(d0: number, d1: number, r0: number, r1: number): (value: number) => number {
  const span = d1 - d0 || 1;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/** A tick label with as many decimals as the step needs and thousands separators. */
export function tickLabel(value: number, step: number): string {
  const decimals = step > 0 ? Math.max(0, Math.min(6, Math.ceil(-Math.log10(step) - 1e-9) + (isRound(step) ? 0 : 1))) : 0;
  return value.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: decimals });
}

function isRound(step: number): boolean {
  const power = 10 ** Math.floor(Math.log10(step));
  const m = step / power;
  return Math.abs(m - Math.round(m)) < 1e-9;
}

/** A unit for a byte axis so tick labels stay short: B, KiB, MiB or GiB. */
export function byteUnit(max: number): { label: string; divisor: number } {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let i = 0;
  while (i < units.length - 1 && max >= 1024 ** (i + 1)) i++;
  return { label: units[i], divisor: 1024 ** i };
}
