import { grpcCodecFor, type Settings } from '@bench/config';
import { getSamplesCodec } from '@bench/proto';

/** server-a's protobuf twin of the blog's route (apps/server-a samples.controller.ts). */
const PROTO_ROUTE = '/server-a/protobuf/';

/** What a proto-h1 client is made of beyond the HTTP/1.1 client every server-a transport shares. */
export interface ProtoH1Options {
  routePrefix: string;
  /** The GetSamples deserializer the gRPC client uses (the fast codec with fast-protobuf-codec). */
  decode: (bytes: Buffer) => unknown;
}

export function protoH1Options(settings: Settings): ProtoH1Options {
  // The deserializer also tells libs/proto's codec observer (the gRPC transport's meter, which every gRPC case resets first).
  const codec = getSamplesCodec(grpcCodecFor(settings.variant));
  return { routePrefix: PROTO_ROUTE, decode: (bytes) => codec.responseDeserialize(bytes) };
}
