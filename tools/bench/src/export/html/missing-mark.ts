import { escapeHtml } from './escape';
import { FAILED, MUTED } from './palette';
import { el, title } from './svg';

/** What a chart writes where a bar would be: "FAILED" in red, or a muted "n/a", with the reason on hover. */
export interface Missing {
  label: string;
  tooltip: string;
  failed: boolean;
}

/** The mark drawn instead of a bar, just above the baseline at `cx`. */
export function missingMark(missing: Missing | undefined, transport: string, cx: number, base: number): string {
  const m = missing ?? { label: 'n/a', tooltip: 'no value', failed: false };
  return el(
    'text',
    {
      x: cx,
      y: base - 8,
      'font-size': 10,
      'font-weight': m.failed ? 'bold' : null,
      fill: m.failed ? FAILED : MUTED,
      'text-anchor': 'middle',
      'data-missing': m.failed ? 'failed' : 'no-data',
      'data-transport': transport,
    },
    escapeHtml(m.label),
    title(m.tooltip),
  );
}
