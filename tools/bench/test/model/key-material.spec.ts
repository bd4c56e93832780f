import { withoutKeyMaterial } from '../../src/model/key-material';

// What a client from before the settings stopped carrying the key answered GET /bench/info with.
const PEM = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n';
const OLD_INFO = {
  node: 'v24.0.0',
  settings: {
    variant: 'blog',
    security: { mode: 'mtls', ca: { type: 'Buffer', data: [45, 45] }, cert: { type: 'Buffer', data: [45, 45] }, key: { type: 'Buffer', data: [45, 45, 45] } },
  },
  note: PEM,
  list: [PEM, 'kept'],
};

describe('withoutKeyMaterial', () => {
  it('drops serialized Buffers, PEM blocks and a security record\'s key, and keeps everything else', () => {
    const stored = withoutKeyMaterial(OLD_INFO);
    const text = JSON.stringify(stored);
    expect(text).not.toContain('-----BEGIN');
    expect(text).not.toContain('"type":"Buffer"');
    expect(stored).toEqual({
      node: 'v24.0.0',
      settings: { variant: 'blog', security: { mode: 'mtls', ca: '(removed: bytes)', cert: '(removed: bytes)', key: '(removed: bytes)' } },
      note: '(removed: a PEM block)',
      list: ['(removed: a PEM block)', 'kept'],
    });
  });

  it('leaves a client that describes its certificates as it is', () => {
    const described = { settings: { security: { mode: 'mtls', ca: { subject: 'CN=ca', fingerprint256: 'AB:CD' }, cert: null } } };
    expect(withoutKeyMaterial(described)).toEqual(described);
    // A key field the client set to a string of its own is still no place for a key.
    expect(withoutKeyMaterial({ security: { key: 'abc' } })).toEqual({ security: { key: '(removed: bytes)' } });
  });
});
