import { Catch, HttpException, type ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';

/**
 * A request the body parser refused (413 over REQUEST_LIMITS.http, 415 compressed, 400 malformed JSON)
 * is answered with its status as Nest would, but not logged: Nest logs every error that is not an
 * HttpException with its stack, so each refused body printed ~10 lines, and a caller could fill the
 * log at will. Every other error goes to Nest's own handling.
 */
@Catch()
export class ClientErrorsFilter extends BaseExceptionFilter {
  override catch(error: unknown, host: ArgumentsHost): void {
    if (!isRefusedRequest(error)) return super.catch(error, host);
    super.catch(new HttpException({ statusCode: error.status, error: error.type ?? 'Bad Request', message: error.message }, error.status), host);
  }
}

function isRefusedRequest(error: unknown): error is Error & { status: number; type?: string } {
  const status = (error as { status?: unknown } | null)?.status;
  return error instanceof Error && !(error instanceof HttpException) && typeof status === 'number' && status >= 400 && status < 500;
}
