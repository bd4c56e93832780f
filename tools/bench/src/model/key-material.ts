// What a run folder must never hold: a private key or a certificate's bytes. The apps' own settings
// serialize neither (libs/config SecuritySettings), but a client the bench did not start (--client-url,
// an older build) answers GET /bench/info with whatever it has; what the bench stores of it goes
// through here first.

const PEM_BLOCK = '-----BEGIN';
const REMOVED_PEM = '(removed: a PEM block)';
const REMOVED_BYTES = '(removed: bytes)';

/** `value` with every PEM block, every serialized Buffer and every `key` of a security record replaced by a note. */
export function withoutKeyMaterial<T>(value: T): T {
  return strip(value, false) as T;
}

function strip(value: unknown, inSecurity: boolean): unknown {
  if (typeof value === 'string') return value.includes(PEM_BLOCK) ? REMOVED_PEM : value;
  if (Array.isArray(value)) return value.map((item) => strip(item, false));
  if (value === null || typeof value !== 'object') return value;
  if (isSerializedBuffer(value)) return REMOVED_BYTES;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    if (inSecurity && name === 'key' && item !== null) out[name] = REMOVED_BYTES;
    else out[name] = strip(item, name === 'security');
  }
  return out;
}

/** A Buffer as JSON.stringify writes it: { type: 'Buffer', data: [bytes] }. */
function isSerializedBuffer(value: object): boolean {
  const record = value as { type?: unknown; data?: unknown };
  return record.type === 'Buffer' && Array.isArray(record.data);
}
