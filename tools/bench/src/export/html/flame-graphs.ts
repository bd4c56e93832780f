// report.html's CPU profiles (--cpu-profile): per case, a table of each process's time by package, a
// flame graph per transport and process, and a diff between two transports of the case, all drawn
// here as inline SVG (no script: the page's policy forbids one). Each frame's exact figures are its
// hover text; frames narrower than a pixel are left out, and so are those the document pruned.
import { cpuProfileRows, profiledGroups, TRANSPORT_LABELS, type CpuProfileRow } from '../../analysis';
import { IDLE, placeLabeller, type FlameNode, type ProcessCpuProfile, type ProfiledRecord, type Transport } from '../../model';
import { escapeHtml } from './escape';
import { INK, MUTED } from './palette';
import { el, group, rect, text, title } from './svg';

const WIDTH = 960;
const ROW = 17;
/** Rows drawn at most: deeper frames are in the profile's file. */
const MAX_DEPTH = 48;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
/** Average width of a character of the 10 px labels, to fit a name into its frame. */
const CHAR_PX = 6;
/** A graph wider than the page scrolls inside its figure. */
const FIGURE_STYLE = 'overflow-x:auto;margin:10px 0';

/** A fixed colour for the packages a reader compares, a hashed warm one for the rest. */
const PACKAGE_COLOUR: Readonly<Record<string, string>> = {
  'grpc-js': '#E69F00',
  'grpc-go': '#E69F00',
  protobufjs: '#D55E00',
  'protobuf-es': '#F0A860',
  'protobuf-go': '#D55E00',
  'connect-es': '#CC79A7',
  'Nest core': '#E0245E',
  'Nest microservices': '#B8336A',
  rxjs: '#B07AA1',
  express: '#56B4E9',
  fastify: '#56B4E9',
  undici: '#0072B2',
  axios: '#0072B2',
  'node:http': '#7FB3D5',
  'node:http2': '#F6C85F',
  'node:net/streams': '#A3C4DC',
  'node:tls': '#9AB',
  'net/http': '#7FB3D5',
  'net/http (HTTP/2)': '#F6C85F',
  'x/net/http2': '#F6C85F',
  JSON: '#009E73',
  'V8 GC': '#999999',
  'Go GC': '#999999',
  'Go alloc': '#B5B5B5',
  'V8 builtins': '#C9C9A3',
  '(program)': '#DDDDDD',
  '(root)': '#EEEEEE',
};

export function packageColour(name: string): string {
  const known = PACKAGE_COLOUR[name];
  if (known) return known;
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return `hsl(${20 + (hash % 40)}, 70%, ${62 + (hash % 14)}%)`;
}

const fmt = (v: number) => (v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3));
const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

function depthOf(node: FlameNode): number {
  return 1 + Math.max(0, ...(node.children ?? []).map(depthOf));
}

function label(name: string, widthPx: number): string {
  const fits = Math.floor((widthPx - 6) / CHAR_PX);
  if (fits < 3) return '';
  return name.length <= fits ? name : `${name.slice(0, fits - 1)}…`;
}

/** One frame: its rectangle, its label when it fits, its hover text. */
function frame(x: number, y: number, w: number, fill: string, name: string, hover: string, attrs: Record<string, string>): string {
  const shown = label(name, w);
  return group(
    { 'data-frame': '', ...attrs },
    rect(x, y, w, ROW - 1, { fill, stroke: '#fff', 'stroke-width': 0.5 }, title(hover)),
    shown ? text(x + 3, y + ROW - 5, shown, { 'font-size': 10, fill: INK, 'pointer-events': 'none' }) : '',
  );
}

function flameSvg(kind: 'flame' | 'diff', rows: number, body: string[], data: Record<string, string>): string {
  const height = Math.max(1, Math.min(rows, MAX_DEPTH)) * ROW + 2;
  return el('svg', { 'data-chart': kind, ...data, viewBox: `0 0 ${WIDTH} ${height}`, width: WIDTH, height, role: 'img', 'aria-label': data['aria-label'] ?? kind, 'font-family': FONT }, ...body);
}

/** A process's flame graph: the root on top, callees below, widths its share of the busy time. */
export function flameGraph(profile: ProcessCpuProfile, data: Record<string, string>): string {
  const root = profile.flame;
  const perCall = (v: number) => (profile.calls > 0 ? v / profile.calls : 0);
  const body: string[] = [];
  const scale = root.totalMs > 0 ? WIDTH / root.totalMs : 0;
  const draw = (node: FlameNode, x: number, depth: number) => {
    const w = node.totalMs * scale;
    if (w < 1 || depth >= MAX_DEPTH) return;
    const hover = `${node.name} (${node.package}): ${fmt(perCall(node.totalMs))} ms per call with its callees, ${fmt(perCall(node.selfMs))} ms itself; ${pct(node.totalMs / root.totalMs)} of the process's busy time`;
    body.push(frame(x, depth * ROW, w, packageColour(node.package), node.name, hover, { 'data-package': node.package }));
    let cx = x;
    for (const child of node.children ?? []) {
      draw(child, cx, depth + 1);
      cx += child.totalMs * scale;
    }
  };
  draw(root, 0, 0);
  return flameSvg('flame', depthOf(root), body, data);
}

interface DiffNode {
  name: string;
  package: string;
  a: number;
  b: number;
  children: DiffNode[];
}

/** Two flame trees as one, frames on the same path from the root joined, each side per call. */
function joined(a: FlameNode | undefined, aCalls: number, b: FlameNode | undefined, bCalls: number): DiffNode {
  const name = (a ?? b)!.name;
  const byName = new Map<string, [FlameNode | undefined, FlameNode | undefined]>();
  for (const child of a?.children ?? []) byName.set(`${child.name}\u0000${child.package}`, [child, undefined]);
  for (const child of b?.children ?? []) {
    const key = `${child.name}\u0000${child.package}`;
    byName.set(key, [byName.get(key)?.[0], child]);
  }
  return {
    name,
    package: (a ?? b)!.package,
    a: a && aCalls > 0 ? a.totalMs / aCalls : 0,
    b: b && bCalls > 0 ? b.totalMs / bCalls : 0,
    children: [...byName.values()].map(([x, y]) => joined(x, aCalls, y, bCalls)).sort((p, q) => q.a + q.b - (p.a + p.b)),
  };
}

/** Red where `a` spends more per call, blue where `b` does, pale where they are alike. */
function diffColour(a: number, b: number): string {
  const lean = a + b > 0 ? (a - b) / (a + b) : 0;
  const light = 92 - Math.round(Math.abs(lean) * 42);
  return lean >= 0 ? `hsl(2, 75%, ${light}%)` : `hsl(212, 75%, ${light}%)`;
}

/** The diff of one process between two transports: widths both sides' time per call added up, colours who spends it. */
export function diffGraph(a: ProcessCpuProfile, b: ProcessCpuProfile, names: [string, string], data: Record<string, string>): string {
  const root = joined(a.flame, a.calls, b.flame, b.calls);
  const total = root.a + root.b;
  const scale = total > 0 ? WIDTH / total : 0;
  const body: string[] = [];
  let depthMax = 0;
  const draw = (node: DiffNode, x: number, depth: number) => {
    const w = (node.a + node.b) * scale;
    if (w < 1 || depth >= MAX_DEPTH) return;
    depthMax = Math.max(depthMax, depth + 1);
    const hover = `${node.name} (${node.package}): ${names[0]} ${fmt(node.a)} vs ${names[1]} ${fmt(node.b)} ms per call with its callees`;
    body.push(frame(x, depth * ROW, w, diffColour(node.a, node.b), node.name, hover, { 'data-package': node.package, 'data-lean': node.a >= node.b ? 'a' : 'b' }));
    let cx = x;
    for (const child of node.children) {
      draw(child, cx, depth + 1);
      cx += (child.a + child.b) * scale;
    }
  };
  draw(root, 0, 0);
  return flameSvg('diff', depthMax, body, data);
}

/** The group's package table: a column per transport × process, ms per call, the largest packages first. */
function packageTable(rows: readonly CpuProfileRow[]): string {
  const busy = rows.filter((r) => r.profile.busyMs > 0);
  const totals = new Map<string, number>();
  for (const r of busy) for (const p of r.packages) totals.set(p.package, (totals.get(p.package) ?? 0) + p.perCallMs);
  const names = [...totals].sort((x, y) => y[1] - x[1]).map(([name]) => name).slice(0, 14);
  const head = el('tr', {}, el('th', {}, 'package (self time, ms per call)'), ...busy.map((r) => el('th', { class: 'num' }, `${escapeHtml(r.cell.transport)}<br>${escapeHtml(r.profile.process)}`)));
  const line = (name: string) =>
    el('tr', { 'data-package-row': name }, el('td', {}, `<span style="display:inline-block;width:10px;height:10px;background:${escapeHtml(packageColour(name))}"></span> ${escapeHtml(name)}`), ...busy.map((r) => {
      const found = r.packages.find((p) => p.package === name);
      return el('td', { class: 'num', title: found ? pct(found.share) : '' }, found ? fmt(found.perCallMs) : '–');
    }));
  const total = el('tr', {}, el('th', {}, 'on a CPU (busy)'), ...busy.map((r) => el('th', { class: 'num' }, fmt(r.busyPerCallMs))));
  return el('table', { class: 'results', 'data-table': 'cpu-packages' }, el('thead', {}, head), el('tbody', {}, ...names.map(line), total));
}

function caption(text: string): string {
  return el('figcaption', {}, escapeHtml(text));
}

/** One group (a case in a variant, at one place): its table, a flame graph per transport and process, the diffs. */
function groupSection(cells: readonly ProfiledRecord[], placeOf: (cell: ProfiledRecord) => string): string {
  const rows = cpuProfileRows(cells);
  const first = cells[0];
  const name = (t: string) => TRANSPORT_LABELS[t as Transport] ?? t;
  const flames = rows
    .filter((r) => r.profile.busyMs > 0)
    .map((r) =>
      el(
        'figure',
        { class: 'flame', style: FIGURE_STYLE },
        caption(`${name(r.cell.transport)} · ${r.profile.process}: ${fmt(r.busyPerCallMs)} ms on a CPU per call, ${r.profile.calls} calls${r.profile.file ? ` · ${r.profile.file}` : ''}${r.profile.error ? ` · ${r.profile.error}` : ''}`),
        flameGraph(r.profile, { 'data-case': first.case, 'data-transport': r.cell.transport, 'data-process': r.profile.process }),
      ),
    );
  const [base, ...others] = cells;
  const diffs = others.flatMap((other) =>
    (base.cpuProfile?.processes ?? []).flatMap((pa) => {
      const pb = other.cpuProfile?.processes.find((p) => p.process === pa.process);
      if (!pb || (pa.busyMs === 0 && pb.busyMs === 0)) return [];
      const names: [string, string] = [name(base.transport), name(other.transport)];
      return [
        el(
          'figure',
          { class: 'flame', style: FIGURE_STYLE },
          caption(`${pa.process}: ${names[0]} (red) against ${names[1]} (blue); width: both per call together`),
          diffGraph(pa, pb, names, { 'data-case': first.case, 'data-transports': `${base.transport},${other.transport}`, 'data-process': pa.process }),
        ),
      ];
    }),
  );
  const place = placeOf(first);
  return el(
    'details',
    { 'data-profile-group': `${first.variant} ${first.case}` },
    el('summary', {}, escapeHtml(`${first.case} · ${first.variant}${place ? ` · ${place}` : ''}`)),
    packageTable(rows),
    ...flames,
    diffs.length ? el('h3', {}, 'Diff between transports') : '',
    ...diffs,
  );
}

const INTRO =
  'Each app was profiled over the timed calls only (V8’s CPU profiler in the Node apps, runtime/pprof in the Go ones), and the profiles of a cell’s calls merged, one per process. ' +
  'The table gives each package’s self time per call; (idle) is left out, (program) is V8’s own unattributed work. In a flame graph the top row is the whole busy time of the process and each row below the functions called from the one above, as wide as their time with their callees; hover over a frame for its figures. ' +
  'A diff joins two transports’ graphs of the same process: a frame is as wide as both transports’ time per call together, red where the first spends more, blue where the second does. ' +
  'The profiles themselves are in the run folder (profiles/), for Chrome DevTools, speedscope or go tool pprof.';

/** The section, or '' when no cell was profiled. */
export function renderCpuProfilesSection(results: readonly ProfiledRecord[]): string {
  const groups = profiledGroups(results);
  if (groups.length === 0) return '';
  const placeOf = placeLabeller(results);
  const several = new Set(results.map((r) => `${r.network}|${r.runtime}|${r.security}`)).size > 1;
  const legend = el('p', { class: 'legend-note' }, escapeHtml(`Sampling interval: ${results.find((r) => r.cpuProfile)!.cpuProfile!.intervalUs} µs in the Node apps, 4 ms in the Go ones.`), el('span', { style: `color:${MUTED}` }, ` ${escapeHtml(IDLE)} is waiting; a Go profile has none.`));
  return el('section', { id: 'cpu-profiles', 'data-section': 'cpu-profiles' }, el('h2', {}, 'CPU profiles'), el('p', {}, escapeHtml(INTRO)), legend, ...groups.map((g) => groupSection(g, several ? placeOf : () => '')));
}
