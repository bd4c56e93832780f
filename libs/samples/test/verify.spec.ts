import { buildRows } from '../src/row';
import { verifyReply } from '../src/verify';

describe('verifyReply', () => {
  it('accepts the rows the servers build', () => {
    expect(verifyReply({ samples: buildRows(5) }, 5)).toEqual({ ok: true });
  });

  it('rejects a reply without samples', () => {
    expect(verifyReply({}, 1)).toEqual({ ok: false, reason: 'reply has no samples array' });
    expect(verifyReply(null, 1).ok).toBe(false);
  });

  it('rejects a wrong row count', () => {
    expect(verifyReply({ samples: buildRows(4) }, 5)).toEqual({ ok: false, reason: 'expected 5 rows, got 4' });
  });

  it('rejects a changed first or last row', () => {
    const first = buildRows(3);
    first[0] = { ...first[0], columnC: 'x' };
    expect(verifyReply({ samples: first }, 3)).toMatchObject({ ok: false, reason: expect.stringContaining('row 0') });

    const last = buildRows(3);
    last[2] = { ...last[2], rowNum: 9 };
    expect(verifyReply({ samples: last }, 3)).toMatchObject({ ok: false, reason: expect.stringContaining('row 2') });
  });
});
