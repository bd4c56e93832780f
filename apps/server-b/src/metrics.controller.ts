import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { processSampler, type ProcessSample } from '@bench/config';
import { METRICS_SERVICE, type ReadRequest__Output } from '@bench/proto';

@Controller()
export class MetricsController {
  /** This process's CPU time and memory, read by the client around timed calls. */
  @GrpcMethod(METRICS_SERVICE, 'Read')
  read(request: ReadRequest__Output): ProcessSample {
    return processSampler().read(request.resetPeak);
  }
}
