import type * as grpc from '@grpc/grpc-js';
import type { Caller } from '../contract';
import { connected, grpcClient, statusError, type GrpcService, type GrpcTarget } from './channel';

type Duplex = grpc.ClientDuplexStream<unknown, unknown>;

export interface StreamCaller extends Caller {
  /** Opens the stream (the first call does it otherwise). */
  open(): void;
}

/**
 * Calls as messages on one bidirectional stream: write one request, wait for its reply, write the
 * next (sequential, like the unary loop, so the two differ only in what a call costs). The stream is
 * opened by the first call and ended by close(), which waits for the server's status.
 */
export async function grpcBidiCaller<Res>(service: GrpcService, target: GrpcTarget, method: string, request: unknown, check: (reply: Res) => void): Promise<StreamCaller> {
  const client = grpcClient(service, target);
  await connected(client);
  let stream: Duplex | null = null;
  let waiting: { resolve: () => void; reject: (error: Error) => void } | null = null;
  let failure: Error | null = null;
  let ended: Promise<void> = Promise.resolve();

  const open = () => {
    const s = (client as unknown as Record<string, () => Duplex>)[method].call(client);
    stream = s;
    ended = new Promise<void>((resolve) => {
      s.on('status', () => resolve());
      s.on('error', () => resolve());
    });
    s.on('data', (reply: unknown) => {
      const w = waiting;
      waiting = null;
      if (!w) return void (failure = new Error('a reply arrived that no request was waiting for'));
      try {
        check(reply as Res);
        w.resolve();
      } catch (error) {
        w.reject(error as Error);
      }
    });
    s.on('error', (error: grpc.ServiceError) => {
      failure = statusError(error);
      waiting?.reject(failure);
      waiting = null;
    });
  };

  return {
    open,
    call: () =>
      new Promise<undefined>((resolve, reject) => {
        if (failure) return reject(failure);
        if (!stream) open();
        waiting = { resolve: () => resolve(undefined), reject };
        stream!.write(request);
      }),
    close: async () => {
      if (stream) {
        stream.end();
        await ended;
      }
      client.close();
    },
  };
}
