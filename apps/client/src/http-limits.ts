import type { NestExpressApplication } from '@nestjs/platform-express';
import { limitHttp1Connections, REQUEST_LIMITS, type Settings } from '@bench/config';

/**
 * The client's own listener: JSON bodies (POST /bench/run) up to REQUEST_LIMITS.control, uncompressed
 * only (inflate false: a gzip body is 415, never inflated; no caller of ours compresses a request), no
 * other body parser (Nest's default urlencoded one reads bodies no route uses), and the listeners'
 * head and request timeouts. The app must be created with `bodyParser: false`; call before listen.
 */
export function limitClientRequests(app: NestExpressApplication, settings: Pick<Settings, 'handshakeTimeoutMs'>): void {
  app.useBodyParser('json', { limit: REQUEST_LIMITS.control.bytes, inflate: false });
  limitHttp1Connections(app.getHttpServer(), settings.handshakeTimeoutMs);
}
