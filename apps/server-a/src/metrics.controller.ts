import { Controller, Get, Query } from '@nestjs/common';
import { processSampler, type ProcessSample } from '@bench/config';

@Controller('metrics')
export class MetricsController {
  /** This process's CPU time and memory, read by the client around timed calls (`?resetPeak=true`). */
  @Get()
  read(@Query('resetPeak') resetPeak?: string): ProcessSample {
    return processSampler().read(resetPeak === 'true');
  }
}
