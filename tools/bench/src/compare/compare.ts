// Comparing two runs cell by cell. Everything lives inside three kits (functions with no imports:
// studentKit, agreementKit, compareKit), so the very same code runs in Node (bench:compare) and,
// inlined as COMPARE_KIT_SOURCE, in the index page's compare view: one implementation, tested once.

/** What a comparison needs from a cell's summary. */
export interface ComparableSummary {
  n: number;
  median: number;
  mean: number;
  stddev: number;
  medianCi: { low: number; high: number } | null;
}

export interface ComparableResult {
  /** Absent in runs from before the network stage: those ran on loopback. */
  network?: string;
  /** The Node runtime (runtimes.ts's name); absent in runs from before --node (readRun labels those from their provenance). */
  runtime?: string;
  /** plain, tls or mtls; absent in runs from before --security: plain. */
  security?: string;
  /** Absent in runs from before variants: those were all the blog's. */
  variant?: string;
  case: string;
  transport: string;
  ok: boolean;
  summary: ComparableSummary | null;
  /** The machine probe around the case (ms; absent in older runs). */
  machineProbeMs?: { before: number; after: number } | null;
}

export interface CellComparison {
  /** The Node runtime both cells ran on ('unknown' when neither run recorded one). */
  runtime: string;
  /** plain, tls or mtls: both cells' (they pair by it). */
  security: string;
  variant: string;
  case: string;
  transport: string;
  baseMedian: number;
  headMedian: number;
  /** head median ÷ base median (> 1: head slower). */
  ratio: number;
  /** One standard error of the ratio, propagated from both medians' uncertainties. */
  ratioError: number;
  /** Two-sided p-value of Welch's t-test on the two sets of samples (null when not computable). */
  pValue: number | null;
  /** p < 0.05. */
  significant: boolean;
  /** Whether the two medians' 95 % CIs overlap (null when either is missing). */
  ciOverlap: boolean | null;
  /** hyperfine-style sentence, e.g. "1.32 ± 0.05 times slower". */
  verdict: string;
  /**
   * head's machine probe ÷ base's around this case (mean of before and after; > 1: the machine itself
   * was slower during head), or null when either run has no probe. A cell ratio that matches it is
   * more likely the machine than the code.
   */
  machineRatio: number | null;
}

/** Do two runs of the same code agree? Cells slow enough to judge, and those further apart than the tolerance. */
export interface Agreement {
  minMedianMs: number;
  tolerance: number;
  /** Cells whose median is ≥ minMedianMs in either run. */
  judged: number;
  /** Of those, the ones apart by more than the tolerance (larger ÷ smaller median − 1), furthest first. */
  apart: { runtime: string; variant: string; case: string; transport: string; difference: number }[];
}

export interface WelchResult {
  t: number;
  df: number;
  p: number;
}

/** Student's t and Welch's test from summary statistics: the arithmetic compareKit's p-values need. */
export function studentKit() {
  /** log Γ(x) by the Lanczos approximation (g = 7, n = 9), accurate to ~15 digits for x > 0. */
  function lnGamma(x: number): number {
    const c = [
      0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
      12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
    ];
    if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
    const z = x - 1;
    let sum = c[0];
    for (let i = 1; i < 9; i++) sum += c[i] / (z + i);
    const t = z + 7.5;
    return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
  }

  /** Continued fraction for the incomplete beta function (modified Lentz). */
  function betaFraction(a: number, b: number, x: number): number {
    const tiny = 1e-300;
    let c = 1;
    let d = 1 - ((a + b) * x) / (a + 1);
    if (Math.abs(d) < tiny) d = tiny;
    d = 1 / d;
    let h = d;
    for (let m = 1; m <= 300; m++) {
      const m2 = 2 * m;
      let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
      d = 1 + aa * d;
      if (Math.abs(d) < tiny) d = tiny;
      c = 1 + aa / c;
      if (Math.abs(c) < tiny) c = tiny;
      d = 1 / d;
      h *= d * c;
      aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
      d = 1 + aa * d;
      if (Math.abs(d) < tiny) d = tiny;
      c = 1 + aa / c;
      if (Math.abs(c) < tiny) c = tiny;
      d = 1 / d;
      const step = d * c;
      h *= step;
      if (Math.abs(step - 1) < 1e-15) break;
    }
    return h;
  }

  /** Regularized incomplete beta I_x(a, b). */
  function incompleteBeta(a: number, b: number, x: number): number {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
    return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
  }

  /** Two-sided p-value of Student's t with `df` degrees of freedom. */
  function studentTwoSidedP(t: number, df: number): number {
    return incompleteBeta(df / 2, 0.5, df / (df + t * t));
  }

  /** Welch's unequal-variances t-test from summary statistics. */
  function welch(a: ComparableSummary, b: ComparableSummary): WelchResult | null {
    if (a.n < 2 || b.n < 2) return null;
    const va = (a.stddev * a.stddev) / a.n;
    const vb = (b.stddev * b.stddev) / b.n;
    const se = Math.sqrt(va + vb);
    if (se === 0) return { t: 0, df: a.n + b.n - 2, p: a.mean === b.mean ? 1 : 0 };
    const t = (a.mean - b.mean) / se;
    const df = (va + vb) ** 2 / ((va * va) / (a.n - 1) + (vb * vb) / (b.n - 1));
    return { t, df, p: studentTwoSidedP(t, df) };
  }

  return { lnGamma, incompleteBeta, studentTwoSidedP, welch };
}

/** Two runs cell by cell: each cell's ratio with its error, Welch's p-value, the CIs' overlap, the machine's own ratio. */
export function compareKit() {
  const SIGNIFICANCE = 0.05;
  const { lnGamma, incompleteBeta, studentTwoSidedP, welch } = studentKit();
  const { agreement, describeAgreement } = agreementKit();

  /** Standard error of a median: from its 95 % CI when known, else 1.2533·σ/√n (normal approximation). */
  function medianError(s: ComparableSummary): number {
    if (s.medianCi) return (s.medianCi.high - s.medianCi.low) / (2 * 1.96);
    return s.n > 0 ? (1.2533 * s.stddev) / Math.sqrt(s.n) : 0;
  }

  function compareCell(
    key: { runtime?: string; security?: string; variant?: string; case: string; transport: string },
    base: ComparableSummary,
    head: ComparableSummary,
    machineRatio: number | null = null,
  ): CellComparison {
    const ratio = head.median / base.median;
    const ratioError = ratio * Math.sqrt((medianError(head) / head.median) ** 2 + (medianError(base) / base.median) ** 2);
    const test = welch(head, base);
    const ciOverlap =
      head.medianCi && base.medianCi ? head.medianCi.low <= base.medianCi.high && base.medianCi.low <= head.medianCi.high : null;
    const slower = ratio >= 1;
    const factor = slower ? ratio : 1 / ratio;
    const factorError = slower ? ratioError : ratioError / (ratio * ratio);
    return {
      runtime: key.runtime ?? 'unknown',
      security: key.security ?? 'plain',
      variant: key.variant ?? 'blog',
      case: key.case,
      transport: key.transport,
      baseMedian: base.median,
      headMedian: head.median,
      ratio,
      ratioError,
      pValue: test ? test.p : null,
      significant: test !== null && test.p < SIGNIFICANCE,
      ciOverlap,
      verdict: `${factor.toFixed(2)} ± ${factorError.toFixed(2)} times ${slower ? 'slower' : 'faster'}`,
      machineRatio,
    };
  }

  function probeMean(result: ComparableResult): number | null {
    const probe = result.machineProbeMs;
    return probe && probe.before > 0 && probe.after > 0 ? (probe.before + probe.after) / 2 : null;
  }

  /** The same cell in both runs: network, runtime, security, variant, case and transport (results.ts's cellKey; this kit imports nothing). */
  function sameCell(a: ComparableResult, b: ComparableResult): boolean {
    const same = (key: 'network' | 'runtime' | 'security' | 'variant', absent: string) => (a[key] ?? absent) === (b[key] ?? absent);
    return same('network', 'loopback') && same('runtime', 'unknown') && same('security', 'plain') && same('variant', 'blog') && a.case === b.case && a.transport === b.transport;
  }

  /** Every cell that succeeded in both runs, in the head run's order. */
  function compareRuns(base: { results: ComparableResult[] }, head: { results: ComparableResult[] }): CellComparison[] {
    const rows: CellComparison[] = [];
    for (const h of head.results) {
      const b = base.results.find((r) => sameCell(r, h));
      if (!b || !b.ok || !h.ok || !b.summary || !h.summary || !(b.summary.median > 0)) continue;
      const baseProbe = probeMean(b);
      const headProbe = probeMean(h);
      rows.push(compareCell(h, b.summary, h.summary, baseProbe !== null && headProbe !== null ? headProbe / baseProbe : null));
    }
    return rows;
  }

  return { lnGamma, incompleteBeta, studentTwoSidedP, welch, compareCell, compareRuns, agreement, describeAgreement };
}

/** Whether two runs of the same code agree: the README's repeatability check and its sentence. */
export function agreementKit() {
  /**
   * The repeatability check of the README ("two runs agree within 10% on every cell ≥ 20 ms"): faster
   * cells are left out because a few hundred microseconds of scheduling move them by more than 10%.
   */
  function agreement(rows: readonly CellComparison[], minMedianMs = 20, tolerance = 0.1): Agreement {
    const judged = rows.filter((r) => Math.max(r.baseMedian, r.headMedian) >= minMedianMs);
    const apart = judged
      .map((r) => ({ runtime: r.runtime, variant: r.variant, case: r.case, transport: r.transport, difference: Math.max(r.baseMedian, r.headMedian) / Math.min(r.baseMedian, r.headMedian) - 1 }))
      // A hair of slack so that exactly 10% (110 vs 100, 0.1000…09 in floating point) counts as within.
      .filter((cell) => cell.difference > tolerance + 1e-9)
      .sort((a, b) => b.difference - a.difference);
    return { minMedianMs, tolerance, judged: judged.length, apart };
  }

  function describeAgreement(a: Agreement): string {
    const percent = (x: number) => `${Math.round(x * 100)}%`;
    if (a.judged === 0) return `Agreement: no cell has a median of ${a.minMedianMs} ms or more.`;
    const head = `Agreement: ${a.judged - a.apart.length} of ${a.judged} cells with a median ≥ ${a.minMedianMs} ms are within ${percent(a.tolerance)}`;
    if (a.apart.length === 0) return `${head}.`;
    const several = new Set(a.apart.map((c) => c.runtime)).size > 1;
    const label = (c: Agreement['apart'][number]) => `${several ? `Node ${c.runtime} ` : ''}${c.variant === 'blog' ? '' : `${c.variant} `}${c.case} ${c.transport}`;
    return `${head}; apart: ${a.apart.map((c) => `${label(c)} ${percent(c.difference)}`).join(', ')}.`;
  }

  return { agreement, describeAgreement };
}

/**
 * The three kits as one expression of source text that evaluates to compareKit, for the index page's
 * script (`(COMPARE_KIT_SOURCE)()` is the kit): the helpers it calls are declared in its scope.
 */
export const COMPARE_KIT_SOURCE = `(function () {\n${studentKit.toString()}\n${agreementKit.toString()}\nreturn ${compareKit.toString()};\n})()`;
