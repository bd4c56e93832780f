// bench:latency (experiment §2): sequential calls of a trivial method over gRPC and over HTTP/1.1
// (JSON or protobuf body, with and without keep-alive); percentiles, first call and connect share.
import type { SuiteOptionsSpec } from '../common/args';
import { suiteMain, type SuiteDefinition } from '../common/suite-main';
import { measureLatency, type LatencyResults, type LatencySettings } from './measure';
import { renderLatencyHtml, renderLatencyMarkdown } from './render';
import { LATENCY_TRANSPORTS } from './transports';

export const LATENCY_SPEC: SuiteOptionsSpec<LatencySettings> = {
  suite: 'latency',
  about:
    'Sequential calls of a trivial method (experiment §2) over gRPC and over HTTP/1.1 (JSON or protobuf body, with\n' +
    'and without keep-alive): percentiles, first call and connect share; writes results/latency-<UTC timestamp>/.',
  options: {
    calls: { description: 'sequential timed calls per transport and round (the migration used 100)', min: 1, max: 1_000_000 },
    rounds: { description: 'rounds (transports rotate their order each round)', min: 1, max: 100 },
    warmup: { description: 'untimed calls after the first call of each round', min: 0, max: 100_000 },
  },
  presets: {
    default: { calls: 100, rounds: 10, warmup: 20 },
    quick: { calls: 20, rounds: 1, warmup: 2 },
  },
};

export const LATENCY_SUITE: SuiteDefinition<LatencySettings, LatencyResults> = {
  spec: LATENCY_SPEC,
  needsServers: true,
  plan: () => ({ transports: LATENCY_TRANSPORTS }),
  run: (context) => measureLatency(context.servers!, LATENCY_TRANSPORTS, context.settings, context.progress, context.path, context.profiled),
  markdown: renderLatencyMarkdown,
  html: renderLatencyHtml,
};

if (require.main === module) suiteMain(LATENCY_SUITE);
