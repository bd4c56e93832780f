import type { Settings } from '@bench/config';
import { parseIntField } from '@bench/validation';

/** A call's row count as every server checks it, whatever its transport: a whole number from 1 to the settings' maxRows. */
export function rowCountOf(raw: unknown, settings: Pick<Settings, 'maxRows'>): ReturnType<typeof parseIntField> {
  return parseIntField('count', raw, { min: 1, max: settings.maxRows });
}
