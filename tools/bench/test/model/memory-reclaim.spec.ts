import { describeMemoryReclaim } from '../../src/model/format';
import { readMemoryReclaim, type FileReader } from '../../src/model/memory-reclaim';

/** A sysfs tree as a map from path to content; anything else is unreadable. */
function sysfs(files: Record<string, string>): FileReader {
  return (file) => files[file] ?? null;
}

const ROOT = '/sys/kernel/mm/damon/admin/kdamonds';

// The layout this project's VM has: one kdamond, one context sampling every 0.5 s and aggregating
// every 5 s, one scheme paging out regions idle for at least 6 aggregations.
const FIRECRACKER_LIKE = {
  [`${ROOT}/nr_kdamonds`]: '1',
  [`${ROOT}/0/state`]: 'on',
  [`${ROOT}/0/contexts/nr_contexts`]: '1',
  [`${ROOT}/0/contexts/0/monitoring_attrs/intervals/aggr_us`]: '5000000',
  [`${ROOT}/0/contexts/0/schemes/nr_schemes`]: '1',
  [`${ROOT}/0/contexts/0/schemes/0/action`]: 'pageout',
  [`${ROOT}/0/contexts/0/schemes/0/access_pattern/age/min`]: '6',
};

describe('readMemoryReclaim', () => {
  it('reads each kdamond, its schemes and their minimum idle age in seconds', () => {
    expect(readMemoryReclaim(sysfs(FIRECRACKER_LIKE), ROOT)).toEqual([{ state: 'on', schemes: [{ action: 'pageout', minIdleS: 30 }] }]);
  });

  it('is null without DAMON, empty with no kdamond, and tolerates unreadable files', () => {
    expect(readMemoryReclaim(sysfs({}), ROOT)).toBeNull();
    expect(readMemoryReclaim(sysfs({ [`${ROOT}/nr_kdamonds`]: '0' }), ROOT)).toEqual([]);
    const partial = { ...FIRECRACKER_LIKE, [`${ROOT}/0/contexts/0/schemes/0/access_pattern/age/min`]: '0' };
    delete (partial as Record<string, string>)[`${ROOT}/0/state`];
    expect(readMemoryReclaim(sysfs(partial), ROOT)).toEqual([{ state: 'unknown', schemes: [{ action: 'pageout', minIdleS: null }] }]);
  });
});

describe('describeMemoryReclaim', () => {
  it('says what a running DAMON does, and says nothing for runs that did not record it', () => {
    expect(describeMemoryReclaim([{ state: 'on', schemes: [{ action: 'pageout', minIdleS: 30 }] }])).toBe('DAMON running: pageout of memory idle ≥ 30 s');
    expect(describeMemoryReclaim([{ state: 'off', schemes: [] }])).toBe('DAMON present, not running (no proactive memory reclaim)');
    expect(describeMemoryReclaim(null)).toBe('no DAMON interface (no proactive memory reclaim)');
    expect(describeMemoryReclaim(undefined)).toBeNull();
  });
});
