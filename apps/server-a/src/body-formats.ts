import { HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { malformedReason, PROTOBUF_MEDIA_TYPE } from '@bench/proto';
import { badRequest } from '@bench/validation';

/** The one reply surface Express's res and Fastify's reply share, for the protobuf routes. */
export interface RawReply {
  status(code: number): RawReply;
  header(name: string, value: string): RawReply;
  send(body: Buffer): unknown;
  /** Drops the connection (a reply abandoned once its caller has gone). Express: the socket; Fastify: its raw response's. */
  destroy?(): void;
  raw?: { destroy(): void };
}

/** Drops a reply's connection without an answer: its caller is gone or has stopped waiting. */
export function dropReply(reply: RawReply): void {
  if (reply.raw) reply.raw.destroy();
  else reply.destroy?.();
}

/** 415 naming the media type a route reads, when a request carries another one. */
export function requireMediaType(actual: string | undefined, expected: string): void {
  const type = (actual ?? '').split(';')[0].trim().toLowerCase();
  if (type !== expected) {
    throw new HttpException(
      { statusCode: 415, error: 'Unsupported Media Type', message: `this route reads ${expected} bodies, got ${actual ? JSON.stringify(actual) : 'no Content-Type'}` },
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
    );
  }
}

/**
 * Fastify reads no Content-Encoding (it would hand gzip bytes to the JSON parser): a compressed body is
 * refused with 415 before it is read, as Express's parsers do with `inflate: false`. No caller of ours
 * compresses a request (docs/reliability.md). `readsItsOwn`: routes that decide for themselves (Connect).
 */
export function refuseCompressedBodies(instance: Pick<FastifyInstance, 'addHook'>, readsItsOwn: (url: string) => boolean = () => false): void {
  instance.addHook('onRequest', async (request, reply) => {
    const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (encoding === 'identity' || readsItsOwn(request.url)) return;
    return reply.code(415).header('accept-encoding', 'identity').send({
      statusCode: 415,
      error: 'Unsupported Media Type',
      message: `content encoding ${JSON.stringify(encoding)} is not accepted: send the body uncompressed`,
    });
  });
}

/** The decoded protobuf body, or 400 when the bytes are not a message of the route's type. */
export function decodeProtobufBody<T>(body: unknown, decode: (bytes: Buffer) => T, messageName: string): T {
  if (!Buffer.isBuffer(body)) throw badRequest({ field: 'body', rule: 'required', message: `the body must be a ${messageName} message` });
  const message = decode(body);
  const malformed = malformedReason(message);
  if (malformed) throw badRequest({ field: 'body', rule: 'type', message: `the body is not a valid ${messageName} message: ${malformed}` });
  return message;
}

export function sendProtobuf(reply: RawReply, bytes: Buffer): void {
  reply.status(200).header('Content-Type', PROTOBUF_MEDIA_TYPE).send(bytes);
}
