import { isAxiosError } from 'axios';
import { catchError, type Observable, throwError } from 'rxjs';

/** How much of an error reply's body a failure quotes: enough for a proxy's one-line reason. */
const QUOTED_CHARS = 200;

/** Whether axios's status (undefined before a reply) is a success: only then is a body parsed as rows. */
export function isSuccess(status: number | undefined): boolean {
  return status === undefined || (status >= 200 && status < 300);
}

/**
 * An HTTP error reply as a failure that says who answered what: a sidecar's 503 reads "HTTP 503 from
 * server-a: upstream connect error or disconnect/reset before headers…" rather than a JSON parse error
 * or axios's bare "Request failed with status code 503". Other errors (timeouts, resets) pass unchanged.
 */
export function failOnReplyStatus<T>(source: Observable<T>): Observable<T> {
  return source.pipe(catchError((error: unknown) => throwError(() => replyError(error))));
}

function replyError(error: unknown): unknown {
  if (!isAxiosError(error) || !error.response) return error;
  const { status, data } = error.response;
  const text = typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString('utf8') : data instanceof ArrayBuffer ? Buffer.from(data).toString('utf8') : JSON.stringify(data ?? '');
  const said = text.replace(/\s+/g, ' ').trim().slice(0, QUOTED_CHARS);
  return new Error(`HTTP ${status} from server-a${said ? `: ${said}` : ''}`);
}
