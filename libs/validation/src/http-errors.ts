import { BadRequestException } from '@nestjs/common';
import type { FieldError, FieldResult } from './int-field';

/** HTTP 400 whose JSON body names the field and the rule it broke. */
export function badRequest(error: FieldError): BadRequestException {
  return new BadRequestException({ statusCode: 400, error: 'Bad Request', ...error });
}

/** The value, or an HTTP 400 thrown at the edge of a controller. */
export function orBadRequest<T>(result: FieldResult<T>): T {
  if (!result.ok) throw badRequest(result.error);
  return result.value;
}
