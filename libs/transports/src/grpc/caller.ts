import type * as grpc from '@grpc/grpc-js';
import type { Caller } from '../contract';
import { connected, grpcClient, statusError, type GrpcService, type GrpcTarget } from './channel';

type Unary = (request: unknown, options: grpc.CallOptions, callback: (error: grpc.ServiceError | null, reply?: unknown) => void) => void;

/**
 * The same unary request on one channel, again and again; every reply is checked. The channel is
 * connected before the first call unless `cold`, when the first call pays for connecting.
 */
export async function grpcUnaryCaller<Res>(
  service: GrpcService,
  target: GrpcTarget,
  method: string,
  request: unknown,
  check: (reply: Res) => void,
  timeoutMs: number,
  cold = false,
): Promise<Caller> {
  const client = grpcClient(service, target);
  if (!cold) await connected(client);
  const unary = (client as unknown as Record<string, Unary>)[method].bind(client);
  return {
    call: () =>
      new Promise<undefined>((resolve, reject) =>
        unary(request, { deadline: Date.now() + timeoutMs }, (error, reply) => {
          if (error) return reject(statusError(error));
          try {
            check(reply as Res);
            resolve(undefined);
          } catch (failure) {
            reject(failure as Error);
          }
        }),
      ),
    close: async () => client.close(),
  };
}
