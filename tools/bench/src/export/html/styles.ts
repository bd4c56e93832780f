// The report's only stylesheet, inlined into the page. No fonts, images or anything else to fetch.
import { FAILED, GRID, INK, MUTED, TRANSPORT_STYLE } from './palette';

export const STYLES = `
:root { color-scheme: light; --ink: ${INK}; --muted: ${MUTED}; --grid: ${GRID}; --failed: ${FAILED};
  --json: ${TRANSPORT_STYLE.json.colour}; --grpc: ${TRANSPORT_STYLE.grpc.colour}; }
* { box-sizing: border-box; }
body { margin: 0; background: #f7f7f5; color: var(--ink);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1240px; margin: 0 auto; padding: 24px 24px 48px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 36px 0 6px; padding-top: 8px; border-top: 1px solid #ddd; }
p { margin: 6px 0; max-width: 80ch; }
.run { color: var(--muted); }
code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.92em; }
nav ul { list-style: none; padding: 0; margin: 12px 0; display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 14px; }
a { color: #005a8c; }
.warning { border-left: 6px solid var(--failed); background: #fdecee; padding: 10px 14px; margin: 12px 0; font-weight: 600; }
.howto { background: #fff; border: 1px solid var(--grid); border-radius: 6px; padding: 10px 16px; margin: 14px 0; }
.howto ul { margin: 4px 0; padding-left: 20px; }
.howto li { margin: 2px 0; max-width: 95ch; }
.table-wrap { overflow-x: auto; background: #fff; border: 1px solid var(--grid); border-radius: 6px; }
table { border-collapse: collapse; }
table.results, table.variants { font-size: 12.5px; font-variant-numeric: tabular-nums; width: 100%; }
table.variants { font-size: 13px; width: auto; }
.table-wrap.fit { width: fit-content; max-width: 100%; }
table.results th, table.results td, table.variants th, table.variants td { padding: 4px 6px; border-bottom: 1px solid #ececec; white-space: nowrap; text-align: left; }
table.results thead th, table.variants thead th { background: #f0f0ee; font-weight: 600; vertical-align: bottom; white-space: normal; min-width: 4.5em; }
table.results .num, table.variants .num { text-align: right; }
table.verdict, table.attribution { font-size: 13px; font-variant-numeric: tabular-nums; width: 100%; }
table.verdict th, table.verdict td, table.attribution th, table.attribution td { padding: 4px 8px; border-bottom: 1px solid #ececec; text-align: left; white-space: nowrap; }
table.verdict thead th, table.attribution thead th { background: #f0f0ee; font-weight: 600; vertical-align: bottom; white-space: normal; }
table.verdict td.winner { font-weight: 700; text-align: center; }
table.verdict td.why { white-space: normal; min-width: 40ch; }
figure.chart.wide { margin-top: 14px; max-width: 900px; }
table.decision-map { font-size: 13px; border-collapse: collapse; margin: 0 0 12px; }
table.decision-map th, table.decision-map td { padding: 5px 10px; border: 1px solid #e2e2e2; text-align: center; white-space: nowrap; }
table.decision-map thead th { background: #f0f0ee; }
table.results tr.case-start > *, table.variants tr.case-start > * { border-top: 2px solid #c8c8c8; }
table.results td.failed { color: var(--failed); white-space: normal; min-width: 28ch; max-width: 60ch; overflow-wrap: anywhere; }
td.transport::before { content: ""; display: inline-block; width: 10px; height: 10px; border-radius: 2px;
  margin-right: 6px; background: #999; vertical-align: baseline; }
td.t-json::before { background: var(--json); }
td.t-grpc::before { background: var(--grpc); }
a.noisy { color: var(--failed); text-decoration: none; font-weight: 700; margin-right: 3px; }
span.noisy { color: var(--failed); font-weight: 700; }
.notes { font-size: 13px; color: var(--muted); margin-top: 6px; }
.notes ol { margin: 2px 0; padding-left: 22px; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 20px; align-items: center; font-size: 13px; margin: 8px 0 10px; }
.legend span { display: inline-flex; align-items: center; gap: 6px; }
.legend svg { flex: none; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 14px; }
figure.chart { margin: 0; background: #fff; border: 1px solid var(--grid); border-radius: 6px; padding: 4px; }
figure.chart svg { display: block; width: 100%; height: auto; }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 6px 0; }
dl.kv dt { font-weight: 600; color: #444; }
dl.kv dd { margin: 0; overflow-wrap: anywhere; }
dl.kv dl.kv { margin: 0; padding-left: 10px; border-left: 2px solid var(--grid); font-size: 0.95em; }
dl.kv ol { margin: 0; padding-left: 20px; }
.highlights { background: #fff; border: 1px solid var(--grid); border-radius: 6px; padding: 10px 14px; }
table.packages { font-size: 13px; margin: 10px 0; background: #fff; border: 1px solid var(--grid); }
table.packages th, table.packages td { padding: 2px 10px; border-bottom: 1px solid #ececec; text-align: left; }
.badge { display: inline-block; font-size: 12px; padding: 0 6px; border-radius: 8px; background: #e6efe6; color: #235223; }
.badge.warn { background: #fdecee; color: var(--failed); }
.none { color: var(--muted); }
details { margin: 8px 0; }
summary { cursor: pointer; font-weight: 600; }
pre { overflow: auto; background: #fff; border: 1px solid var(--grid); padding: 10px; font-size: 12px; max-height: 480px; }
footer { margin-top: 40px; color: var(--muted); font-size: 13px; }
@media print { body { background: #fff; } figure.chart { break-inside: avoid; } details { display: block; } }
`;
