import type { TLSSocket } from 'node:tls';
import { RefusalLog, refusalReason } from '../src/tls-refusals';

const socket = (authorizationError: string | null) => ({ authorizationError }) as unknown as TLSSocket;
const error = (code: string) => Object.assign(new Error('…'), { code });

describe('refused TLS handshakes', () => {
  it('are named by what was wrong, with the code that says it', () => {
    expect(refusalReason(error('ECONNRESET'), socket('UNABLE_TO_VERIFY_LEAF_SIGNATURE'))).toBe('unknown CA (UNABLE_TO_VERIFY_LEAF_SIGNATURE)');
    expect(refusalReason(error('ECONNRESET'), socket('CERT_HAS_EXPIRED'))).toBe('expired certificate (CERT_HAS_EXPIRED)');
    expect(refusalReason(error('ECONNRESET'), socket('INVALID_PURPOSE'))).toMatch(/^no client EKU/);
    expect(refusalReason(error('ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE'), socket(null))).toBe('no certificate (ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE)');
    expect(refusalReason(error('ERR_SSL_UNSUPPORTED_PROTOCOL'), socket(null))).toBe('protocol error (ERR_SSL_UNSUPPORTED_PROTOCOL)');
    expect(refusalReason(error('ERR_TLS_HANDSHAKE_TIMEOUT'), socket(null))).toBe('handshake timeout (ERR_TLS_HANDSHAKE_TIMEOUT)');
  });

  it('are logged a few lines per window, and the window\'s end counts the rest by reason', async () => {
    const lines: string[] = [];
    let summary: (line: string) => void = () => undefined;
    const summarized = new Promise<string>((resolve) => (summary = resolve));
    const log = new RefusalLog('server-b', { lines: 2, windowMs: 50 }, (line) => (lines.length < 2 ? lines.push(line) : summary(line)));
    for (let i = 0; i < 4; i++) log.refused(`127.0.0.1:${40000 + i}`, 'unknown CA (UNABLE_TO_VERIFY_LEAF_SIGNATURE)');
    log.refused('127.0.0.1:40009', 'no certificate (ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE)');
    expect(lines).toEqual(['server-b: refused a TLS handshake from 127.0.0.1:40000: unknown CA (UNABLE_TO_VERIFY_LEAF_SIGNATURE)', 'server-b: refused a TLS handshake from 127.0.0.1:40001: unknown CA (UNABLE_TO_VERIFY_LEAF_SIGNATURE)']);
    expect(await summarized).toBe('server-b: 3 more refused TLS handshakes not logged in the last 0.05 s (at most 2 lines per 0.05 s): unknown CA ×2, no certificate ×1');
  });
});
