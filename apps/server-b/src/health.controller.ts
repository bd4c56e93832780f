import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { HEALTH_SERVICE, type HealthCheckResponse } from '@bench/proto';

@Controller()
export class HealthController {
  /** Readiness: grpc.health.v1.Health/Check answers once the server is listening. */
  @GrpcMethod(HEALTH_SERVICE, 'Check')
  check(): HealthCheckResponse {
    return { status: 'SERVING' };
  }
}
