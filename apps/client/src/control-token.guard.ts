import { Inject, Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { carriesToken, CONTROL_ACCESS, needsToken, unauthorizedBody, type ControlAccess } from '@bench/config';

interface RequestLike {
  url?: string;
  originalUrl?: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Every route but the health checks needs the client's token when it has one (libs/config control-access.ts). */
@Injectable()
export class ControlTokenGuard implements CanActivate {
  constructor(@Inject(CONTROL_ACCESS) private readonly access: ControlAccess) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RequestLike>();
    const pathname = new URL(request.originalUrl ?? request.url ?? '/', 'http://client').pathname;
    if (!needsToken(this.access, pathname) || carriesToken(this.access, request.headers.authorization)) return true;
    const response = context.switchToHttp().getResponse<{ header(name: string, value: string): unknown }>();
    response.header('WWW-Authenticate', 'Bearer');
    throw new UnauthorizedException(unauthorizedBody());
  }
}
