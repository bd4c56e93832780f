import { HttpService } from '@nestjs/axios';
import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import type { ClientGrpc } from '@nestjs/microservices';
import { firstValueFrom, timeout, type Observable } from 'rxjs';
import { SETTINGS, type Settings } from '@bench/config';
import { HEALTH_SERVICE } from '@bench/proto';
import { SAMPLE_GRPC_CLIENT } from './transports/tokens';

interface HealthClient {
  check(request: { service: string }): Observable<{ status: string }>;
}

const PROBE_TIMEOUT_MS = 2000;

@Controller('health')
export class HealthController {
  constructor(
    private readonly http: HttpService,
    @Inject(SAMPLE_GRPC_CLIENT) private readonly grpc: ClientGrpc,
    @Inject(SETTINGS) private readonly settings: Settings,
  ) {}

  /** Liveness: the client is listening. */
  @Get()
  check(): { status: 'SERVING'; service: 'client' } {
    return { status: 'SERVING', service: 'client' };
  }

  /** Readiness: the client is listening and both servers answer their health checks. */
  @Get('ready')
  async ready(): Promise<{ status: 'SERVING'; upstreams: Record<string, string> }> {
    const [serverA, serverB] = await Promise.all([this.probeServerA(), this.probeServerB()]);
    const upstreams = { 'server-a': serverA, 'server-b': serverB };
    if (serverA !== 'SERVING' || serverB !== 'SERVING') {
      throw new ServiceUnavailableException({ statusCode: 503, status: 'NOT_SERVING', upstreams });
    }
    return { status: 'SERVING', upstreams };
  }

  private async probeServerA(): Promise<string> {
    try {
      const response = await firstValueFrom(
        this.http.get(`${this.settings.serverAUrl}/health`, { timeout: PROBE_TIMEOUT_MS }),
      );
      return (response.data as { status?: string }).status ?? 'UNKNOWN';
    } catch (error) {
      return `UNREACHABLE (${error instanceof Error ? error.message : String(error)})`;
    }
  }

  private async probeServerB(): Promise<string> {
    try {
      const health = this.grpc.getService<HealthClient>(HEALTH_SERVICE);
      const reply = await firstValueFrom(health.check({ service: '' }).pipe(timeout(PROBE_TIMEOUT_MS)));
      return reply.status;
    } catch (error) {
      const details = (error as { details?: string; message?: string }).details ?? (error as Error).message;
      return `UNREACHABLE (${details})`;
    }
  }
}
