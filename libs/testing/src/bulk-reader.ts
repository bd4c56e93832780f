import * as grpc from '@grpc/grpc-js';
import { samplePackageDefinition, type BulkRequest } from '@bench/proto';

export interface BulkRead {
  /** Bytes of each chunk, in order. */
  chunks: number[];
  /** Bytes that were not zero (the servers send zeros). */
  nonZero: number;
  error: grpc.ServiceError | null;
}

/** Calls bench.path.PathProbe/Bulk on `address` (host:port) and collects what arrives: what the client's path probe sees. */
export function readBulk(address: string, request: BulkRequest): Promise<BulkRead> {
  const loaded = grpc.loadPackageDefinition(samplePackageDefinition()) as unknown as { bench: { path: { PathProbe: typeof grpc.Client } } };
  const client = new loaded.bench.path.PathProbe(address, grpc.credentials.createInsecure()) as grpc.Client & {
    Bulk(request: BulkRequest): grpc.ClientReadableStream<{ data: Buffer }>;
  };
  return new Promise<BulkRead>((resolve) => {
    const chunks: number[] = [];
    let nonZero = 0;
    const call = client.Bulk(request);
    call.on('data', (chunk: { data: Buffer }) => {
      chunks.push(chunk.data.length);
      for (const b of chunk.data) if (b !== 0) nonZero++;
    });
    call.on('error', (error: grpc.ServiceError) => resolve({ chunks, nonZero, error }));
    call.on('end', () => resolve({ chunks, nonZero, error: null }));
  }).finally(() => client.close());
}
