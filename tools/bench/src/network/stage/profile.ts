import { STAGE_LIMITS } from './limits';
import { PROFILE_RECORDS, type NetworkProfile } from './profiles';
import { rttMs } from '../../model';

export type { NetworkProfile };

/** A profile that failed validation: the message names the profile and the field. */
export class ProfileError extends Error {
  override name = 'ProfileError';
}

const FIELDS = ['name', 'description', 'topology', 'oneWayDelayMs', 'rateMbit', 'loss', 'jitterMs'] as const;

/** The profiles of profiles.ts (or the records given), validated. */
export function loadProfiles(records: readonly unknown[] = PROFILE_RECORDS): NetworkProfile[] {
  return validateProfiles(records);
}

/** The profile called `name`, or an error listing the ones there are. */
export function findProfile(name: string, profiles = loadProfiles()): NetworkProfile {
  const found = profiles.find((profile) => profile.name === name);
  if (!found) throw new ProfileError(`unknown network profile "${name}" (profiles: ${profiles.map((p) => p.name).join(', ')})`);
  return found;
}

/** Checks a parsed profiles file: a list of records, unique names, every field known and in range. */
export function validateProfiles(raw: unknown): NetworkProfile[] {
  if (!Array.isArray(raw)) throw new ProfileError('network profiles: expected a list of profile records');
  const seen = new Set<string>();
  return raw.map((record, index) => {
    const profile = validateProfile(record, `#${index + 1}`);
    if (seen.has(profile.name)) throw new ProfileError(`network profile "${profile.name}": name used twice`);
    seen.add(profile.name);
    return profile;
  });
}

/** Checks one record; `where` names it in errors until its own name is known. */
export function validateProfile(record: unknown, where = 'record'): NetworkProfile {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new ProfileError(`network profile ${where}: expected an object`);
  }
  const r = record as Record<string, unknown>;
  const label = typeof r.name === 'string' && r.name ? `"${r.name}"` : where;
  const fail = (field: string, why: string): never => {
    throw new ProfileError(`network profile ${label}: ${field} ${why}`);
  };
  for (const key of Object.keys(r)) {
    if (!(FIELDS as readonly string[]).includes(key)) fail(`"${key}"`, `is not a profile field (fields: ${FIELDS.join(', ')})`);
  }
  if (typeof r.name !== 'string' || !/^[a-z][a-z0-9-]{0,31}$/.test(r.name)) {
    fail('name', 'must be lower-case letters, digits and dashes, starting with a letter (at most 32)');
  }
  if (typeof r.description !== 'string' || !r.description.trim()) fail('description', 'must be a non-empty string');
  if (r.topology !== 'loopback' && r.topology !== 'namespaces') fail('topology', `must be "loopback" or "namespaces" (got ${show(r.topology)})`);
  const delay = number(r.oneWayDelayMs, 'oneWayDelayMs', fail);
  if (delay < 0 || delay > STAGE_LIMITS.maxOneWayDelayMs) fail('oneWayDelayMs', `must be 0 to ${STAGE_LIMITS.maxOneWayDelayMs} ms (got ${delay})`);
  const loss = number(r.loss, 'loss', fail);
  if (loss < 0 || loss >= 1) fail('loss', `must be a fraction, 0 ≤ loss < 1 (got ${loss}; 0.1 % is 0.001)`);
  if (r.jitterMs !== undefined) {
    const jitter = number(r.jitterMs, 'jitterMs', fail);
    if (jitter < 0 || jitter > delay) fail('jitterMs', `must be 0 to oneWayDelayMs (${delay}) (got ${jitter})`);
  }
  if (r.rateMbit !== null) {
    const rate = number(r.rateMbit, 'rateMbit', fail);
    const [max, because] =
      delay > 0 && loss > 0
        ? [STAGE_LIMITS.maxRateWithDelayAndLossMbit, ' with a delay and loss (offloads off: the delayer handles every packet and caps one flow above that)']
        : delay > 0
          ? [STAGE_LIMITS.maxRateWithDelayMbit, ' with a delay (the delayer shares the CPUs with the apps)']
          : [STAGE_LIMITS.maxRateMbit, ''];
    if (rate < STAGE_LIMITS.minRateMbit || rate > max) {
      fail('rateMbit', `must be null (no limit) or ${STAGE_LIMITS.minRateMbit} to ${max} Mbit/s${because} (got ${rate})`);
    }
    const bdp = (rate * 1e6 * (rttMs({ oneWayDelayMs: delay }) / 1000)) / 8;
    if (bdp > STAGE_LIMITS.tcpBufferMaxBytes / 4) {
      fail('rateMbit', `× RTT is ${(bdp / 2 ** 20).toFixed(1)} MiB in flight, more than one flow can keep with the stage's TCP buffers (${STAGE_LIMITS.tcpBufferMaxBytes / 2 ** 20} MiB max)`);
    }
  }
  if (r.topology === 'loopback' && (delay !== 0 || r.rateMbit !== null || loss !== 0 || (r.jitterMs ?? 0) !== 0)) {
    fail('topology', '"loopback" cannot delay, limit or drop: use "namespaces" for that');
  }
  return r as unknown as NetworkProfile;
}

function number(value: unknown, field: string, fail: (field: string, why: string) => never): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(field, `must be a number (got ${show(value)})`);
  return value as number;
}

function show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/** Whether the profile needs a stage (namespaces) at all. */
export function usesStage(profile: NetworkProfile): boolean {
  return profile.topology === 'namespaces';
}

/** Whether the delayer is in the path (any delay or jitter). */
export function usesDelayer(profile: NetworkProfile): boolean {
  return profile.oneWayDelayMs > 0 || (profile.jitterMs ?? 0) > 0;
}
