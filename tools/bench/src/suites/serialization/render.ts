import { count, presetOf } from '../../model';
import { renderLogChart } from '../../export';
import type { SuiteDocument } from '../common/document';
import { renderSuitePage } from '../common/page';
import { htmlTable, markdownTable, type Table } from '../common/tables';
import type { SerializationCell, SerializationSettings } from './measure';

function find(cells: readonly SerializationCell[], size: string, codec: string, direction: string): SerializationCell | undefined {
  return cells.find((c) => c.size === size && c.codec === codec && c.direction === direction);
}

function ns(value: number | undefined): string {
  if (value === undefined) return '—';
  return value < 10_000 ? value.toFixed(0) : Math.round(value).toLocaleString('en-US');
}

function times(value: number | undefined, reference: number | undefined): string {
  return value === undefined || reference === undefined ? '—' : `${(value / reference).toFixed(2)}×`;
}

/** The published reference (experiments.md §3a, Android/Java): what the authors found, for comparison. */
export const PUBLISHED = [
  'protobuf serialization ~3× faster than JSON (org.json)',
  'JSON deserialization ~1.5× faster for small messages (< 1 KB), protobuf 2× faster for large (> 15 KB)',
  'against gzipped JSON: protobuf serialization ~5× faster at all sizes, deserialization ~3× faster for large messages',
];

/** One row per message and codec: bytes and ns/op per direction, each against JSON. */
export function serializationTable(cells: readonly SerializationCell[]): Table {
  const sizes = [...new Set(cells.map((c) => c.size))];
  const codecs = [...new Set(cells.map((c) => c.codec))];
  const rows: string[][] = [];
  for (const size of sizes) {
    const jsonEncode = find(cells, size, 'json', 'encode');
    const jsonDecode = find(cells, size, 'json', 'decode');
    for (const codec of codecs) {
      const encode = find(cells, size, codec, 'encode');
      const decode = find(cells, size, codec, 'decode');
      if (!encode || !decode) continue;
      rows.push([
        size,
        codec,
        encode.bytes.toLocaleString('en-US'),
        times(encode.bytes, jsonEncode?.bytes),
        ns(encode.nsPerOp),
        times(encode.nsPerOp, jsonEncode?.nsPerOp),
        ns(decode.nsPerOp),
        times(decode.nsPerOp, jsonDecode?.nsPerOp),
      ]);
    }
  }
  return {
    header: ['message', 'codec', 'bytes', 'size ÷ JSON', 'encode ns/op', 'encode ÷ JSON', 'decode ns/op', 'decode ÷ JSON'],
    numeric: [false, false, true, true, true, true, true, true],
    rows,
  };
}

/** The table, then the published reference. */
export function renderSerialization(cells: readonly SerializationCell[], header: string): string {
  const lines = [header, '', markdownTable(serializationTable(cells))];
  lines.push('', 'Ratios below 1× mean smaller or faster than JSON. The published reference (Android, Java, 2016):', '');
  for (const p of PUBLISHED) lines.push(`- ${p}`);
  lines.push('');
  return lines.join('\n');
}

export type SerializationDocument = SuiteDocument<SerializationSettings, SerializationCell[]>;

export function renderSerializationMarkdown(doc: SerializationDocument): string {
  const s = doc.settings;
  const header = `# bench:serialization (experiment §3a): ${s.startedAt} (preset ${presetOf(s)})\n\nIterations doubled until one sample took ≥ ${s.minSampleMs} ms, scaled to ~${s.targetSampleMs} ms, after a warm-up (calibrated twice, the second time on warm code); ${s.samples} samples per cell, median reported. In-process, one core.`;
  return renderSerialization(doc.results, header);
}

export function renderSerializationHtml(doc: SerializationDocument): string {
  const cells = doc.results;
  const codecs = [...new Set(cells.map((c) => c.codec))];
  // Every codec's point for a message sits at that message's JSON size, so the lines share an x.
  const jsonBytes = new Map(cells.filter((c) => c.codec === 'json' && c.direction === 'encode').map((c) => [c.size, c.bytes]));
  const chart = (kind: string, caseId: string, unit: string, direction: 'encode' | 'decode', pick: (c: SerializationCell) => number) =>
    renderLogChart({
      kind,
      caseId,
      subheading: 'against message size (log–log)',
      label: `${caseId} per codec against the message's JSON size`,
      xLabel: 'message size (JSON bytes)',
      unit,
      series: codecs.map((id) => ({
        id,
        points: cells.filter((c) => c.codec === id && c.direction === direction && jsonBytes.has(c.size)).map((c) => [jsonBytes.get(c.size)!, pick(c)] as const),
      })),
      formatY: (v) => count(Math.round(v)),
    });
  return renderSuitePage(doc, {
    title: 'bench:serialization — protobuf vs JSON vs gzipped JSON (experiment §3a)',
    summary: 'Encode and decode of the blog’s messages, from the few-byte request to 1,000 rows (~135 KB of JSON), in process with calibrated iterations; no network.',
    published: PUBLISHED,
    sections: [
      {
        id: 'time-and-size',
        heading: 'Time and size against message size',
        intro: 'Nanoseconds per encode and per decode (median of the samples), and the encoded size, for each codec; both axes logarithmic. Each message is placed at its JSON size.',
        legend: { ids: codecs, marks: 'lines' },
        charts: [
          chart('serialization-encode', 'encode', 'ns/op', 'encode', (c) => c.nsPerOp),
          chart('serialization-decode', 'decode', 'ns/op', 'decode', (c) => c.nsPerOp),
          chart('serialization-size', 'encoded size', 'bytes', 'encode', (c) => c.bytes),
        ],
        table: htmlTable(serializationTable(cells)),
      },
    ],
  });
}
