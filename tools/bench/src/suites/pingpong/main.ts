// bench:pingpong (experiment §3b): for a fixed time per payload, send → wait for the reply → send
// again over gRPC unary, a gRPC bidirectional stream and a REST JSON POST; HDR histogram latencies.
import type { SuiteOptionsSpec } from '../common/args';
import { suiteMain, type SuiteDefinition } from '../common/suite-main';
import { measurePingPong, type PingPongResults, type PingPongSettings } from './measure';
import { PINGPONG_PAYLOADS, PINGPONG_TRANSPORTS } from './plan';
import { renderPingPongHtml, renderPingPongMarkdown } from './render';

export const PINGPONG_SPEC: SuiteOptionsSpec<PingPongSettings> = {
  suite: 'pingpong',
  about:
    'For a fixed time per payload (experiment §3b), send, wait for the reply, send again, over gRPC unary, a gRPC\n' +
    'bidirectional stream and a REST JSON POST; HDR histogram latencies; writes results/pingpong-<UTC timestamp>/.',
  options: {
    durationMs: { description: 'timed ping-pong per payload and transport, ms (the experiment used 60 s)', min: 100, max: 60_000 },
    warmupMs: { description: 'untimed ping-pong before each cell, ms', min: 0, max: 60_000 },
  },
  presets: {
    default: { durationMs: 10_000, warmupMs: 1_000 },
    quick: { durationMs: 200, warmupMs: 50 },
  },
};

export const PINGPONG_SUITE: SuiteDefinition<PingPongSettings, PingPongResults> = {
  spec: PINGPONG_SPEC,
  needsServers: true,
  plan: () => ({ transports: PINGPONG_TRANSPORTS, payloads: PINGPONG_PAYLOADS }),
  run: (context) =>
    measurePingPong(context.servers!, PINGPONG_TRANSPORTS, PINGPONG_PAYLOADS, context.settings, context.progress, context.profiled),
  markdown: renderPingPongMarkdown,
  html: renderPingPongHtml,
};

if (require.main === module) suiteMain(PINGPONG_SUITE);
