import * as fs from 'node:fs';
import * as path from 'node:path';
import { findProfile, loadProfiles, ProfileError, usesDelayer, usesStage, validateProfile, validateProfiles } from '../../../src/network/stage/profile';
import { PROFILE_RECORDS } from '../../../src/network/stage/profiles';
import { STAGE_LIMITS } from '../../../src/network/stage/limits';

const good = { name: 'test', description: 'a test profile', topology: 'namespaces', oneWayDelayMs: 5, rateMbit: 100, loss: 0.01 };
const error = (record: unknown) => {
  try {
    validateProfile(record);
  } catch (e) {
    expect(e).toBeInstanceOf(ProfileError);
    return (e as Error).message;
  }
  throw new Error('accepted');
};

describe('network profiles', () => {
  it('ships loopback, veth, zone, region and wan, all valid', () => {
    const profiles = loadProfiles();
    expect(profiles.map((p) => p.name)).toEqual(['loopback', 'veth', 'zone', 'region', 'wan']);
    expect(profiles.find((p) => p.name === 'wan')).toMatchObject({ oneWayDelayMs: 40, rateMbit: 100, loss: 0.001 });
    expect(usesStage(findProfile('loopback'))).toBe(false);
    expect(usesStage(findProfile('veth'))).toBe(true);
    expect(usesDelayer(findProfile('veth'))).toBe(false);
    expect(usesDelayer(findProfile('zone'))).toBe(true);
  });

  it('accepts a new profile given as a record', () => {
    expect(validateProfile(good)).toEqual(good);
    expect(loadProfiles([...PROFILE_RECORDS, good]).map((p) => p.name)).toContain('test');
  });

  it('names the profile and the field of each mistake', () => {
    expect(error({ ...good, oneWayDelayMs: -1 })).toBe('network profile "test": oneWayDelayMs must be 0 to 1000 ms (got -1)');
    expect(error({ ...good, loss: 1 })).toMatch(/^network profile "test": loss must be a fraction, 0 ≤ loss < 1 \(got 1;/);
    expect(error({ ...good, loss: -0.1 })).toMatch(/"test": loss must be a fraction/);
    expect(error({ ...good, latency: 3 })).toMatch(/^network profile "test": "latency" is not a profile field/);
    expect(error({ ...good, loss: 0, rateMbit: 5000 })).toMatch(/^network profile "test": rateMbit must be null \(no limit\) or 0.1 to 1000 Mbit\/s with a delay /);
    expect(error({ ...good, rateMbit: 800 })).toMatch(/^network profile "test": rateMbit must be null \(no limit\) or 0.1 to 500 Mbit\/s with a delay and loss/);
    expect(error({ ...good, rateMbit: 0 })).toMatch(/"test": rateMbit must be/);
    expect(error({ ...good, rateMbit: '100' })).toBe('network profile "test": rateMbit must be a number (got "100")');
    expect(error({ ...good, jitterMs: 6 })).toBe('network profile "test": jitterMs must be 0 to oneWayDelayMs (5) (got 6)');
    expect(error({ ...good, topology: 'cloud' })).toMatch(/"test": topology must be "loopback" or "namespaces"/);
    expect(error({ ...good, description: '' })).toMatch(/"test": description must be a non-empty string/);
    expect(error({ ...good, name: 'Bad Name' })).toMatch(/^network profile "Bad Name": name must be lower-case/);
    expect(error({ ...good, topology: 'loopback' })).toMatch(/"test": topology "loopback" cannot delay, limit or drop/);
    expect(error('wan')).toBe('network profile record: expected an object');
  });

  it('refuses a bandwidth-delay product one flow cannot fill with the pinned TCP buffers', () => {
    const message = error({ ...good, oneWayDelayMs: 200, rateMbit: 1000, loss: 0 });
    expect(message).toMatch(/^network profile "test": rateMbit × RTT is 47.7 MiB in flight/);
    expect(message).toContain(`${STAGE_LIMITS.tcpBufferMaxBytes / 2 ** 20} MiB`);
  });

  it('accepts a rate above the delayer cap when nothing is delayed (no delayer in the path)', () => {
    expect(validateProfile({ ...good, oneWayDelayMs: 0, rateMbit: 5000, loss: 0 }).rateMbit).toBe(5000);
  });

  it('refuses a list that is not one, and a name used twice, naming the record', () => {
    expect(() => validateProfiles({})).toThrow('network profiles: expected a list of profile records');
    expect(() => validateProfiles([good, good])).toThrow('network profile "test": name used twice');
    expect(() => validateProfiles([good, 3])).toThrow('network profile #2: expected an object');
  });

  it('findProfile lists the profiles there are when a name is unknown', () => {
    expect(() => findProfile('moon')).toThrow('unknown network profile "moon" (profiles: loopback, veth, zone, region, wan)');
  });
});

describe('docs/network.md', () => {
  it('lists every profile with the figures of its record', () => {
    const doc = fs.readFileSync(path.resolve(__dirname, '../../../../../docs/network.md'), 'utf8');
    for (const p of loadProfiles()) {
      const row = doc.split('\n').find((line) => line.startsWith(`| ${p.name} |`));
      expect(row).toBeDefined();
      const cells = row!.split('|').map((cell) => cell.trim()).slice(1);
      expect([p.name, cells[1], cells[3], cells[4]]).toEqual([p.name, String(p.oneWayDelayMs), p.rateMbit === null ? '—' : String(p.rateMbit), String(p.loss)]);
    }
  });
});
