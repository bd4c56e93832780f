import { Controller } from '@nestjs/common';
import { GrpcMethod, GrpcStreamMethod } from '@nestjs/microservices';
import { ECHO_SERVICE, malformedReason, type EchoReply, type EchoRequest__Output } from '@bench/proto';
import { ECHO_MAX_CONTENT } from '@bench/samples';
import { invalidArgument, orInvalidArgument, parseStringField } from '@bench/validation';
import { map, type Observable } from 'rxjs';

@Controller()
export class EchoController {
  /** Experiment §4's unary echo: the request's content, unchanged. */
  @GrpcMethod(ECHO_SERVICE, 'UnaryTest')
  unaryTest(request: EchoRequest__Output): EchoReply {
    return { content: content(request) };
  }

  /** The same echo over one bidirectional stream: one reply per request, in order, until the client ends. */
  @GrpcStreamMethod(ECHO_SERVICE, 'BiStreamTest')
  biStreamTest(requests: Observable<EchoRequest__Output>): Observable<EchoReply> {
    // A bad message ends the stream with INVALID_ARGUMENT; the replies before it were already sent.
    return requests.pipe(map((request) => ({ content: content(request) })));
  }
}

function content(request: EchoRequest__Output): string {
  const malformed = malformedReason(request);
  if (malformed) {
    throw invalidArgument({ field: 'request', rule: 'type', message: `request is not a valid RequestMessage: ${malformed}` });
  }
  return orInvalidArgument(parseStringField('content', request.content, { maxLength: ECHO_MAX_CONTENT }));
}
