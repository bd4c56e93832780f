import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { BusyError, CaseFailure } from '@bench/harness';

/**
 * Maps the client's own failures to HTTP: a failed or wrong upstream reply is 502 Bad Gateway with
 * the stage and reason, a second concurrent run is 409 Conflict, validation stays 400.
 */
@Catch()
export class ErrorsFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (error instanceof HttpException) {
      response.status(error.getStatus()).json(error.getResponse());
    } else if (error instanceof CaseFailure) {
      response.status(502).json({ statusCode: 502, error: 'Bad Gateway', stage: error.stage, message: error.message });
    } else if (error instanceof BusyError) {
      response.status(409).json({ statusCode: 409, error: 'Conflict', message: error.message });
    } else {
      const message = error instanceof Error ? error.message : String(error);
      response.status(500).json({ statusCode: 500, error: 'Internal Server Error', message });
    }
  }
}
