import type { MethodDefinition } from '@grpc/proto-loader';
import { ECHO_PACKAGE, ECHO_SERVICE, LOOKUP_PACKAGE, LOOKUP_SERVICE } from './names';
import { samplePackageDefinition } from './package-definition';
import type { EchoReply, EchoReply__Output, EchoRequest, EchoRequest__Output, UserReply, UserReply__Output, UserRequest, UserRequest__Output } from './types';

/** The media type of a Protocol Buffers body over HTTP/1.1 (experiments §2 and §4). */
export const PROTOBUF_MEDIA_TYPE = 'application/x-protobuf';

/**
 * The serializers of one RPC, for the REST routes that carry the same messages in an HTTP body: the
 * exact functions (proto-loader, our one set of loader options) the gRPC transport uses, so REST with
 * a protobuf body and gRPC differ in transport only. A request that cannot be decoded comes back
 * marked (see malformedReason), as over gRPC.
 */
function methodCodec<Req, Res, ReqOut, ResOut>(pkg: string, service: string, method: string): MethodDefinition<Req, Res, ReqOut, ResOut> {
  const definition = samplePackageDefinition()[`${pkg}.${service}`] as unknown as Record<string, MethodDefinition<Req, Res, ReqOut, ResOut>>;
  return definition[method];
}

export type EchoUnaryMethod = MethodDefinition<EchoRequest, EchoReply, EchoRequest__Output, EchoReply__Output>;
export type GetUserMethod = MethodDefinition<UserRequest, UserReply, UserRequest__Output, UserReply__Output>;

/** echo.DataManager/UnaryTest's serializers. */
export function echoCodec(): EchoUnaryMethod {
  return methodCodec(ECHO_PACKAGE, ECHO_SERVICE, 'UnaryTest');
}

/** lookup.UserLookup/GetUser's serializers. */
export function lookupCodec(): GetUserMethod {
  return methodCodec(LOOKUP_PACKAGE, LOOKUP_SERVICE, 'GetUser');
}
