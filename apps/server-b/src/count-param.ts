import { malformedReason } from '@bench/proto';
import { invalidArgument, orInvalidArgument, parseIntField } from '@bench/validation';

/** Every request of the blog's RPC and of the payload endpoints: how many rows or items to send. */
export interface CountParam {
  count: number;
}

/** The validated count, or INVALID_ARGUMENT naming what is wrong (undecodable bytes included). */
export function requestedCount(param: CountParam, message: string, maxRows: number): number {
  const malformed = malformedReason(param);
  if (malformed) {
    throw invalidArgument({ field: 'request', rule: 'type', message: `request is not a valid ${message} message: ${malformed}` });
  }
  return orInvalidArgument(parseIntField('count', param.count, { min: 1, max: maxRows }));
}
