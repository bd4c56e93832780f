import { Controller, Get } from '@nestjs/common';

@Controller('health')
export class HealthController {
  /** Readiness: answers once the app is listening (used by the bench and docker-compose). */
  @Get()
  check(): { status: 'SERVING'; service: 'server-a' } {
    return { status: 'SERVING', service: 'server-a' };
  }
}
