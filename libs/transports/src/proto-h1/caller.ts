import { PROTOBUF_MEDIA_TYPE } from '@bench/proto';
import type { Caller } from '../contract';
import { messageCaller, type MessageCall } from '../common/http-caller';

/** A message's protobuf codec, as libs/proto's echoCodec()/lookupCodec() give it (looked up once, outside the timed calls). */
export interface ProtobufCodec<Res> {
  requestSerialize(request: never): Buffer;
  responseDeserialize(bytes: Buffer): Res;
}

/** A suite's message as an application/x-protobuf body over HTTP/1.1 (node:http), each reply decoded with `codec` and checked. */
export function protobufCaller<Res>(call: MessageCall<Res>, codec: ProtobufCodec<Res>): Caller {
  return messageCaller(call, {
    contentType: PROTOBUF_MEDIA_TYPE,
    encode: (request) => codec.requestSerialize(request as never),
    decode: (body) => codec.responseDeserialize(body),
  });
}
