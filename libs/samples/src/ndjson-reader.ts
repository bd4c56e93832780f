const NEWLINE = 0x0a;

/** What one NDJSON reply held: its values in order, its size and the time spent parsing it. */
export interface NdjsonRead {
  values: unknown[];
  bytes: number;
  parseMs: number;
}

/**
 * Parses an NDJSON body as it arrives, in encodeNdjson's form (every line a JSON array of values, whose
 * values are appended in order): every complete line of a network chunk is parsed at once, and a line
 * cut by the chunk's end waits for the next. Lines are cut at
 * newline bytes, which never occur inside a UTF-8 sequence, so no character is cut. A malformed or
 * empty line, or a body that ends inside a line (a truncated stream), throws.
 */
export class NdjsonReader {
  private pending: Buffer[] = [];
  private readonly values: unknown[] = [];
  private bytes = 0;
  private lines = 0;
  private parseMs = 0;

  push(bytes: Uint8Array): void {
    // A web stream (fetch) yields Uint8Arrays: viewed as a Buffer (no copy) for its utf8 decoding.
    const chunk = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.bytes += chunk.length;
    let newline = chunk.indexOf(NEWLINE);
    if (newline < 0) return void this.pending.push(chunk);
    const started = performance.now();
    let start = 0;
    if (this.pending.length > 0) {
      const line = Buffer.concat([...this.pending, chunk.subarray(0, newline)]);
      this.pending = [];
      this.parseLine(line, 0, line.length);
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    for (; newline >= 0; newline = chunk.indexOf(NEWLINE, start)) {
      this.parseLine(chunk, start, newline);
      start = newline + 1;
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
    this.parseMs += performance.now() - started;
  }

  /** Everything read, once the body has ended. */
  end(): NdjsonRead {
    if (this.pending.length > 0) throw new Error('malformed NDJSON reply: the body ended inside a line (truncated stream?)');
    return { values: this.values, bytes: this.bytes, parseMs: this.parseMs };
  }

  private parseLine(buffer: Buffer, start: number, end: number): void {
    const line = this.lines++;
    try {
      const chunk: unknown = JSON.parse(buffer.toString('utf8', start, end));
      if (!Array.isArray(chunk)) throw new Error('expected a JSON array (one chunk of values per line)');
      for (const value of chunk) this.values.push(value);
    } catch (error) {
      throw new Error(`malformed NDJSON reply: line ${line + 1}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Reads a whole NDJSON body (any async iterable of byte chunks: an undici body, a node:http or node:http2 response, a fetch body). */
export async function readNdjson(body: AsyncIterable<Uint8Array>): Promise<NdjsonRead> {
  const reader = new NdjsonReader();
  for await (const chunk of body) reader.push(chunk);
  return reader.end();
}
