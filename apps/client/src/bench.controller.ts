import { Body, Controller, Get, HttpCode, Inject, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { runtimeInfo, SETTINGS, tuningsFor, type RuntimeInfo, type Settings, type Tuning } from '@bench/config';
import { PROTO_LOADER_SETTINGS } from '@bench/proto';
import { CallRunner, parseCaseRequest, parsePathRequest, type CallSamples, type PathReport } from '@bench/harness';
import { callerSignal } from '@bench/samples';
import { orBadRequest } from '@bench/validation';

/** The route the bench drives: runs one case many times inside this process and returns raw samples. */
@Controller('bench')
export class BenchController {
  constructor(
    private readonly runner: CallRunner,
    @Inject(SETTINGS) private readonly settings: Settings,
  ) {}

  /** Where the measurements happen: this process's Node, CPU, package versions and limits. */
  @Get('info')
  info(): RuntimeInfo & {
    pid: number;
    settings: Settings;
    protoLoader: typeof PROTO_LOADER_SETTINGS;
    framework: string;
    variant: string;
    tunings: readonly Tuning[];
  } {
    return {
      ...runtimeInfo(),
      pid: process.pid,
      settings: this.settings,
      protoLoader: PROTO_LOADER_SETTINGS,
      framework: 'nest',
      // The bench labels every result with this, so a run against a running client says what it measured.
      variant: this.settings.variant,
      tunings: tuningsFor(this.settings.variant),
    };
  }

  /** This client's path to each server, measured from where it runs (path-probe.ts). */
  @Get('path')
  path(@Query('samples') samples?: string, @Query('bulkBytes') bulkBytes?: string): Promise<PathReport> {
    const request = orBadRequest(parsePathRequest({ samples, bulkBytes }));
    return this.runner.path({ ...request, serverAUrl: this.settings.serverAUrl, serverBAddress: this.settings.serverBUrl, timeoutMs: this.settings.callTimeoutMs, security: this.settings.security });
  }

  /** One case's calls; a caller that goes away before the answer ends the run (and frees the runner for the next). */
  @Post('run')
  @HttpCode(200)
  run(@Body() body: unknown, @Res({ passthrough: true }) response: Response): Promise<CallSamples> {
    const request = orBadRequest(parseCaseRequest(body, this.settings, this.runner.payloadNames, this.runner.transportNames));
    return this.runner.run(request, callerSignal(undefined, response));
  }
}
