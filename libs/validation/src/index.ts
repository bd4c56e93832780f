export { parseIntField, parseEnumField, type FieldError, type FieldResult, type IntRange } from './int-field';
export { badRequest, orBadRequest } from './http-errors';
export { invalidArgument, orInvalidArgument } from './rpc-errors';
