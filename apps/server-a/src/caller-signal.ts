import { createParamDecorator, StreamableFile, type ExecutionContext } from '@nestjs/common';
import { callerSignal, DEADLINE_HEADER, parseDeadlineHeader } from '@bench/samples';

type RawOrWrapped<T> = T & { raw?: T };

/** Makes the request's AbortSignal when called: only large replies need one, so small ones pay nothing for it. */
export type CallerSignalOf = () => AbortSignal;

/**
 * The request's AbortSignal, made on demand: aborted when the caller's deadline (the `x-deadline-ms`
 * header) passes or its connection closes before the reply is written. Express hands Node's own request
 * and response; Fastify wraps them (`raw`), on HTTP/1.1 and HTTP/2 alike.
 */
export const CallerSignal = createParamDecorator((_data: unknown, context: ExecutionContext): CallerSignalOf => {
  const http = context.switchToHttp();
  const request = http.getRequest<RawOrWrapped<{ headers: Record<string, string | string[] | undefined> }>>();
  const response = http.getResponse<RawOrWrapped<Parameters<typeof callerSignal>[1]>>();
  return () => callerSignal(parseDeadlineHeader((request.raw ?? request).headers[DEADLINE_HEADER]), response.raw ?? response);
});

/** A reply stream fails only when abandoned (already logged): the caller is gone, so the connection is just dropped. */
export function abandonable(file: StreamableFile): StreamableFile {
  return file.setErrorHandler((_error, response) => response.destroy?.());
}
