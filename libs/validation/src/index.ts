export { parseIntField, parseEnumField, type FieldError, type FieldResult, type IntRange } from './int-field';
export { parseStringField } from './string-field';
export { badRequest, orBadRequest } from './http-errors';
export { invalidArgument, orInvalidArgument } from './rpc-errors';
