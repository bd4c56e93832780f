import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { parseBulkRequest } from '@bench/config';
import { orBadRequest } from '@bench/validation';

@Controller('path')
export class PathController {
  /**
   * `bytes` zero bytes (a memset, not a serializer): the client times the transfer to measure its
   * path's throughput (GET /bench/path).
   */
  @Get('bulk')
  bulk(@Query('bytes') bytes?: string): StreamableFile {
    const size = orBadRequest(parseBulkRequest({ bytes })).bytes;
    return new StreamableFile(Buffer.alloc(size), { type: 'application/octet-stream', length: size });
  }
}
