import type { Cell, PhaseBreakdown, Transport } from '../model';
import { cellKey, cellMedian, placeLabeller } from '../model';

/** The parts of a call, in stacking order (bottom first). */
export const PHASE_KEYS = ['build', 'encode', 'decode', 'remainder'] as const;
export type PhaseKey = (typeof PHASE_KEYS)[number];

/** What each part is, as a reader would name it. */
export const PHASE_LABELS: Readonly<Record<PhaseKey, string>> = {
  build: 'server build',
  encode: 'server encode',
  decode: 'client decode',
  remainder: 'remainder (framework + transport + waiting)',
};

export interface PhasePart {
  phase: PhaseKey;
  /** ms per call; null when the process did not report it (or, for the remainder, a phase is unknown). */
  ms: number | null;
  /** ms ÷ the mean call time (0.22 for 22 %); null when `ms` is null or the total is not positive. */
  share: number | null;
}

/**
 * A cell's phases as parts of its mean call time: build, encode, decode and the remainder. Parallel
 * calls sum every request's phases, so the measured parts can exceed the total and the remainder
 * can be negative.
 */
export function phaseParts(p: PhaseBreakdown): PhasePart[] {
  const values: Record<PhaseKey, number | null> = {
    build: p.serverBuildMs,
    encode: p.serverEncodeMs,
    decode: p.clientDecodeMs,
    remainder: p.remainderMs,
  };
  return PHASE_KEYS.map((phase) => {
    const value = values[phase] ?? null;
    return { phase, ms: value, share: value !== null && p.totalMs > 0 ? value / p.totalMs : null };
  });
}

/** Ratios of medians the variants table shows, [numerator, denominator], when both variants ran. */
const RATIO_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['blog', 'bare'],
  ['tuned', 'blog'],
  ['tuned', 'bare'],
  ['bare', 'go'],
];

export interface VariantRatioRow {
  /** The network profile the cells ran across (a run across several has a row per network). */
  network: string;
  case: string;
  transport: Transport;
  /** Median ms per variant, in `VariantRatios.variants` order; null where the cell failed or is missing. */
  medians: Array<number | null>;
  /** One ratio per pair, in `VariantRatios.pairs` order; null when either median is missing. */
  ratios: Array<number | null>;
}

export interface VariantRatios {
  /** Variants in the order they first appear in the results. */
  variants: string[];
  pairs: Array<readonly [string, string]>;
  /** Networks in the order they first appear: a column of the tables only when there are several. */
  networks: string[];
  /** One row per network × case × transport, in the order they first appear. */
  rows: VariantRatioRow[];
}

function over(a: number | null, b: number | null): number | null {
  return a !== null && b !== null && b > 0 ? a / b : null;
}

/**
 * The variants side by side (pure; shared by the Markdown and HTML reports): medians, and the ratios
 * that answer the questions — how much the framework costs (blog ÷ bare), how much tuning recovers
 * (tuned ÷ blog), what is left (tuned ÷ bare). Null with fewer than two variants.
 */
export function variantRatios(results: readonly Cell[]): VariantRatios | null {
  const variants = [...new Set(results.map((r) => r.variant))];
  if (variants.length < 2) return null;
  // One row per cell of every variant at once: the cell's key without its variant.
  const cells = [...new Map(results.map((r) => [cellKey({ ...r, variant: '' }), r])).values()];
  const pairs = RATIO_PAIRS.filter(([a, b]) => variants.includes(a) && variants.includes(b));
  const placeOf = placeLabeller(results);
  return {
    variants,
    pairs,
    networks: [...new Set(results.map(placeOf))],
    rows: cells.map((c) => {
      const medians = variants.map((variant) => cellMedian(results, { ...c, variant }));
      const of = (v: string) => medians[variants.indexOf(v)];
      return { network: placeOf(c), case: c.case, transport: c.transport, medians, ratios: pairs.map(([a, b]) => over(of(a), of(b))) };
    }),
  };
}
