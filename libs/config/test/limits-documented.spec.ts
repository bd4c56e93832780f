import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CONNECTION_LIMITS } from '../src/connection-limits';
import { HTTP2_LIMITS } from '../src/http2-limits';
import { REPLY_LIMIT, REQUEST_LIMITS } from '../src/message-limits';
import { RUN_LIMITS } from '../src/run-limits';

// docs/reliability.md lists every limit with its value and why: each record here must have its row there.
const doc = readFileSync(path.resolve(__dirname, '../../../docs/reliability.md'), 'utf8');
const section = doc.slice(doc.indexOf('### Requests and connections'));

describe('request and connection limits', () => {
  it.each([...Object.keys(REQUEST_LIMITS).map((key) => `REQUEST_LIMITS.${key}`), ...Object.keys(CONNECTION_LIMITS).map((key) => `CONNECTION_LIMITS.${key}`), ...Object.keys(HTTP2_LIMITS).map((key) => `HTTP2_LIMITS.${key}`), 'REPLY_LIMIT'])(
    '%s has its row in docs/reliability.md, "Requests and connections"',
    (name) => expect(section).toContain(`\`${name}\``),
  );

  it.each(Object.keys(RUN_LIMITS).map((key) => `RUN_LIMITS.${key}`))('%s has its row in docs/reliability.md', (name) => expect(doc).toContain(`\`${name}\``));

  it('gives every limit a reason and a positive value', () => {
    for (const limit of Object.values(RUN_LIMITS)) expect([limit.count > 0, limit.why.length > 20]).toEqual([true, true]);
    for (const limit of [...Object.values(REQUEST_LIMITS), REPLY_LIMIT]) expect(limit.bytes).toBeGreaterThan(0);
    for (const limit of Object.values(CONNECTION_LIMITS)) expect(limit.ms).toBeGreaterThan(0);
    for (const limit of Object.values(HTTP2_LIMITS)) expect(limit.count).toBeGreaterThan(0);
    for (const limit of [...Object.values(REQUEST_LIMITS), REPLY_LIMIT, ...Object.values(CONNECTION_LIMITS), ...Object.values(HTTP2_LIMITS)]) expect(limit.why.length).toBeGreaterThan(20);
  });

  it('keeps the whole-request limit above the head limit (node:http refuses a head timeout above it)', () => {
    expect(CONNECTION_LIMITS.request.ms).toBeGreaterThan(CONNECTION_LIMITS.handshake.ms);
  });
});
