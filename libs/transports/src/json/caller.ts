import type { Caller } from '../contract';
import { messageCaller, type MessageCall } from '../common/http-caller';

/** A suite's message as JSON over HTTP/1.1 (node:http), each reply parsed with JSON.parse and checked. */
export function jsonCaller<Res>(call: MessageCall<Res>): Caller {
  return messageCaller(call, {
    contentType: 'application/json',
    encode: (request) => Buffer.from(JSON.stringify(request)),
    decode: (body) => JSON.parse(body.toString('utf8')) as Res,
  });
}
