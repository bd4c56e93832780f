import { Controller } from '@nestjs/common';
import type { Metadata, ServerWritableStream } from '@grpc/grpc-js';
import { GrpcMethod } from '@nestjs/microservices';
import type { Observable } from 'rxjs';
import { parseBulkRequest } from '@bench/config';
import { PATH_SERVICE, type BulkChunk, type BulkRequest__Output } from '@bench/proto';
import { orInvalidArgument } from '@bench/validation';
import { pacedChunks } from './paced-chunks';

@Controller()
export class PathController {
  /**
   * `bytes` zero bytes as a stream of chunks (one zeroed buffer, never a serializer's work): the client
   * times the transfer to measure its path's throughput (GET /bench/path), as with server-a's /path/bulk.
   */
  @GrpcMethod(PATH_SERVICE, 'Bulk')
  bulk(request: BulkRequest__Output, _metadata: Metadata, call: ServerWritableStream<unknown, BulkChunk>): Observable<BulkChunk> {
    const { bytes, chunkBytes } = orInvalidArgument(parseBulkRequest(request));
    const zeros = Buffer.alloc(Math.min(chunkBytes, bytes));
    return pacedChunks(bytes, chunkBytes, call, (start, end): BulkChunk => ({ data: zeros.subarray(0, end - start) }));
  }
}
