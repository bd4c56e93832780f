import { Controller, Get, Inject, Param } from '@nestjs/common';
import { SETTINGS, type Settings } from '@bench/config';
import { orBadRequest, parseEnumField, parseIntField } from '@bench/validation';
import { CallRunner } from '@bench/harness';
import type { TransportName } from '@bench/transports';

/** What the blog's routes logged, now returned as JSON. */
export interface CallResult {
  transport: TransportName;
  rows: number;
  requests: number;
  elapsedMs: number;
  rowsReceived: number;
}

/** The blog's four routes: one call each, timed around the server-to-server call. */
@Controller('client')
export class ClientController {
  constructor(
    private readonly runner: CallRunner,
    @Inject(SETTINGS) private readonly settings: Settings,
  ) {}

  /** One request to server-a (JSON) for `count` rows. */
  @Get('call-a/:count')
  callA(@Param('count') count: string): Promise<CallResult> {
    return this.call('json', this.rows(count), 1);
  }

  /** `count` parallel requests to server-a for 1 row each. */
  @Get('call-a-parallel/:count')
  callAParallel(@Param('count') count: string): Promise<CallResult> {
    return this.call('json', 1, this.requests(count));
  }

  /** One request to server-b (gRPC) for `count` rows. */
  @Get('call-b/:count')
  callB(@Param('count') count: string): Promise<CallResult> {
    return this.call('grpc', this.rows(count), 1);
  }

  /** `count` parallel requests to server-b for 1 row each. */
  @Get('call-b-parallel/:count')
  callBParallel(@Param('count') count: string): Promise<CallResult> {
    return this.call('grpc', 1, this.requests(count));
  }

  /** One request to server-a (JSON) for `count` items of a payload endpoint (libs/payloads), e.g. /client/orders/call-a/100. */
  @Get(':payload/call-a/:count')
  payloadCallA(@Param('payload') payload: string, @Param('count') count: string): Promise<CallResult> {
    return this.call('json', this.rows(count), 1, this.payload(payload));
  }

  /** The same from server-b (gRPC). */
  @Get(':payload/call-b/:count')
  payloadCallB(@Param('payload') payload: string, @Param('count') count: string): Promise<CallResult> {
    return this.call('grpc', this.rows(count), 1, this.payload(payload));
  }

  private payload(raw: string): string {
    return orBadRequest(parseEnumField('payload', raw, this.runner.payloadNames));
  }

  private rows(raw: string): number {
    return orBadRequest(parseIntField('count', raw, { min: 1, max: this.settings.maxRows }));
  }

  private requests(raw: string): number {
    return orBadRequest(parseIntField('count', raw, { min: 1, max: this.settings.maxParallel }));
  }

  private async call(transport: TransportName, rows: number, requests: number, payload?: string): Promise<CallResult> {
    const { elapsedMs, rowsReceived } = await this.runner.timeOnce(transport, rows, requests, this.settings.callTimeoutMs, payload);
    return { transport, rows, requests, elapsedMs, rowsReceived };
  }
}
