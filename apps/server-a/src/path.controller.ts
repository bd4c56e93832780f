import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { BULK_MAX_BYTES } from '@bench/config';
import { orBadRequest, parseIntField } from '@bench/validation';

@Controller('path')
export class PathController {
  /**
   * `bytes` zero bytes (a memset, not a serializer): the client times the transfer to measure its
   * path's throughput (GET /bench/path).
   */
  @Get('bulk')
  bulk(@Query('bytes') bytes?: string): StreamableFile {
    const size = orBadRequest(parseIntField('bytes', bytes, { min: 1, max: BULK_MAX_BYTES }));
    return new StreamableFile(Buffer.alloc(size), { type: 'application/octet-stream', length: size });
  }
}
