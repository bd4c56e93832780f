import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { runtimeInfo, SETTINGS, type RuntimeInfo, type Settings } from '@bench/config';
import { PROTO_LOADER_SETTINGS } from '@bench/proto';
import { orBadRequest, parseEnumField, parseIntField } from '@bench/validation';
import { CaseRunner, type CaseRequest, type CaseRun } from './case-runner.service';
import { TRANSPORT_NAMES } from './transports/row-transport';

/** Most untimed and timed calls one bench request may ask for. */
const MAX_CALLS = 10_000;

/** The route the bench drives: runs one case many times inside this process and returns raw samples. */
@Controller('bench')
export class BenchController {
  constructor(
    private readonly runner: CaseRunner,
    @Inject(SETTINGS) private readonly settings: Settings,
  ) {}

  /** Where the measurements happen: this process's Node, CPU, package versions and limits. */
  @Get('info')
  info(): RuntimeInfo & { pid: number; settings: Settings; protoLoader: typeof PROTO_LOADER_SETTINGS } {
    return { ...runtimeInfo(), pid: process.pid, settings: this.settings, protoLoader: PROTO_LOADER_SETTINGS };
  }

  @Post('run')
  @HttpCode(200)
  run(@Body() body: unknown): Promise<CaseRun> {
    return this.runner.run(this.parse(body));
  }

  private parse(body: unknown): CaseRequest {
    const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const cold = input.cold ?? true;
    if (typeof cold !== 'boolean') {
      orBadRequest({ ok: false, error: { field: 'cold', rule: 'type', message: 'cold must be true or false' } });
    }
    return {
      transport: orBadRequest(parseEnumField('transport', input.transport, TRANSPORT_NAMES)),
      rows: orBadRequest(parseIntField('rows', input.rows, { min: 1, max: this.settings.maxRows })),
      requests: orBadRequest(parseIntField('requests', input.requests, { min: 1, max: this.settings.maxParallel })),
      warmup: orBadRequest(parseIntField('warmup', input.warmup ?? 1, { min: 0, max: MAX_CALLS })),
      runs: orBadRequest(parseIntField('runs', input.runs, { min: 0, max: MAX_CALLS })),
      cold: cold as boolean,
    };
  }
}
