// SVG (and HTML) element primitives: strings in, markup out. Raw text is escaped here, never by callers.
import { escapeHtml } from './escape';

export type AttrValue = string | number | boolean | null | undefined;
export type Attrs = Readonly<Record<string, AttrValue>>;

/** A coordinate or length with at most two decimals, so the markup stays short and stable. */
export function num(value: number): string {
  if (!Number.isFinite(value)) return '0';
  const rounded = Math.round(value * 100) / 100;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/** Attributes as markup: `false`, null and undefined are left out, `true` is a bare attribute. */
export function attrs(values: Attrs): string {
  let out = '';
  for (const [name, value] of Object.entries(values)) {
    if (value === null || value === undefined || value === false) continue;
    if (value === true) out += ` ${name}`;
    else out += ` ${name}="${typeof value === 'number' ? num(value) : escapeHtml(value)}"`;
  }
  return out;
}

/** An element whose children are markup already. */
export function el(name: string, values: Attrs, ...children: string[]): string {
  return `<${name}${attrs(values)}>${children.join('')}</${name}>`;
}

/** An element with no children, self-closed (valid for SVG elements inside HTML). */
export function empty(name: string, values: Attrs): string {
  return `<${name}${attrs(values)}/>`;
}

/** A hover tooltip with exact values; the parent element shows it. */
export function title(content: string): string {
  return el('title', {}, escapeHtml(content));
}

/** A text label; `content` is raw text. */
export function text(x: number, y: number, content: string, values: Attrs = {}): string {
  return el('text', { x, y, ...values }, escapeHtml(content));
}

export function rect(x: number, y: number, width: number, height: number, values: Attrs = {}, ...children: string[]): string {
  const r = { x, y, width: Math.max(0, width), height: Math.max(0, height), ...values };
  return children.length > 0 ? el('rect', r, ...children) : empty('rect', r);
}

export function line(x1: number, y1: number, x2: number, y2: number, values: Attrs = {}): string {
  return empty('line', { x1, y1, x2, y2, ...values });
}

export function polyline(points: ReadonlyArray<readonly [number, number]>, values: Attrs = {}, ...children: string[]): string {
  const p = points.map(([x, y]) => `${num(x)},${num(y)}`).join(' ');
  return el('polyline', { points: p, fill: 'none', ...values }, ...children);
}

export function group(values: Attrs, ...children: string[]): string {
  return el('g', values, ...children);
}

export function circle(cx: number, cy: number, r: number, values: Attrs = {}, ...children: string[]): string {
  return el('circle', { cx, cy, r, ...values }, ...children);
}
