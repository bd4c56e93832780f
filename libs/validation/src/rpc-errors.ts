import { status } from '@grpc/grpc-js';
import { RpcException } from '@nestjs/microservices';
import type { FieldError, FieldResult } from './int-field';

/** gRPC INVALID_ARGUMENT with a message naming the field and the rule it broke. */
export function invalidArgument(error: FieldError): RpcException {
  return new RpcException({ code: status.INVALID_ARGUMENT, message: `${error.message} [${error.field}: ${error.rule}]` });
}

/** The value, or a gRPC INVALID_ARGUMENT thrown at the edge of a handler. */
export function orInvalidArgument<T>(result: FieldResult<T>): T {
  if (!result.ok) throw invalidArgument(result.error);
  return result.value;
}
