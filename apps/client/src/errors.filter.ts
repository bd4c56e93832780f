import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { BusyError, CaseFailure } from '@bench/harness';

/**
 * Maps the client's own failures to HTTP: a failed or wrong upstream reply is 502 Bad Gateway with
 * the stage and reason, a second concurrent run is 409 Conflict, validation stays 400, and the body
 * parser's errors keep their 4xx status (413 for a body over the limit), always as a JSON object.
 */
@Catch()
export class ErrorsFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (error instanceof HttpException) {
      // Nest 12 hands body-parser's errors over as HttpExceptions, some with a plain string (413's
      // "request entity too large"): answered as JSON with the status, as Nest's own filter does.
      const body = error.getResponse();
      response.status(error.getStatus()).json(typeof body === 'string' ? { statusCode: error.getStatus(), message: body } : body);
    } else if (error instanceof CaseFailure) {
      response.status(502).json({ statusCode: 502, error: 'Bad Gateway', stage: error.stage, message: error.message });
    } else if (error instanceof BusyError) {
      response.status(409).json({ statusCode: 409, error: 'Conflict', message: error.message });
    } else if (isClientError(error)) {
      // body-parser's own errors (malformed JSON, body over the size limit) carry their 4xx status.
      response.status(error.status).json({ statusCode: error.status, error: error.type ?? 'Bad Request', message: error.message });
    } else {
      const message = error instanceof Error ? error.message : String(error);
      response.status(500).json({ statusCode: 500, error: 'Internal Server Error', message });
    }
  }
}

function isClientError(error: unknown): error is Error & { status: number; type?: string } {
  const status = (error as { status?: unknown } | null)?.status;
  return error instanceof Error && typeof status === 'number' && status >= 400 && status < 500;
}
