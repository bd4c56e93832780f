import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { Controller, Get, Query, Req, StreamableFile } from '@nestjs/common';
import { parseBulkRequest, tlsStateOf, type TlsState } from '@bench/config';
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

  /**
   * What this connection really is, from the server's own socket: TLS version, ALPN protocol, client
   * certificate (all null / none in cleartext). Express and Fastify hand the Node request, or wrap it in `raw`.
   */
  @Get('tls')
  tls(@Req() request: { raw?: { socket: Socket }; socket?: Socket }): TlsState {
    const socket = request.raw?.socket ?? request.socket;
    if (!socket || !('encrypted' in socket)) return { protocol: null, alpn: null, clientCertificate: 'none' };
    return tlsStateOf(socket as TLSSocket);
  }
}
