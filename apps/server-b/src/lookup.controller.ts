import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { LOOKUP_SERVICE, malformedReason, type UserReply, type UserRequest__Output } from '@bench/proto';
import { invalidArgument, orInvalidArgument, parseIntField } from '@bench/validation';
import { USER_ID_RANGE } from '@bench/samples';

@Controller()
export class LookupController {
  /** Experiment §2's trivial call: return the id asked for, so only the transport is measured. */
  @GrpcMethod(LOOKUP_SERVICE, 'GetUser')
  getUser(request: UserRequest__Output): UserReply {
    const malformed = malformedReason(request);
    if (malformed) {
      throw invalidArgument({ field: 'request', rule: 'type', message: `request is not a valid UserRequest: ${malformed}` });
    }
    return { id: orInvalidArgument(parseIntField('id', request.id, USER_ID_RANGE)) };
  }
}
