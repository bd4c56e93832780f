import type { SerializationCell } from './measure';

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

/** One table per size: bytes and ns/op per codec and direction, each against JSON. */
export function renderSerialization(cells: readonly SerializationCell[], header: string): string {
  const sizes = [...new Set(cells.map((c) => c.size))];
  const codecs = [...new Set(cells.map((c) => c.codec))];
  const lines = [header, ''];
  lines.push('| message | codec | bytes | size ÷ JSON | encode ns/op | encode ÷ JSON | decode ns/op | decode ÷ JSON |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|');
  for (const size of sizes) {
    const jsonEncode = find(cells, size, 'json', 'encode');
    const jsonDecode = find(cells, size, 'json', 'decode');
    for (const codec of codecs) {
      const encode = find(cells, size, codec, 'encode');
      const decode = find(cells, size, codec, 'decode');
      if (!encode || !decode) continue;
      lines.push(
        `| ${size} | ${codec} | ${encode.bytes.toLocaleString('en-US')} | ${times(encode.bytes, jsonEncode?.bytes)} | ` +
          `${ns(encode.nsPerOp)} | ${times(encode.nsPerOp, jsonEncode?.nsPerOp)} | ${ns(decode.nsPerOp)} | ${times(decode.nsPerOp, jsonDecode?.nsPerOp)} |`,
      );
    }
  }
  lines.push('', 'Ratios below 1× mean smaller or faster than JSON. The published reference (Android, Java, 2016):', '');
  for (const p of PUBLISHED) lines.push(`- ${p}`);
  lines.push('');
  return lines.join('\n');
}
