import { buildEchoContent, ECHO_MAX_CONTENT } from '../src/echo';

describe('buildEchoContent', () => {
  it.each([0, 1, 100, 1_000, 100_000])('gives %d bytes of printable ASCII', (bytes) => {
    const text = buildEchoContent(bytes);
    expect(Buffer.byteLength(text, 'utf8')).toBe(bytes);
    expect(JSON.stringify(text)).toHaveLength(bytes + 2);
    expect(text).toMatch(/^[A-Za-z0-9]*$/);
  });

  it('is the same on every call', () => {
    expect(buildEchoContent(500)).toBe(buildEchoContent(500));
  });

  it.each([-1, 1.5, ECHO_MAX_CONTENT + 1])('refuses %p', (bytes) => {
    expect(() => buildEchoContent(bytes)).toThrow(RangeError);
  });
});
