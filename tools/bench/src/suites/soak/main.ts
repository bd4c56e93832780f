// bench:soak: sustained load on server-a and server-b at once, then errors and memory growth. Not one of
// the published experiments: a check that neither server leaks or fails under minutes of load.
import type { SuiteOptionsSpec } from '../common/args';
import { suiteMain, type SuiteDefinition } from '../common/suite-main';
import { measureSoak, soakFailure, type SoakResults, type SoakSettings } from './measure';
import { renderSoakHtml, renderSoakMarkdown } from './render';
import { MAX_LATE_GROWTH } from './judge';

export const SOAK_SPEC: SuiteOptionsSpec<SoakSettings> = {
  suite: 'soak',
  about:
    "Sustained load on server-a and server-b at once (the blog variant's apps), each server's memory read every 2 s;\n" +
    'writes results/soak-<UTC timestamp>/. Exit code 1 when a call failed or a server retained memory: its live heap\n' +
    `or its external memory grew by more than ${Math.round(MAX_LATE_GROWTH * 100)} % of its RSS from the first half to the second.`,
  options: {
    durationS: { description: 'seconds of measured load', min: 1, max: 3600 },
    warmupS: { description: 'seconds of the same load before it, not measured', min: 0, max: 600 },
    httpConcurrency: { description: 'keep-alive HTTP/1.1 connections kept busy against server-a (closed loops)', min: 1, max: 1000 },
    grpcConcurrency: { description: 'concurrent gRPC calls kept in flight against server-b (closed loops)', min: 1, max: 1000 },
    rows: { description: 'rows per call', min: 1, max: 10_000 },
  },
  presets: {
    default: { durationS: 120, warmupS: 10, httpConcurrency: 100, grpcConcurrency: 50, rows: 1 },
    quick: { durationS: 2, warmupS: 1, httpConcurrency: 20, grpcConcurrency: 10, rows: 1 },
  },
};

export const SOAK_SUITE: SuiteDefinition<SoakSettings, SoakResults> = {
  spec: SOAK_SPEC,
  needsServers: true,
  plan: (settings) => ({ load: { durationS: settings.durationS, warmupS: settings.warmupS }, maxLateGrowth: MAX_LATE_GROWTH }),
  run: (context) => measureSoak(context.servers!, context.settings, context.log, context.profiled),
  failure: soakFailure,
  markdown: renderSoakMarkdown,
  html: renderSoakHtml,
};

if (require.main === module) suiteMain(SOAK_SUITE);
