// How the run was made: a few highlights read from known keys, then everything in provenance and
// settings rendered generically (nested definition lists), so new fields show up without code changes.
import { type RunDocument, bytes, describeDeployedApps, describeMemoryReclaim, describeNetworks, describeRuntimes, describeVisits, presetOf } from '../../model';
import { escapeHtml } from './escape';
import { el } from './svg';

type Dict = Record<string, unknown>;

function asDict(value: unknown): Dict {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Dict) : {};
}

const isPrimitive = (v: unknown) => v === null || v === undefined || ['string', 'number', 'boolean'].includes(typeof v);

function primitive(value: unknown): string {
  if (value === null || value === undefined) return '<span class="none">—</span>';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return escapeHtml(String(value));
}

/** Any JSON value as readable HTML: objects as definition lists, lists of scalars on one line. */
export function renderValue(value: unknown): string {
  if (isPrimitive(value)) return primitive(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '<span class="none">(none)</span>';
    if (value.every(isPrimitive)) return value.map(primitive).join(', ');
    return el('ol', {}, ...value.map((v) => el('li', {}, renderValue(v))));
  }
  const entries = Object.entries(asDict(value));
  if (entries.length === 0) return '<span class="none">(empty)</span>';
  return el('dl', { class: 'kv' }, ...entries.map(([k, v]) => el('dt', {}, escapeHtml(k)) + el('dd', {}, renderValue(v))));
}

function dirtyLabel(dirty: unknown): string {
  if (dirty === true) return ' <span class="badge warn">uncommitted changes</span>';
  if (dirty === false) return ' <span class="badge">clean</span>';
  return ' <span class="badge">dirty flag unknown</span>';
}

/** Whether the apps had cores of their own (provenance.pinning), else the older settings.pinned flag. */
function pinningLabel(doc: RunDocument): string {
  const deployed = describeDeployedApps(doc.settings, doc.provenance);
  if (deployed) return escapeHtml(deployed);
  const pin = asDict(doc.provenance.pinning);
  if (pin.pinned === true) {
    const cores = Object.entries(asDict(pin.cores)).map(([app, list]) => `${app} on CPU ${String(list)}`);
    return escapeHtml(`pinned with taskset: ${cores.join(', ')}`);
  }
  if (pin.pinned === false) return escapeHtml(`not pinned${pin.reason ? ` (${String(pin.reason)})` : ''}: client and servers share the cores`);
  return doc.settings.pinned === true ? 'pinned' : 'not pinned: client and servers share the cores';
}

/** The facts a reader looks for first, from the keys collectProvenance and describeSettings write. */
function highlights(doc: RunDocument): string {
  const p = doc.provenance;
  const s = doc.settings;
  const client = asDict(p.client);
  const bench = asDict(p.bench);
  const runtime = Object.keys(client).length > 0 ? client : bench;
  const memory = typeof runtime.totalMemoryBytes === 'number' ? `, ${bytes(runtime.totalMemoryBytes)}` : '';
  const rows: Array<[string, string]> = [
    ['git commit', `<code>${primitive(p.gitCommit ?? 'unknown')}</code>${dirtyLabel(p.gitDirty)}`],
    ['started', primitive(s.startedAt)],
    ['finished', primitive(p.finishedAt)],
    ['machine', `${primitive(runtime.cpuModel ?? 'unknown CPU')} × ${primitive(runtime.cpuCount ?? '?')} CPUs${escapeHtml(memory)}; ${primitive(runtime.platform ?? '?')} ${primitive(runtime.arch ?? '')}`],
    ['Node (measuring client)', primitive(runtime.node)],
    ['preset', `${primitive(presetOf(s))}; warm-up ${primitive(s.warmup)} call(s) and ${primitive(s.warmupMs ?? 0)} ms; runs ${primitive(s.runs)}`],
    ['visits and forks', describeVisits(s)],
    ['cases', renderValue(s.cases)],
    ['transports', renderValue(s.transports)],
    ['cores', pinningLabel(doc)],
  ];
  const reclaim = describeMemoryReclaim(p.memoryReclaim);
  if (reclaim !== null) rows.push(['memory reclaim', escapeHtml(reclaim)]);
  for (const line of describeRuntimes(p.runtimes)) rows.push(['runtime', escapeHtml(line)]);
  for (const line of describeNetworks(doc.provenance.networks, doc.settings.clientUrl, doc.provenance)) rows.push(['network', escapeHtml(line)]);
  const packages = Object.entries(asDict(runtime.packages));
  const packageTable =
    packages.length > 0
      ? el(
          'table',
          { class: 'packages' },
          el('thead', {}, el('tr', {}, el('th', {}, 'package'), el('th', {}, 'version'))),
          el('tbody', {}, ...packages.map(([name, version]) => el('tr', {}, el('td', {}, `<code>${escapeHtml(name)}</code>`), el('td', {}, primitive(version))))),
        )
      : '';
  return el('dl', { class: 'kv highlights' }, ...rows.map(([k, v]) => el('dt', {}, escapeHtml(k)) + el('dd', {}, v))) + packageTable;
}

/** The provenance section's content. */
export function renderProvenance(doc: RunDocument): string {
  return [
    highlights(doc),
    el('details', {}, el('summary', {}, 'Everything recorded in <code>provenance</code>'), renderValue(doc.provenance)),
    el('details', {}, el('summary', {}, 'Everything recorded in <code>settings</code>'), renderValue(doc.settings)),
    el(
      'details',
      {},
      el('summary', {}, 'As JSON'),
      el('pre', {}, escapeHtml(JSON.stringify({ schemaVersion: doc.schemaVersion, incomplete: doc.incomplete, provenance: doc.provenance, settings: doc.settings }, null, 2))),
    ),
  ].join('\n');
}
