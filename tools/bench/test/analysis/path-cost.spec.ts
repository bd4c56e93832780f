import { renderCsv } from '../../src/export/csv';
import { renderReport } from '../../src/export/html/report';
import { renderMarkdown } from '../../src/export/markdown';
import { pathCostRows, pathCostTotal, TOTAL_LABEL } from '../../src/analysis/path-cost';
import type { RunDocument } from '../../src/model/model';
import { handMadeCell } from '../hand-made-cell';

// The network stage's delayer, per cell, beside the apps' CPU of the same calls.
const region = handMadeCell({
  network: 'region',
  case: '②-3',
  rows: 1,
  requests: 1000,
  client: { cpuUserMs: 50, cpuSystemMs: 10, peakRssBytes: 1 },
  server: { cpuUserMs: 25, cpuSystemMs: 5, peakRssBytes: 1 },
  delayer: { cpuMs: 10, packets: 4000 },
});
const doc = (results: RunDocument['results']): RunDocument => ({ schemaVersion: 2, incomplete: false, provenance: {}, settings: { startedAt: 'now', preset: 'test' }, results });

describe("the network stage's own CPU per cell", () => {
  it('is the delayer against delayer + client + server over the same calls, per packet too', () => {
    expect(pathCostRows([region, handMadeCell()])).toEqual([
      { network: 'region', variant: 'blog', case: '②-3', transport: 'json', delayerCpuMs: 10, packets: 4000, perPacketUs: 2.5, receiveCpuMs: null, appsCpuMs: 90, share: 0.1 },
    ]);
    // Unknown apps' CPU: no share rather than a made-up one; a failed cell: no row.
    expect(pathCostRows([{ ...region, client: null }])[0].share).toBeNull();
    expect(pathCostRows([{ ...region, ok: false }])).toEqual([]);
  });

  it("adds every cell up into the run's row: the delayer's share of the run's CPU", () => {
    const grpc = { ...region, transport: 'grpc' as const, delayer: { cpuMs: 2, packets: 100, receiveCpuMs: 1 }, client: { cpuUserMs: 40, cpuSystemMs: 0, peakRssBytes: 1 }, server: { cpuUserMs: 30, cpuSystemMs: 0, peakRssBytes: 1 } };
    const json = { ...region, delayer: { cpuMs: 10, packets: 4000, receiveCpuMs: 7 } };
    // delayer 12 of 12 + 8 (receive) + 90 + 70 (apps) = 180 ms: 6.7 %.
    expect(pathCostTotal(pathCostRows([json, grpc]))).toMatchObject({ network: TOTAL_LABEL, delayerCpuMs: 12, packets: 4100, receiveCpuMs: 8, appsCpuMs: 160, share: 12 / 180 });
    expect(pathCostTotal(pathCostRows([{ ...json, client: null }, grpc]))!.share).toBeNull();
    expect(pathCostTotal([])).toBeNull();
    expect(renderMarkdown(doc([json, grpc]))).toMatch(/\| the whole run \| {2}\| {2}\| {2}\| 12\.0 \| 4,100 \| 2\.9 \| 8\.000 \| 160\.0 \| 6\.7 % \|/);
    expect(renderReport(doc([json, grpc]))).toContain('data-total="run"');
  });

  it("counts the servers' receive thread in the run's CPU and shows it apart, when the stage had one", () => {
    const threaded = { ...region, delayer: { cpuMs: 10, packets: 4000, receiveCpuMs: 25 } };
    expect(pathCostRows([threaded])[0]).toMatchObject({ delayerCpuMs: 10, receiveCpuMs: 25, appsCpuMs: 90, share: 0.08 });
    expect(renderMarkdown(doc([threaded]))).toMatch(/\| region \| blog \| ②-3 \| json \| 10\.0 \| 4,000 \| 2\.5 \| 25\.0 \| 90\.0 \| 8\.0 % \|/);
    const [header, ...rows] = renderCsv([threaded]).trim().split('\n');
    const summary = rows.map((row) => row.split(',')).find((cells) => cells[0] === 'summary')!;
    expect(summary[header.split(',').indexOf('receive_cpu_ms')]).toBe('25');
  });

  it('is shown in results.md, report.html and the CSV when a cell crossed a delayer, and nowhere on loopback', () => {
    const md = renderMarkdown(doc([region]));
    expect(md).toContain("## The network stage's own CPU");
    expect(md).toMatch(/\| region \| blog \| ②-3 \| json \| 10\.0 \| 4,000 \| 2\.5 \| – \| 90\.0 \| 10\.0 % \|/);
    const html = renderReport(doc([region]));
    expect(html).toContain('data-table="path-cost"');
    expect(html).toContain('10.0 %');
    const [header, ...rows] = renderCsv([region]).trim().split('\n');
    const columns = header.split(',');
    const summary = rows.map((row) => row.split(',')).find((cells) => cells[0] === 'summary')!;
    expect(summary[columns.indexOf('delayer_cpu_ms')]).toBe('10');
    expect(summary[columns.indexOf('delayer_packets')]).toBe('4000');

    const loopback = doc([handMadeCell()]);
    expect(renderMarkdown(loopback)).not.toContain("network stage's own CPU");
    expect(renderReport(loopback)).not.toContain('path-cost');
  });
});
